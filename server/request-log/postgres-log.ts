/**
 * The request log on PostgreSQL (D48, D78): a table of the sandbox's database, written in
 * batches through a pool of its own whose commits do not wait for the disk
 * (`synchronous_commit = off`, as the SQLite log commits without an fsync): a `kill -9` of
 * waybill loses only the entries still in memory, a crash of PostgreSQL's machine at most
 * its last fraction of a second of the log, never a write of the sandbox. Batches are
 * written one after another, each followed by the pruning it made due; a read waits for the
 * batches handed over before it, so a list shows the requests answered before it.
 */
import { openPool } from '../store/postgres/pool.ts';
import type { PostgresSql } from '../store/postgres/sql.ts';
import { makePostgresLogTable, type PostgresLogTable } from './postgres-table.ts';
import { type BatchSink, makeRecorder, type RequestLog, type RequestLogOptions, type SinkOptions } from './recorder.ts';
import { type LogSummaryRow, makeRequestLogReads } from './store.ts';
import { type CapturedRequest, entryOf, ROWS_PER_TRANSACTION, summaryOf } from './writer.ts';

/** Connections of the log's pool: batches are written one after another, pruning between them. */
const LOG_CONNECTIONS = 1;

/** Writes batches into `table` in order, pruning after each; `written` is a point in that order a read can wait for. */
function postgresSink(table: PostgresLogTable, options: SinkOptions, end: () => Promise<void>): BatchSink & { written(): Promise<void> } {
  const { retention, pruneStep } = options;
  // An estimate of each tenant's entry count (a count on its first write, then kept up), to prune only when over.
  const counts = new Map<string, number>();
  let queue: Promise<void> = Promise.resolve();
  const then = (job: () => Promise<void>) => (queue = queue.then(job).catch(options.onError));

  async function write(batch: CapturedRequest[], listened: ReadonlySet<string>): Promise<void> {
    const summaries: LogSummaryRow[] = [];
    const written = new Map<string, number>();
    for (let start = 0; start < batch.length; start += ROWS_PER_TRANSACTION) {
      const entries = batch.slice(start, start + ROWS_PER_TRANSACTION).map(entryOf);
      const ids = await table.insert(entries);
      entries.forEach((entry, i) => {
        written.set(entry.tenantId, (written.get(entry.tenantId) ?? 0) + 1);
        if (listened.has(entry.tenantId)) summaries.push(summaryOf(ids[i]!, entry));
      });
    }
    options.heard(summaries);
    for (const [tenantId, count] of written) {
      const known = counts.get(tenantId);
      const total = known === undefined ? await table.count(tenantId) : known + count;
      counts.set(tenantId, total);
      if (total > retention) await prune(tenantId);
    }
  }

  /** Deletes the tenant's entries beyond its last `retention`, `pruneStep` rows a statement (another process may prune it too). */
  async function prune(tenantId: string): Promise<void> {
    const upTo = await table.cutoff(tenantId, retention);
    if (upTo !== undefined) while ((await table.deleteStep(tenantId, upTo, pruneStep)) === pruneStep);
    counts.set(tenantId, upTo === undefined ? await table.count(tenantId) : retention);
  }

  return {
    write: (batch, listened) => void then(() => write(batch, listened)),
    clear: () => void then(async () => {
      counts.clear();
      await table.clear();
    }),
    settle: () => queue,
    written: () => queue,
    close: () => queue.then(end),
  };
}

/** The request log in the sandbox's PostgreSQL database (its table made by the migrations, `migrate.ts`); the control plane reads it through `sql`. */
export function makePostgresRequestLog(sql: PostgresSql, options: RequestLogOptions = {}): RequestLog {
  const pool = openPool(sql.url, { max: LOG_CONNECTIONS, synchronousCommit: false });
  const table = makePostgresLogTable(pool);
  const reads = makeRequestLogReads(sql);
  let sink: ReturnType<typeof postgresSink> | undefined;
  const sinkOf = (sinkOptions: SinkOptions) => (sink = postgresSink(table, sinkOptions, () => pool.end()));
  // A read waits for the batches handed over before it (the recorder hands over the waiting ones first).
  const afterWrites = <A extends unknown[], R>(read: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    await sink?.written();
    return read(...args);
  };
  return makeRecorder(options, sinkOf, { page: afterWrites(reads.page), get: afterWrites(reads.get), after: afterWrites(reads.after) });
}
