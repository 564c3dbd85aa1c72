/** What the request log's recorder asks of an engine's writer (a sink): the SQLite worker or main thread, or PostgreSQL. */
import type { LogSummaryRow } from './store.ts';
import type { CapturedRequest } from './writer.ts';

/** What a stream listener hears: the summaries of the tenant's entries just written, oldest first. */
export type LogListener = (entries: LogSummaryRow[]) => void;

/** How a batch reaches the database, and how the writing ends (`close` also closes what the sink opened). */
export interface BatchSink {
  write(batch: CapturedRequest[], listened: ReadonlySet<string>): void;
  clear(): void;
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** What an engine's sink is made with. */
export interface SinkOptions {
  retention: number;
  /** SQLite: at most how many entries' chunks one prune step deletes (PostgreSQL prunes in each batch's statement). */
  pruneStep: number;
  onError: (error: unknown) => void;
  /** Called with the summaries of each batch's entries of the tenants someone listens to. */
  heard: LogListener;
}
