/**
 * The engine of a test's store: SQLite in memory, or — under `WAYBILL_TEST_DB=postgres`, which
 * the vitest project `postgres` sets for the test files it runs on both engines — a fresh
 * PostgreSQL database of the run's throwaway cluster, copied from its migrated template.
 * `memoryStore` (sandbox.ts) asks here, so those files run unchanged on either engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../server/domain/time.ts';
import { openStore, type SqliteStore } from '../../server/store/index.ts';
import { openPostgresStore } from '../../server/store/postgres/open-store.ts';
import { freshDatabase } from './postgres.ts';

/** The engine this run's test stores use. */
export function testEngine(env: NodeJS.ProcessEnv = process.env): 'sqlite' | 'postgres' {
  return env['WAYBILL_TEST_DB'] === 'postgres' ? 'postgres' : 'sqlite';
}

/** Connections of a test store's pool: enough for the concurrency a test makes, few enough for hundreds of stores in a run. */
const TEST_POOL_SIZE = 4;

/**
 * A store on a fresh PostgreSQL database, typed as the SQLite store the shared test files
 * expect: its `db`, SQLite's connection, does not exist, and a test reaching for it fails
 * saying it cannot run on PostgreSQL.
 */
export async function postgresTestStore(clock?: Clock): Promise<SqliteStore> {
  const store = await openPostgresStore(await freshDatabase({ migrated: true }), clock, { max: TEST_POOL_SIZE });
  return Object.defineProperty(store, 'db', { get: noSqlite }) as unknown as SqliteStore;
}

/** What reaching for a PostgreSQL test store's `db` does. */
function noSqlite(): never {
  throw new Error("store.db is SQLite's connection: this test reaches into SQLite and cannot run on PostgreSQL (WAYBILL_TEST_DB=postgres)");
}

/** A database a test opens, closes and opens again (a restart of the sandbox). */
export interface RestartableDatabase {
  /** Opens a store over it (on the run's wall clock, or `clock`). */
  open(clock?: Clock): Promise<SqliteStore>;
  /** Removes what it left on disk (a SQLite file's folder; a PostgreSQL database goes with the cluster). */
  remove(): void;
}

/** A database of the run's engine that outlives its store: a SQLite file in a folder of its own, or a fresh PostgreSQL database. */
export async function restartableDatabase(): Promise<RestartableDatabase> {
  if (testEngine() === 'postgres') {
    const url = await freshDatabase({ migrated: true });
    return {
      open: async (clock) => Object.defineProperty(await openPostgresStore(url, clock, { max: TEST_POOL_SIZE }), 'db', { get: noSqlite }) as unknown as SqliteStore,
      remove() {},
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'waybill-restart-'));
  return { open: (clock) => openStore(join(dir, 'sandbox.db'), clock), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
