/**
 * The store contract (`sql.ts`) on SQLite, over one better-sqlite3 connection. Statements are
 * prepared once per text and kept; a unit of work runs to completion synchronously inside
 * one `db.transaction`, so it costs what the same synchronous code cost, nothing else runs
 * between its statements, and the Promise it answers is already settled.
 */
import type Database from 'better-sqlite3';
import type { Db } from './db.ts';
import type { RunResult, Sql, Statement, Step, Steps, Work } from './sql.ts';

/** `Sql` over SQLite, with the connection itself for what only SQLite does (tests breaking things, the request log's file). */
export interface SqliteSql extends Sql {
  readonly engine: 'sqlite';
  readonly db: Db;
}

// requirement: D76
/** The contract over the open database `db`. */
export function sqliteSql(db: Db): SqliteSql {
  const prepared = new Map<string, Database.Statement>();
  const prepare = (s: Statement): Database.Statement => {
    let statement = prepared.get(s.sqlite);
    if (statement === undefined) {
      statement = db.prepare(s.sqlite);
      prepared.set(s.sqlite, statement);
    }
    return statement;
  };
  const tupled = new Map<string, Database.Statement>();
  const prepareTuples = (s: Statement): Database.Statement => {
    let statement = tupled.get(s.sqlite);
    if (statement === undefined) {
      statement = db.prepare(s.sqlite).raw();
      tupled.set(s.sqlite, statement);
    }
    return statement;
  };
  const one = (s: Statement, args: readonly unknown[]) => prepare(s).get(...args);
  const all = (s: Statement, args: readonly unknown[]) => prepare(s).all(...args);
  const run = (s: Statement, args: readonly unknown[]): RunResult => ({ changes: prepare(s).run(...args).changes });
  const answer = (step: Step): unknown => (step.kind === 'one' ? one(step.statement, step.args) : step.kind === 'all' ? all(step.statement, step.args) : run(step.statement, step.args));

  /**
   * Runs the steps to the end. A failing statement ends the work as it would on PostgreSQL,
   * where it aborts the transaction: the work's `finally` blocks run, its `catch` blocks do not.
   */
  function drive<T>(steps: Steps<T>): T {
    let next = steps.next();
    while (!next.done) {
      let result: unknown;
      try {
        result = answer(next.value);
      } catch (error) {
        steps.return(undefined as T);
        throw error;
      }
      next = steps.next(result);
    }
    return next.value;
  }

  /** `fn`'s value as a settled Promise: what it throws becomes the rejection. */
  function settled<T>(fn: () => T): Promise<T> {
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  const inTransaction = db.transaction((work: Work<unknown>) => drive(work()));

  return {
    engine: 'sqlite',
    db,
    one: <T>(s: Statement, args: readonly unknown[] = []) => settled(() => one(s, args) as T | undefined),
    all: <T>(s: Statement, args: readonly unknown[] = []) => settled(() => all(s, args) as T[]),
    tuples: <T extends readonly unknown[]>(s: Statement, args: readonly unknown[] = []) => settled(() => prepareTuples(s).all(...args) as unknown as T[]),
    run: (s: Statement, args: readonly unknown[] = []) => settled(() => run(s, args)),
    read: <T>(work: Work<T>) => settled(() => drive(work())),
    write: <T>(_tenantId: string | null, work: Work<T>) => settled(() => inTransaction(work) as T),
    async close() {
      db.close();
    },
  };
}
