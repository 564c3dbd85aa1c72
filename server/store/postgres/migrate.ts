/**
 * Brings a PostgreSQL database's schema up to date at start (D75): the migrations of
 * `migrations/` (the sandbox's history) and `migrations/request-log/` (the request log's),
 * numbered as SQLite's, applied in one transaction under an advisory lock, so that several
 * processes starting at once apply each migration once; a database a newer waybill
 * migrated is refused with one line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { packageFile } from '../../../spec/package-files.ts';
import { MIGRATION_LOCK } from './locks.ts';
import { inTransaction } from './transaction.ts';

/** One migration of one history. */
export interface Migration {
  /** `sandbox`, or `request-log` (on SQLite, the request log's own file, D48). */
  history: string;
  version: number;
  /** Its file name, kept in `waybill_migrations` to tell which file made a version. */
  name: string;
  sql: string;
}

/** The folder of each history's PostgreSQL migrations, in the order the histories apply. */
export const HISTORIES: Record<string, string> = {
  sandbox: packageFile('server/store/postgres/migrations/'),
  'request-log': packageFile('server/store/postgres/migrations/request-log/'),
};

/** The migrations of every history shipped with the server, each history in version order. */
export function postgresMigrations(histories: Record<string, string> = HISTORIES): Migration[] {
  return Object.entries(histories).flatMap(([history, dir]) =>
    readdirSync(dir)
      .filter((name) => /^\d{3}-.+\.sql$/.test(name))
      .sort()
      .map((name) => ({ history, version: Number(name.slice(0, 3)), name, sql: readFileSync(dir + name, 'utf8') })),
  );
}

/** A database migrated by a newer waybill: its message is the one line to show. */
export class SchemaTooNewError extends Error {
  readonly code = 'schema-too-new';
  constructor(message: string) {
    super(message);
    this.name = 'SchemaTooNewError';
  }
}

/**
 * Why the database cannot be used by a waybill that knows `migrations`, given the newest
 * version of each history it holds; null when it can.
 */
export function newerSchema(held: Map<string, number>, migrations: Migration[]): string | null {
  for (const [history, version] of held) {
    const known = Math.max(0, ...migrations.filter((migration) => migration.history === history).map((migration) => migration.version));
    if (version > known) {
      return known === 0
        ? `the database holds a '${history}' schema (version ${version}) that this waybill does not know: a newer waybill made it; run that version or later`
        : `the database's '${history}' schema is at version ${version}, newer than this waybill's ${known}: a newer waybill migrated it; run that version or later`;
    }
  }
  return null;
}

/**
 * Applies the migrations the database lacks and returns them (none when another process
 * applied them first). Throws `SchemaTooNewError` for a database of a newer waybill.
 */
// requirement: D75
export function migrate(pool: pg.Pool, migrations: Migration[] = postgresMigrations()): Promise<Migration[]> {
  return inTransaction(pool, async (client) => {
    // Taken before the bookkeeping table exists: two processes creating it at once would collide.
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS waybill_migrations (
      history     text COLLATE "C" NOT NULL,
      version     integer NOT NULL,
      name        text COLLATE "C" NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (history, version))`);
    const { rows } = await client.query<{ history: string; version: number }>(
      'SELECT history, max(version) AS version FROM waybill_migrations GROUP BY history',
    );
    const held = new Map(rows.map((row) => [row.history, row.version]));
    const refusal = newerSchema(held, migrations);
    if (refusal !== null) throw new SchemaTooNewError(refusal);
    const applied: Migration[] = [];
    for (const migration of migrations) {
      if (migration.version <= (held.get(migration.history) ?? 0)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO waybill_migrations (history, version, name) VALUES ($1, $2, $3)', [migration.history, migration.version, migration.name]);
      applied.push(migration);
    }
    return applied;
  });
}
