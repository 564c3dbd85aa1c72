/**
 * The benchmark databases on PostgreSQL: a copy, row for row, of the SQLite benchmark file
 * (build-db.ts) into a database of its own, `waybill_bench_<N>`, migrated by the server's
 * own migrations. The same tenant, keys, cursor secret and orders, so the cursors sampled
 * from the file (cursors.ts) serve both engines and the two engines' figures compare.
 * Reused while its tenant, order and key counts match the file's.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrate } from '../../server/store/postgres/migrate.ts';
import { openPool } from '../../server/store/postgres/pool.ts';
import type { BenchDatabase } from './build-db.ts';

/** The tables the benchmark data fills (every other table stays empty), in the order their keys need. */
const TABLES = ['meta', 'tenants', 'api_keys', 'tags', 'orders'];
/** Rows a statement copies. */
const ROWS_PER_STATEMENT = 5000;

/** The URL of database `name` on the server of `url`. */
function databaseUrl(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/** Whether the database at `url` holds the copy of `database` already. */
async function holdsCopy(pool: pg.Pool, database: BenchDatabase): Promise<boolean> {
  try {
    const { rows } = await pool.query<{ orders: number; keys: number }>(
      'SELECT (SELECT count(*) FROM orders WHERE tenant_id = $1) AS orders, (SELECT count(*) FROM api_keys WHERE tenant_id = $1) AS keys',
      [database.tenantId],
    );
    return rows[0]?.orders === database.orders && rows[0]?.keys === database.keys.length;
  } catch {
    return false;
  }
}

/** Copies every row of `table` from `file` into `pool`'s database, a statement of column arrays per `ROWS_PER_STATEMENT` rows. */
async function copyTable(db: Database.Database, pool: pg.Pool, table: string): Promise<number> {
  const types = new Map(
    (await pool.query<{ name: string; type: string }>(
      'SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped',
      [table],
    )).rows.map((row) => [row.name, row.type]),
  );
  const columns = (db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name);
  const list = columns.join(', ');
  const text = `INSERT INTO ${table} (${list}) SELECT ${list} FROM unnest(${columns.map((column, i) => `$${i + 1}::${types.get(column)}[]`).join(', ')}) AS copy (${list})`;
  let copied = 0;
  let rows: unknown[][] = [];
  const flush = async () => {
    if (rows.length === 0) return;
    await pool.query(text, columns.map((_, i) => rows.map((row) => row[i])));
    copied += rows.length;
    rows = [];
  };
  for (const row of db.prepare(`SELECT ${list} FROM ${table}`).raw().iterate() as Iterable<unknown[]>) {
    rows.push(row);
    if (rows.length === ROWS_PER_STATEMENT) await flush();
  }
  await flush();
  return copied;
}

/**
 * The PostgreSQL copy of `database` on the server at `serverUrl` (a database of that server
 * the copy is made beside): reused when it holds the same data, else made again. Returns its URL.
 */
export async function postgresBenchDatabase(serverUrl: string, database: BenchDatabase, progress: (line: string) => void = () => {}): Promise<string> {
  const name = `waybill_bench_${database.orders}`;
  const url = databaseUrl(serverUrl, name);
  const existing = openPool(url, { max: 1 });
  const reuse = await holdsCopy(existing, database);
  await existing.end();
  if (reuse) {
    progress(`reusing PostgreSQL database ${name}`);
    return url;
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  progress(`copying ${database.file} into PostgreSQL database ${name}`);
  const started = performance.now();
  const pool = openPool(url, { max: 1 });
  const db = new Database(database.file, { readonly: true, fileMustExist: true });
  try {
    await migrate(pool);
    for (const table of TABLES) progress(`  ${table}: ${(await copyTable(db, pool, table)).toLocaleString('en-US')} rows`);
    // The planner's statistics, and the visibility map an index-only scan needs.
    await pool.query('VACUUM ANALYZE');
  } finally {
    db.close();
    await pool.end();
  }
  progress(`copied in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return url;
}
