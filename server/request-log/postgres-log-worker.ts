/**
 * The request log's writer thread on PostgreSQL (D48, D78): a pool of its own (one
 * connection, commits that do not wait for the disk) to the sandbox's database, the
 * messages of worker-sink.ts handled one after another, so `settle` is answered once every
 * batch before it is written and pruned.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openPool } from '../store/postgres/pool.ts';
import { makePostgresLogTable } from './postgres-table.ts';
import { makePostgresLogWriter } from './postgres-writer.ts';
import { unpackBatch } from './batch-wire.ts';

/** What the thread is started with: the database's URL (password and all), and how much to keep. */
export interface PostgresLogWorkerData {
  url: string;
  retention: number;
}

type Message = { batch: unknown[]; listened: string[] } | { clear: true } | { settle: true } | { close: true };

const { url, retention } = workerData as PostgresLogWorkerData;
const pool = openPool(url, { max: 1, synchronousCommit: false });
const writer = makePostgresLogWriter(makePostgresLogTable(pool, retention));
const post = (message: object) => parentPort!.postMessage(message);

async function handle(message: Message): Promise<void> {
  if ('settle' in message) post({ settled: true });
  else if ('clear' in message) await writer.clear();
  else if ('close' in message) {
    await pool.end();
    post({ closed: true });
  } else {
    const summaries = await writer.write(unpackBatch(message.batch), new Set(message.listened));
    if (summaries.length > 0) post({ summaries });
  }
}

let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (message: Message) => {
  queue = queue.then(() => handle(message)).catch((error: unknown) => post({ error: error instanceof Error ? error.message : String(error) }));
});
