/**
 * What the request log on PostgreSQL does with a batch (D48, D78, D85), on its writer thread:
 * cut and redact each entry (writer.ts) and write the batch, a chunk per tenant, pruning in
 * the same statements (postgres-table.ts).
 */
import { listenedSummaries } from './chunks.ts';
import type { PostgresLogTable } from './postgres-table.ts';
import type { LogSummaryRow } from './store.ts';
import { type CapturedRequest, entryOf } from './writer.ts';

/** The writing half of the request log over `table`; one batch at a time (the caller waits for each). */
export function makePostgresLogWriter(table: PostgresLogTable) {
  return {
    /** Writes `batch`; answers the summaries of the entries of the `listened` tenants, oldest first. */
    async write(batch: readonly CapturedRequest[], listened: ReadonlySet<string>): Promise<LogSummaryRow[]> {
      const entries = batch.map(entryOf);
      return listenedSummaries(entries, await table.insert(entries), listened);
    },
    /** Deletes every entry (the sandbox's reset). */
    async clear(): Promise<void> {
      await table.clear();
    },
  };
}
