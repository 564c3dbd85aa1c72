/**
 * The store contract on SQLite with database latency added (a loaded run, loaded-suite.ts):
 * the same `SqliteSql`, its statements delayed by `latency` while it is on.
 *
 * A single statement (`one`, `all`, `tuples`, `run`) waits its delay and then runs, so it reads
 * the database as it is when the delay ends, as a statement that travelled to a slow server does.
 *
 * A unit of work (`read`, `write`) stays what SQLite makes it: one synchronous transaction that
 * nothing interleaves with. Its statements cannot be spread out, so their delays are placed
 * around it: one draw before it runs (its first statement's way to the database: the unit sees
 * the state of that moment, and other requests move on meanwhile) and one draw per further
 * statement after it ran, before its promise settles (their round trips). A unit of n
 * statements thus costs n draws, as on PostgreSQL, where each statement is a round trip (and
 * BEGIN, COMMIT and a tenant's lock are more). The difference: its writes are visible to other
 * requests during the trailing delays, where on PostgreSQL they become visible at the commit,
 * at the end. Splitting the unit to mimic that would give up the atomicity the SQLite store
 * relies on; a sandbox that answers late after committing early is what any server with a slow
 * network in front of it does.
 *
 * What bypasses `Sql` is not delayed: the key cache's watch of the connection (`db`), and the
 * request log, which writes its own file from a worker thread.
 */
import type { SqliteSql } from '../../server/store/sqlite-sql.ts';
import type { Statement, Steps, Work } from '../../server/store/sql.ts';
import type { Latency } from './latency.ts';

/** `work` with each statement it yields reported to `onStatement`; a unit the engine ends early ends the inner one too. */
function counted<T>(work: Work<T>, onStatement: () => void): Work<T> {
  return function* (): Steps<T> {
    const steps = work();
    let finished = false;
    try {
      let next = steps.next();
      while (!next.done) {
        onStatement();
        next = steps.next(yield next.value);
      }
      finished = true;
      return next.value;
    } finally {
      // The engine calls `return` on a failed statement (sqlite-sql.ts): the work's own `finally` blocks run.
      if (!finished) steps.return(undefined as T);
    }
  };
}

/** `sql` with every statement delayed by `latency` while it is on (see the file's comment for where a unit's delays go). */
export function slowSqliteSql(sql: SqliteSql, latency: Latency): SqliteSql {
  const wait = async (draws: number): Promise<void> => {
    let ms = 0;
    for (let n = 0; n < draws; n++) ms += latency.draw();
    if (ms > 0) await latency.sleep(ms);
  };
  const single = async <T>(answer: () => Promise<T>): Promise<T> => {
    if (latency.on) await wait(1);
    return answer();
  };
  const unit = async <T>(run: (work: Work<T>) => Promise<T>, work: Work<T>): Promise<T> => {
    if (!latency.on) return run(work);
    await wait(1);
    let statements = 0;
    try {
      return await run(counted(work, () => (statements += 1)));
    } finally {
      await wait(Math.max(0, statements - 1));
    }
  };
  return {
    engine: 'sqlite',
    db: sql.db,
    one: <T>(s: Statement, args?: readonly unknown[]) => single(() => sql.one<T>(s, args)),
    all: <T>(s: Statement, args?: readonly unknown[]) => single(() => sql.all<T>(s, args)),
    tuples: <T extends readonly unknown[]>(s: Statement, args?: readonly unknown[]) => single(() => sql.tuples<T>(s, args)),
    run: (s: Statement, args?: readonly unknown[]) => single(() => sql.run(s, args)),
    read: <T>(work: Work<T>) => unit((counting) => sql.read(counting), work),
    write: <T>(tenantId: string | null, work: Work<T>) => unit((counting) => sql.write(tenantId, counting), work),
    close: () => sql.close(),
  };
}
