/**
 * The request log (D48): captured requests wait in memory and are written in batches
 * (every `flushMs`, at once when `batchSize` are waiting or their bodies reach `batchChars`,
 * and at close) by a sink of the
 * engine's. On SQLite the log is a database of its own beside the sandbox's
 * (`requestLogFile`): over a file a thread of its own writes it (`log-worker.ts`), so the
 * event loop only hands a batch over; in memory, where no other connection can reach the
 * data, the batch is written here (`sqlite-sinks.ts`). On PostgreSQL it is a table of the
 * sandbox's database, written through a pool of its own (`postgres-log.ts`, D78). After each
 * batch the tenants it touched are pruned to their last `retention` entries, a bounded step
 * at a time. Whoever streams a tenant's log hears of its new entries once they are written.
 */
import type { Db } from '../store/db.ts';
import { sqliteSql } from '../store/sqlite-sql.ts';
import { mainThreadSink } from './sqlite-sinks.ts';
import type { LogWorkerData } from './log-worker.ts';
import { workerSink } from './worker-sink.ts';
import { type LogFilter, type LogRow, type LogSummaryRow, makeRequestLogReads, makeRequestLogTable, openRequestLogDatabase, type RequestLogTable, requestLogFile } from './store.ts';
import { textLength } from './entry.ts';
import type { CapturedRequest } from './writer.ts';
import type { BatchSink, LogListener, SinkOptions } from './sink.ts';

export type { CapturedRequest } from './writer.ts';
export type { BatchSink, LogListener, SinkOptions } from './sink.ts';

/** The default retention per tenant. */
export const DEFAULT_LOG_RETENTION = 10_000;


/** How many entries each tenant keeps under `options`: at least 1. */
const retentionOf = (options: RequestLogOptions): number => Math.max(1, options.retention ?? DEFAULT_LOG_RETENTION);

/** What the control plane reads of the log, whatever the engine. */
export interface LogReads {
  /** Up to `limit` entries of the tenant older than `before`, newest first, that pass `filter`. */
  page(tenantId: string, filter: LogFilter, before: number, limit: number): Promise<LogSummaryRow[]>;
  /** The tenant's entry `id`, bodies included, or undefined. */
  get(tenantId: string, id: number): Promise<LogRow | undefined>;
  /** Up to `limit` entries of the tenant after `id`, oldest first (a stream resuming). */
  after(tenantId: string, id: number, limit: number): Promise<LogSummaryRow[]>;
}

/** The request log of one app; its reads first hand the waiting entries to the writer. */
export interface RequestLog extends LogReads {
  readonly retention: number;
  /** Queues an entry; it is written with the next batch. */
  record(request: CapturedRequest): void;
  /** Hands the waiting entries to the writer now; written at once on this thread, within milliseconds by the writer thread. */
  flush(): void;
  /** Calls `listener` with each batch of the tenant's new entries; resolves to the unsubscribe once listening. */
  subscribe(tenantId: string, listener: LogListener): Promise<() => void>;
  /** Empties the log (the sandbox's reset, D38). */
  clear(): void;
  /** Resolves once every entry recorded so far is written and pruned. */
  settle(): Promise<void>;
  /** Writes what waits and finishes pruning (at shutdown there is nothing to stall); later entries are dropped. */
  close(): Promise<void>;
}

/** The SQLite request log, with its connection and statements on this thread (for tests that look inside). */
export interface SqliteRequestLog extends RequestLog {
  /** This thread's connection to the log's database. */
  readonly db: Db;
  /** The table's statements on that connection. */
  readonly table: RequestLogTable;
}


/**
 * How much body and page text a batch holds before it goes, whatever its age: answers kept
 * waiting across a young-generation collection are copied by it and moved to the old one
 * (a batch of 200 feed pages is about 3.5 MB), while the copy `postMessage` makes lives
 * outside the JavaScript heap.
 */
export const BATCH_CHARS = 256 * 1024;

/** Options of the request log; the defaults are `waybill serve`'s. */
export interface RequestLogOptions {
  retention?: number;
  flushMs?: number;
  batchSize?: number;
  /** A batch goes once its bodies and pages hold this many characters (bytes of a request body), whatever its age. */
  batchChars?: number;
  /** SQLite: at most how many entries' chunks one prune step deletes (at least one chunk); PostgreSQL prunes in each batch's statement. */
  pruneStep?: number;
  /** SQLite: where batches are written; `worker` needs a database file; default `worker` for a file, `main` for `:memory:`. */
  thread?: 'main' | 'worker';
  onError?: (error: unknown) => void;
}


/** What the request log does with a failure by default: one line on stderr. */
export function reportLogError(error: unknown): void {
  process.stderr.write(`request log: ${error instanceof Error ? error.message : String(error)}\n`);
}

/** The request log over the sink `sinkOf` makes and the engine's `reads`: batching, listeners, the order of a read after a flush. */
export function makeRecorder(options: RequestLogOptions, sinkOf: (sinkOptions: SinkOptions) => BatchSink, reads: LogReads): RequestLog {
  const retention = retentionOf(options);
  const flushMs = options.flushMs ?? 50;
  const batchSize = options.batchSize ?? 200;
  const batchChars = options.batchChars ?? BATCH_CHARS;
  const onError = options.onError ?? reportLogError;
  const listeners = new Map<string, Set<LogListener>>();
  const heard: LogListener = (summaries) => {
    for (const summary of summaries) {
      for (const listener of listeners.get(summary.tenant_id) ?? []) {
        try {
          listener([summary]);
        } catch (error) {
          onError(error);
        }
      }
    }
  };
  const sink = sinkOf({ retention, pruneStep: options.pruneStep ?? 500, onError, heard });
  let waiting: CapturedRequest[] = [];
  // The characters of the bodies and pages waiting: a batch of big answers goes before it has aged.
  let waitingChars = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  function flush(): void {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    waitingChars = 0;
    sink.write(batch, new Set(listeners.keys()));
  }

  return {
    retention,
    record(request) {
      if (closed) return;
      waiting.push(request);
      waitingChars += textLength(request);
      if (waiting.length >= batchSize || waitingChars >= batchChars) flush();
      else if (timer === null) {
        timer = setTimeout(flush, flushMs);
        timer.unref();
      }
    },
    flush,
    page(...args) {
      flush();
      return reads.page(...args);
    },
    get(...args) {
      flush();
      return reads.get(...args);
    },
    after(...args) {
      flush();
      return reads.after(...args);
    },
    subscribe(tenantId, listener) {
      const set = listeners.get(tenantId) ?? new Set();
      set.add(listener);
      listeners.set(tenantId, set);
      return Promise.resolve(() => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(tenantId) === set) listeners.delete(tenantId);
      });
    },
    clear() {
      waiting = [];
      waitingChars = 0;
      sink.clear();
    },
    settle() {
      flush();
      return sink.settle();
    },
    async close() {
      if (closed) return;
      flush();
      closed = true;
      await sink.close();
    },
  };
}

/** The SQLite request log beside the sandbox database file `dbFile` (or `:memory:`), keeping the last `retention` entries of each tenant (at least 1). */
export function makeRequestLog(dbFile: string, options: RequestLogOptions = {}): SqliteRequestLog {
  const file = requestLogFile(dbFile);
  // This thread's connection: the control plane reads through it, and in memory it writes too.
  const logDb = openRequestLogDatabase(file);
  const table = makeRequestLogTable(logDb, retentionOf(options));
  const thread = options.thread ?? (file === ':memory:' ? 'main' : 'worker');
  const sinkOf = (sinkOptions: SinkOptions): BatchSink => {
    const workerData: LogWorkerData = { file, retention: sinkOptions.retention, pruneStep: sinkOptions.pruneStep };
    const sink = thread === 'worker' ? workerSink('log-worker', workerData, sinkOptions) : mainThreadSink(logDb, table, sinkOptions);
    return { ...sink, close: () => sink.close().finally(() => logDb.close()) };
  };
  return { ...makeRecorder(options, sinkOf, makeRequestLogReads(sqliteSql(logDb))), db: logDb, table };
}
