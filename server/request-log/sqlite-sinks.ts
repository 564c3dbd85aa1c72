/**
 * Where the SQLite request log's batches are written (D48): on a thread of its own with its
 * own connection to the log's file, or on this thread for a log in memory, where no other
 * connection can reach the data.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from '../store/db.ts';
import type { LogWorkerData } from './log-worker.ts';
import type { BatchSink, SinkOptions } from './sink.ts';
import type { LogSummaryRow, RequestLogTable } from './store.ts';
import { makeLogWriter } from './writer.ts';

/** Writes batches on this thread (a log in memory), pruning a step per event-loop turn. */
export function mainThreadSink(db: Db, table: RequestLogTable, options: SinkOptions): BatchSink {
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
export function workerSink(file: string, options: SinkOptions): BatchSink {
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

