/**
 * The request log's writer thread (D48): its own connection to the sandbox's database file,
 * committing without fsync (WAL, synchronous NORMAL: only checkpoints sync), so that
 * cutting, writing and pruning the log never take the event loop's time. Messages:
 * `{ batch, listened }` → `{ summaries }`; `{ close: true }` → prunes what is left,
 * closes the connection and answers `{ closed: true }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../store/db.ts';
import { makeRequestLogTable } from '../store/request-log.ts';
import { type CapturedRequest, makeLogWriter } from './writer.ts';

/** What the thread is started with. */
export interface LogWorkerData {
  file: string;
  retention: number;
  pruneStep: number;
}

const { file, retention, pruneStep } = workerData as LogWorkerData;
const db = openDatabase(file);
db.pragma('synchronous = NORMAL');
const writer = makeLogWriter(makeRequestLogTable(db), { retention, pruneStep });
let pruning: NodeJS.Immediate | null = null;

const report = (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });

function pruneSome(): void {
  pruning = null;
  try {
    if (writer.pruneSome()) pruning = setImmediate(pruneSome);
  } catch (error) {
    report(error);
  }
}

parentPort!.on('message', (message: { batch: CapturedRequest[]; listened: string[] } | { close: true }) => {
  if ('close' in message) {
    if (pruning !== null) clearImmediate(pruning);
    try {
      while (writer.pruneSome());
    } catch (error) {
      report(error);
    }
    db.close();
    parentPort!.postMessage({ closed: true });
    return;
  }
  try {
    const summaries = writer.write(message.batch, new Set(message.listened));
    if (summaries.length > 0) parentPort!.postMessage({ summaries });
  } catch (error) {
    report(error);
  }
  if (pruning === null) pruning = setImmediate(pruneSome);
});
