/**
 * The database engine a bench runs on (`--db sqlite|postgres|postgres://…`): SQLite over
 * the benchmark files (build-db.ts); PostgreSQL over their copies (build-postgres.ts) on a
 * throwaway cluster of the machine's binaries (`postgres`) or on the server a URL names,
 * where the copies stay for the next run. Both servers of a comparison get the same `--db`.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type DbTarget, parseDbTarget } from '../../server/store/db-target.ts';
import { startCluster } from '../testing/postgres-cluster.ts';
import type { BenchDatabase } from './build-db.ts';
import { postgresBenchDatabase } from './build-postgres.ts';

/** An engine ready to serve the benchmark databases. */
export interface BenchEngine {
  name: 'sqlite' | 'postgres';
  /** The `--db` of the servers for `database`: its file, or its copy's URL (made on first use). */
  target(database: BenchDatabase): Promise<string>;
  /** Reads the whole database once, so that no run pays for pages the OS has not cached yet. */
  warm(target: string): Promise<void>;
  /** The database server's own process (PostgreSQL's postmaster) when it runs on this machine and can be found, else null (SQLite runs inside the server). */
  databasePid(database: BenchDatabase): Promise<number | null>;
  /** The engine and its version, for the report: `SQLite 3.53.2`, `PostgreSQL 15.14`. */
  version(database: BenchDatabase): Promise<string>;
  /** Stops what the engine started (a throwaway cluster). */
  close(): void;
}

/** The throwaway cluster's cache: the 1,000,000-order database's feed index and rows fit (the test cluster keeps 32 MB). */
const CLUSTER_SETTINGS = ['shared_buffers = 512MB', 'effective_cache_size = 4GB'];

/** Reads `file` once through the OS's page cache. */
function warmFile(file: string): void {
  const buffer = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  try {
    while (readSync(fd, buffer, 0, buffer.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

/** Runs `text` on the database at `url` and answers its first row. */
async function queryOnce<T>(url: string, text: string): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows[0] as T;
  } finally {
    await client.end();
  }
}

const sqlite: BenchEngine = {
  name: 'sqlite',
  target: async (database) => database.file,
  warm: async (file) => warmFile(file),
  databasePid: async () => null,
  async version(database) {
    const db = new Database(database.file, { readonly: true });
    try {
      return `SQLite ${db.prepare<[], string>('SELECT sqlite_version()').pluck().get()}`;
    } finally {
      db.close();
    }
  },
  close() {},
};

/** The engine `--db` names: `sqlite` (default), `postgres` (a throwaway cluster) or a `postgres://` URL of a server to use. */
export async function benchEngine(option: string, progress: (line: string) => void): Promise<BenchEngine> {
  if (option === 'sqlite') return sqlite;
  let server: string;
  let stop = () => {};
  if (option === 'postgres') {
    const cluster = await startCluster({ settings: CLUSTER_SETTINGS });
    progress(`started a throwaway PostgreSQL ${cluster.version} cluster`);
    server = cluster.url;
    stop = cluster.stop;
  } else {
    const parsed = parseDbTarget(option);
    const target: DbTarget | undefined = parsed.ok ? parsed.target : undefined;
    if (target?.engine !== 'postgres') throw new Error(`--db is sqlite, postgres, or a postgres:// URL, not ${parsed.ok ? option : parsed.message}`);
    server = target.url;
  }
  return {
    name: 'postgres',
    target: (database) => postgresBenchDatabase(server, database, progress),
    async warm(url) {
      await queryOnce(url, 'SELECT sum(length(o::text)) FROM orders o');
    },
    async databasePid(database) {
      const url = await postgresBenchDatabase(server, database);
      const { data_directory: dir } = await queryOnce<{ data_directory: string }>(url, 'SHOW data_directory');
      try {
        return Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
      } catch {
        return null;
      }
    },
    async version(database) {
      const url = await postgresBenchDatabase(server, database);
      return `PostgreSQL ${(await queryOnce<{ server_version: string }>(url, 'SHOW server_version')).server_version}`;
    },
    close: stop,
  };
}
