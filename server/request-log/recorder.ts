/**
 * The request log (D48): captured requests wait in memory and are written in batches
 * (every `flushMs`, at once when `batchSize` are waiting, and at close) to a database of
 * their own beside the sandbox's (`requestLogFile`). Over a file a thread of its own writes
 * them (`log-worker.ts`), so the event loop only hands a batch over; in memory, where no
 * other connection can reach the data, the batch is written here. After each batch the tenants it touched are pruned to their last `retention`
 * entries, a bounded step per turn. Whoever streams a tenant's log hears of its new
 * entries once they are written.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from '../store/db.ts';
import { sqliteSql } from '../store/sqlite-sql.ts';
import { type LogSummaryRow, makeRequestLogReads, makeRequestLogTable, openRequestLogDatabase, type RequestLogReads, type RequestLogTable, requestLogFile } from './store.ts';
import type { LogWorkerData } from './log-worker.ts';
import { type CapturedRequest, makeLogWriter } from './writer.ts';

export type { CapturedRequest } from './writer.ts';

/** The default retention per tenant. */
export const DEFAULT_LOG_RETENTION = 10_000;

/** What a stream listener hears: the summaries of the tenant's entries just written, oldest first. */
export type LogListener = (entries: LogSummaryRow[]) => void;

/** The request log of one app. */
export interface RequestLog {
  readonly retention: number;
  /** This thread's connection to the log's database. */
  readonly db: Db;
  /** The table's statements on the app's own connection (in memory, it writes through them). */
  readonly table: RequestLogTable;
  /** What the control plane reads, over the store contract. */
  readonly reads: RequestLogReads;
  /** Queues an entry; it is written with the next batch. */
  record(request: CapturedRequest): void;
  /** Hands the waiting entries to the writer now; written at once on this thread, within milliseconds by the writer thread. */
  flush(): void;
  /** Calls `listener` with each batch of the tenant's new entries; returns the unsubscribe. */
  subscribe(tenantId: string, listener: LogListener): () => void;
  /** Empties the log (the sandbox's reset, D38). */
  clear(): void;
  /** Resolves once every entry recorded so far is written and pruned. */
  settle(): Promise<void>;
  /** Writes what waits and finishes pruning (at shutdown there is nothing to stall); later entries are dropped. */
  close(): Promise<void>;
}

/** How a batch reaches the database, and how the writing ends. */
interface BatchSink {
  write(batch: CapturedRequest[], listened: ReadonlySet<string>): void;
  clear(): void;
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** Options of the request log; the defaults are `waybill serve`'s. */
export interface RequestLogOptions {
  retention?: number;
  flushMs?: number;
  batchSize?: number;
  pruneStep?: number;
  /** Where batches are written: `worker` needs a database file; default `worker` for a file, `main` for `:memory:`. */
  thread?: 'main' | 'worker';
  onError?: (error: unknown) => void;
}

/** Writes batches on this thread, pruning a step per event-loop turn. */
function mainThreadSink(db: Db, table: RequestLogTable, options: { retention: number; pruneStep: number; onError: (error: unknown) => void; heard: LogListener }): BatchSink {
  const writer = makeLogWriter(table, options);
  let pruning: NodeJS.Immediate | null = null;
  const pruneSome = () => {
    pruning = null;
    if (!db.open) return;
    try {
      if (writer.pruneSome()) pruning = setImmediate(pruneSome);
    } catch (error) {
      options.onError(error);
    }
  };
  return {
    write(batch, listened) {
      if (!db.open) return;
      try {
        options.heard(writer.write(batch, listened));
      } catch (error) {
        options.onError(error);
      }
      pruning ??= setImmediate(pruneSome);
    },
    clear() {
      if (db.open) writer.clear();
    },
    async settle() {
      if (pruning !== null) clearImmediate(pruning);
      pruning = null;
      while (db.open && writer.pruneSome());
    },
    close() {
      return this.settle();
    },
  };
}

/** Writes batches on a thread of its own with its own connection to the database file. */
function workerSink(file: string, options: { retention: number; pruneStep: number; onError: (error: unknown) => void; heard: LogListener }): BatchSink {
  const fromSources = extname(fileURLToPath(import.meta.url)) === '.ts';
  const script = new URL(`./log-worker${fromSources ? '.ts' : '.js'}`, import.meta.url).href;
  const workerData: LogWorkerData = { file, retention: options.retention, pruneStep: options.pruneStep };
  // The sources need tsx registered in the thread too; the compiled package does not.
  const worker = fromSources
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(script)}))`, { eval: true, workerData })
    : new Worker(new URL(script), { workerData });
  worker.unref();
  let closed: (() => void) | null = null;
  const settling: (() => void)[] = [];
  worker.on('message', (message: { summaries?: LogSummaryRow[]; error?: string; closed?: true; settled?: true }) => {
    if (message.summaries !== undefined) options.heard(message.summaries);
    if (message.error !== undefined) options.onError(new Error(message.error));
    if (message.settled) settling.shift()?.();
    if (message.closed) closed?.();
  });
  worker.on('error', options.onError);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    write(batch, listened) {
      worker.postMessage({ batch, listened: [...listened] });
    },
    clear() {
      worker.postMessage({ clear: true });
    },
    settle() {
      return new Promise<void>((resolve) => {
        settling.push(resolve);
        worker.postMessage({ settle: true });
      });
    },
    async close() {
      const done = new Promise<void>((resolve) => (closed = resolve));
      worker.postMessage({ close: true });
      await Promise.race([done, exited]);
      await worker.terminate();
    },
  };
}

/** The request log beside the sandbox database file `dbFile` (or `:memory:`), keeping the last `retention` entries of each tenant (at least 1). */
export function makeRequestLog(dbFile: string, options: RequestLogOptions = {}): RequestLog {
  const file = requestLogFile(dbFile);
  // This thread's connection: the control plane reads through it, and in memory it writes too.
  const logDb = openRequestLogDatabase(file);
  const table = makeRequestLogTable(logDb);
  const retention = Math.max(1, options.retention ?? DEFAULT_LOG_RETENTION);
  const flushMs = options.flushMs ?? 50;
  const batchSize = options.batchSize ?? 200;
  const onError = options.onError ?? ((error: unknown) => process.stderr.write(`request log: ${error instanceof Error ? error.message : String(error)}\n`));
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
  const sinkOptions = { retention, pruneStep: options.pruneStep ?? 500, onError, heard };
  const sink = (options.thread ?? (file === ':memory:' ? 'main' : 'worker')) === 'worker' ? workerSink(file, sinkOptions) : mainThreadSink(logDb, table, sinkOptions);
  let waiting: CapturedRequest[] = [];
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
    sink.write(batch, new Set(listeners.keys()));
  }

  return {
    retention,
    db: logDb,
    table,
    reads: makeRequestLogReads(sqliteSql(logDb)),
    record(request) {
      if (closed) return;
      waiting.push(request);
      if (waiting.length >= batchSize) flush();
      else if (timer === null) {
        timer = setTimeout(flush, flushMs);
        timer.unref();
      }
    },
    flush,
    subscribe(tenantId, listener) {
      const set = listeners.get(tenantId) ?? new Set();
      set.add(listener);
      listeners.set(tenantId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(tenantId) === set) listeners.delete(tenantId);
      };
    },
    clear() {
      waiting = [];
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
      logDb.close();
    },
  };
}
