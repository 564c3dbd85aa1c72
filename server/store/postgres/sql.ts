/**
 * The store contract (server/store/sql.ts) on PostgreSQL, over a `pg` pool (D73): each
 * statement's `?` numbered to `$n` and named, so each connection prepares it once; a unit of
 * work run step by step on one connection, in one transaction that holds the tenant's write
 * lock when it names a tenant (D74); rows read as SQLite's (row-types.ts, D78).
 */
import type pg from 'pg';
import type { RunResult, Sql, Statement, Step, Steps, Work } from '../sql.ts';
import { numberPlaceholders } from './placeholders.ts';
import { openPool } from './pool.ts';
import { rowTypes } from './row-types.ts';
import { tenantWrite } from './tenant-write.ts';
import { inTransaction } from './transaction.ts';

/** A statement as PostgreSQL runs it: its numbered text and the name it is prepared under. */
interface Prepared {
  name: string;
  text: string;
}

/** A connection or the pool: either runs a statement. */
type Runner = Pick<pg.ClientBase, 'query'>;

/**
 * Runs a unit of work's steps against `execute`, answering each `yield` with its statement's
 * result, and answers what the generator returns. A statement that fails ends the work, as
 * on SQLite (sqlite-sql.ts): PostgreSQL has aborted the transaction, so nothing more could
 * run in it; the work's `finally` blocks run, its `catch` blocks do not, and the error is
 * rethrown. An error the work's own code throws (a refusal) it may catch and go on.
 */
export async function runSteps<T>(steps: Steps<T>, execute: (step: Step) => Promise<unknown>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = await execute(next.value);
    } catch (error) {
      steps.return(undefined as T);
      throw error;
    }
    next = steps.next(answer);
  }
  return next.value;
}

/** How a unit of reads begins: one snapshot for all its statements, and no write by mistake. */
const SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** Every text numbered so far, by its `?` text: one name per text for the process, whichever pool runs it. */
const prepared = new Map<string, Prepared>();

/** `s` numbered and named, once per text: the same text is the same prepared statement on every connection. */
function prepare(s: Statement): Prepared {
  let found = prepared.get(s.postgres);
  if (found === undefined) {
    found = { name: `waybill-${prepared.size + 1}`, text: numberPlaceholders(s.postgres) };
    prepared.set(s.postgres, found);
  }
  return found;
}

/** `Sql` over PostgreSQL, with its pool and URL for what only PostgreSQL needs (migrations, the request log's own pool). */
export interface PostgresSql extends Sql {
  readonly engine: 'postgres';
  readonly pool: pg.Pool;
  /** The database's URL, password and all: never shown (`maskPassword` of db-target.ts). */
  readonly url: string;
}

/** The store contract over a pool of `max` connections (default 10) to the database at `url`; `close` ends the pool. */
export function postgresSql(url: string, options: { max?: number } = {}): PostgresSql {
  const pool = openPool(url, options);
  async function query<R extends object>(runner: Runner, s: Statement, args: readonly unknown[]): Promise<pg.QueryResult<R>> {
    const { name, text } = prepare(s);
    return runner.query<R>({ name, text, values: args as unknown[], types: rowTypes });
  }

  async function execute(runner: Runner, step: Step): Promise<unknown> {
    const result = await query(runner, step.statement, step.args);
    if (step.kind === 'one') return result.rows[0];
    if (step.kind === 'all') return result.rows;
    return { changes: result.rowCount ?? 0 } satisfies RunResult;
  }

  return {
    engine: 'postgres',
    pool,
    url,
    async one<T>(s: Statement, args: readonly unknown[] = []) {
      return (await query<object>(pool, s, args)).rows[0] as T | undefined;
    },
    async all<T>(s: Statement, args: readonly unknown[] = []) {
      return (await query<object>(pool, s, args)).rows as T[];
    },
    async tuples<T extends readonly unknown[]>(s: Statement, args: readonly unknown[] = []) {
      const { name, text } = prepare(s);
      // The same prepared statement, its rows handed over as arrays of columns (no object per row).
      return (await pool.query({ name, text, values: args as unknown[], types: rowTypes, rowMode: 'array' })).rows as unknown as T[];
    },
    async run(s: Statement, args: readonly unknown[] = []) {
      return { changes: (await query(pool, s, args)).rowCount ?? 0 };
    },
    /** A unit of reads in one read-only snapshot on one connection: its statements see one state of the database. */
    read<T>(work: Work<T>): Promise<T> {
      return inTransaction(pool, (client) => runSteps(work(), (step) => execute(client, step)), SNAPSHOT);
    },
    write<T>(tenantId: string | null, work: Work<T>): Promise<T> {
      const run = (client: pg.PoolClient) => runSteps(work(), (step) => execute(client, step));
      return tenantId === null ? inTransaction(pool, run) : tenantWrite(pool, tenantId, run);
    },
    close: () => pool.end(),
  };
}
