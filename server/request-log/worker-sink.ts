/**
 * A request log's writer thread (D48), on either engine: the event loop only hands each
 * batch over; cutting the bodies, writing and pruning happen on the thread. Messages to
 * it: `{ batch, listened }` (the batch packed: batch-wire.ts) (answered `{ summaries }` for the listened tenants' entries),
 * `{ clear: true }`, `{ settle: true }` (answered `{ settled: true }` once every batch before
 * it is written and pruned), `{ close: true }` (answered `{ closed: true }`); `{ error }` on a failure.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packBatch } from './batch-wire.ts';
import type { BatchSink, SinkOptions } from './sink.ts';
import type { LogSummaryRow } from './store.ts';

/**
 * Writes batches on a thread of its own running `script` (a file of this folder, without its
 * extension: `log-worker` for SQLite, `postgres-log-worker`), which opens its own connection
 * from `workerData` and answers the messages the module comment lists.
 */
export function workerSink(script: 'log-worker' | 'postgres-log-worker', workerData: object, options: SinkOptions): BatchSink {
  const fromSources = extname(fileURLToPath(import.meta.url)) === '.ts';
  const url = new URL(`./${script}${fromSources ? '.ts' : '.js'}`, import.meta.url).href;
  // The sources need tsx registered in the thread too; the compiled package does not.
  const worker = fromSources
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(url)}))`, { eval: true, workerData })
    : new Worker(new URL(url), { workerData });
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
      worker.postMessage({ batch: packBatch(batch), listened: [...listened], handedAt: Date.now() });
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

