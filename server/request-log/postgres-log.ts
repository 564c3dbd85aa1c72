/**
 * The request log on PostgreSQL (D48, D78): a table of the sandbox's database, written in
 * batches by a thread of its own (postgres-log-worker.ts) through a pool of its own whose
 * commits do not wait for the disk (`synchronous_commit = off`, as the SQLite log commits
 * without an fsync): a `kill -9` of waybill loses only the entries still in memory, a crash
 * of PostgreSQL's machine at most its last fraction of a second of the log, never a write of
 * the sandbox. The control plane reads it through the store's own connections; a read waits
 * until the batches handed over before it are written, so a list shows the requests
 * answered before it. Every process serving the database writes the one table, and a live
 * tail hears the entries of all of them (postgres-tail.ts, D84).
 */
import type { PostgresSql } from '../store/postgres/sql.ts';
import type { PostgresLogWorkerData } from './postgres-log-worker.ts';
import { type BatchSink, makeRecorder, reportLogError, type RequestLog, type RequestLogOptions, type SinkOptions } from './recorder.ts';
import { makePostgresTail } from './postgres-tail.ts';
import { makeRequestLogReads } from './store.ts';
import { workerSink } from './worker-sink.ts';

// requirement: D78
/** The request log in the sandbox's PostgreSQL database (its table made by the migrations, `migrate.ts`); the control plane reads it through `sql`. */
export function makePostgresRequestLog(sql: PostgresSql, options: RequestLogOptions = {}): RequestLog {
  const reads = makeRequestLogReads(sql);
  let sink: BatchSink | undefined;
  const sinkOf = (sinkOptions: SinkOptions) => {
    const workerData: PostgresLogWorkerData = { url: sql.url, retention: sinkOptions.retention };
    return (sink = workerSink('postgres-log-worker', workerData, sinkOptions));
  };
  // A read waits for the batches handed over before it (the recorder hands over the waiting ones first).
  const afterWrites = <A extends unknown[], R>(read: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    await sink?.settle();
    return read(...args);
  };
  const recorder = makeRecorder(options, sinkOf, { page: afterWrites(reads.page), get: afterWrites(reads.get), after: afterWrites(reads.after) });
  // Streams listen to the database, not to this process's writer: the recorder's own listeners stay
  // empty, so its writer thread hands back no summaries.
  const tail = makePostgresTail(sql, options.onError ?? reportLogError);
  return {
    ...recorder,
    subscribe: tail.subscribe,
    close: () => recorder.close().finally(() => tail.close()),
  };
}
