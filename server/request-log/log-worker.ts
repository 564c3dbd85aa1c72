/**
 * The request log's writer thread (D48): its own connection to the log's database file,
 * committing without fsync (WAL, synchronous NORMAL: only checkpoints sync), so that
 * cutting, writing and pruning the log never take the event loop's time. Messages:
 * `{ batch, listened }` → `{ summaries }`; `{ clear: true }` empties the log; `{ settle: true }`
 * prunes what is due and answers `{ settled: true }`;
 * `{ close: true }` prunes what is left, closes the connection and answers `{ closed: true }`.
 * It yields to the answers: the lowest priority while it keeps up (yield-to-answers.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { makeRequestLogTable, openRequestLogDatabase } from './store.ts';
import { unpackBatch } from './batch-wire.ts';
import { makeLogWriter } from './writer.ts';
import { yieldToAnswers } from './yield-to-answers.ts';

/** What the thread is started with. */
export interface LogWorkerData {
  file: string;
  retention: number;
  pruneStep: number;
}

const { file, retention, pruneStep } = workerData as LogWorkerData;
const priority = yieldToAnswers();
const db = openRequestLogDatabase(file);
// Nothing else writes this file: a batch is one transaction, one commit.
const writer = makeLogWriter(makeRequestLogTable(db, retention), { pruneStep, rowsPerTransaction: 1000 });
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

/** Prunes everything due now. */
function pruneAll(): void {
  if (pruning !== null) clearImmediate(pruning);
  pruning = null;
  try {
    while (writer.pruneSome());
  } catch (error) {
    report(error);
  }
}

parentPort!.on('message', (message: { batch: unknown[]; listened: string[]; handedAt: number } | { clear: true } | { settle: true } | { close: true }) => {
  if ('settle' in message) {
    pruneAll();
    parentPort!.postMessage({ settled: true });
    return;
  }
  if ('clear' in message) {
    try {
      writer.clear();
    } catch (error) {
      report(error);
    }
    return;
  }
  if ('close' in message) {
    pruneAll();
    db.close();
    parentPort!.postMessage({ closed: true });
    return;
  }
  priority.waited(Date.now() - message.handedAt);
  try {
    const summaries = writer.write(unpackBatch(message.batch), new Set(message.listened));
    if (summaries.length > 0) parentPort!.postMessage({ summaries });
  } catch (error) {
    report(error);
  }
  if (pruning === null) pruning = setImmediate(pruneSome);
});
