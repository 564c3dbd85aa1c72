/**
 * The SQLite request log's batches written on this thread (D48), for a log in memory, where
 * no other connection can reach the data (a log in a file is written by its own thread:
 * worker-sink.ts, log-worker.ts).
 */
import type { Db } from '../store/db.ts';
import type { BatchSink, SinkOptions } from './sink.ts';
import type { RequestLogTable } from './store.ts';
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
