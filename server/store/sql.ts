/**
 * The store contract's lowest layer: what the store's code asks of a database engine. Every
 * table family is written once against `Sql`; SQLite (better-sqlite3, synchronous) and
 * PostgreSQL (pg, asynchronous) each implement it (`sqlite-sql.ts`, `postgres/sql.ts`).
 *
 * A read is one statement, answered as a Promise. A write of several statements is a unit of
 * work written as a generator that yields its statements (`yield* q.one(…)`): SQLite runs it
 * to completion synchronously inside one transaction, so no other request's statements can
 * interleave with it and its figures stay those of plain synchronous code; PostgreSQL runs it
 * step by step inside one transaction holding the tenant's write lock (D74), so a tenant's
 * writes commit in the order of their stamps (D7).
 *
 * Statements use `?` placeholders on both engines (PostgreSQL's `$n` are numbered for it).
 * Where the engines' SQL differs, a statement carries one text per engine: that is the
 * exception, and such texts live in one place per engine.
 */

/** One statement: the same text on both engines, or one text for each. */
export interface Statement {
  readonly sqlite: string;
  readonly postgres: string;
}

/** A statement from one text both engines run, or from a text per engine. */
export function statement(text: string | { sqlite: string; postgres: string }): Statement {
  return typeof text === 'string' ? { sqlite: text, postgres: text } : text;
}

/** `values` as the list of an SQL `IN`: `('a', 'b')`. For the contract's own values (statuses), never input. */
export function sqlList(values: Iterable<string>): string {
  return `(${[...values].map((value) => `'${value}'`).join(', ')})`;
}

/** What a `run` answers: how many rows it changed. */
export interface RunResult {
  changes: number;
}

/** One statement of a unit of work, as its generator yields it to the engine that runs it. */
export interface Step {
  readonly kind: 'one' | 'all' | 'run';
  readonly statement: Statement;
  readonly args: readonly unknown[];
}

/** A unit of work's steps: each `yield*` of one answers that statement's result. */
export type Steps<T> = Generator<Step, T, unknown>;

/** The statements a unit of work may run. */
export const q = {
  /** The first row `s` answers, or undefined. */
  *one<T>(s: Statement, args: readonly unknown[] = []): Steps<T | undefined> {
    return (yield { kind: 'one', statement: s, args }) as T | undefined;
  },
  /** Every row `s` answers. */
  *all<T>(s: Statement, args: readonly unknown[] = []): Steps<T[]> {
    return (yield { kind: 'all', statement: s, args }) as T[];
  },
  /** Runs `s` (an insert, update or delete). */
  *run(s: Statement, args: readonly unknown[] = []): Steps<RunResult> {
    return (yield { kind: 'run', statement: s, args }) as RunResult;
  },
};

/** A unit of work: a generator over `q`'s steps, run as one transaction. */
export type Work<T> = () => Steps<T>;

// requirement: D76
/** What the store's code asks of a database engine. */
export interface Sql {
  readonly engine: 'sqlite' | 'postgres';
  /** The first row `s` answers, or undefined (outside any unit of work). */
  one<T>(s: Statement, args?: readonly unknown[]): Promise<T | undefined>;
  /** Every row `s` answers. */
  all<T>(s: Statement, args?: readonly unknown[]): Promise<T[]>;
  /**
   * Every row `s` answers as an array of its columns in the select's order: no object per row,
   * for the feeds' pages (on SQLite a page of 100 rows read as objects cost a fifth more).
   */
  tuples<T extends readonly unknown[]>(s: Statement, args?: readonly unknown[]): Promise<T[]>;
  /** Runs `s` on its own (its own transaction). */
  run(s: Statement, args?: readonly unknown[]): Promise<RunResult>;
  /**
   * Runs `work`, a unit of reads only (`q.one`, `q.all`), as one consistent view: SQLite
   * synchronously, PostgreSQL on one connection in one read-only snapshot. For a read of
   * several statements, or a read a write's unit of work shares (`yield*` inside it).
   */
  read<T>(work: Work<T>): Promise<T>;
  /**
   * Runs `work` as one transaction: it commits when the generator returns and rolls back when
   * it throws (the error is rethrown). A failing statement ends the work (PostgreSQL aborts
   * the transaction): the work's `finally` blocks run, its `catch` blocks do not. An error the
   * work's own code throws (a refusal) it may catch and go on. With `tenantId`, PostgreSQL holds that tenant's write
   * lock for the whole transaction (D74); SQLite serialises every write anyway.
   */
  write<T>(tenantId: string | null, work: Work<T>): Promise<T>;
  /** Closes the connection(s); pending statements finish first. */
  close(): Promise<void>;
}
