import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, releaseCluster, skipWithoutPostgres } from '../../../dev/testing/postgres.ts';
import { packageFile } from '../../../spec/package-files.ts';
import { openDatabase } from '../db.ts';
import { HISTORIES, migrate, newerSchema, postgresMigrations, SchemaTooNewError } from './migrate.ts';
import { openPool } from './pool.ts';

const sqliteHistory = (dir: string) => readdirSync(packageFile(dir)).filter((name) => name.endsWith('.sql')).sort();

describe('the PostgreSQL migrations', () => {
  it('are the same numbered history as SQLite\'s, file for file, for the sandbox and for the request log', () => {
    const byHistory = (history: string) => postgresMigrations().filter((migration) => migration.history === history).map((migration) => migration.name);
    expect(byHistory('sandbox')).toEqual(sqliteHistory('server/store/migrations/'));
    expect(byHistory('request-log')).toEqual(sqliteHistory('server/store/migrations/request-log/'));
    expect(Object.keys(HISTORIES)).toEqual(['sandbox', 'request-log']);
  });

  it('refuse, in one line, a history newer than the shipped one or unknown to it; accept an equal or older one', () => {
    const shipped = postgresMigrations();
    expect(newerSchema(new Map([['sandbox', 8], ['request-log', 3]]), shipped)).toBeNull();
    expect(newerSchema(new Map([['sandbox', 2]]), shipped)).toBeNull();
    expect(newerSchema(new Map([['sandbox', 9]]), shipped)).toBe(
      "the database's 'sandbox' schema is at version 9, newer than this waybill's 8: a newer waybill migrated it; run that version or later",
    );
    expect(newerSchema(new Map([['billing', 1]]), shipped)).toMatch(/^the database holds a 'billing' schema \(version 1\) that this waybill does not know: [^\n]+$/);
  });
});

describe.skipIf(skipWithoutPostgres('migration'))('migrating a PostgreSQL database', () => {
  afterAll(releaseCluster);

  it('applies each migration once when four processes start at once on a fresh database', async () => {
    const url = await freshDatabase();
    const pools = Array.from({ length: 4 }, () => openPool(url, { max: 1 }));
    try {
      const results = await Promise.all(pools.map((pool) => migrate(pool)));
      const everyMigration = postgresMigrations().map((migration) => `${migration.history}/${migration.name}`);
      // One runner took the lock first and applied them all in its transaction; the others found them applied.
      expect(results.map((applied) => applied.length).sort()).toEqual([0, 0, 0, everyMigration.length]);
      expect(results.flat().map((migration) => `${migration.history}/${migration.name}`)).toEqual(everyMigration);
      const { rows } = await pools[0]!.query<{ history: string; name: string }>('SELECT history, name FROM waybill_migrations ORDER BY history DESC, version');
      expect(rows.map((row) => `${row.history}/${row.name}`)).toEqual(everyMigration);
      expect(await migrate(pools[1]!)).toEqual([]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('makes the tables, columns and indexes SQLite has (plus rowid where SQLite orders by its implicit one)', async () => {
    const pool = openPool(await freshDatabase());
    try {
      await migrate(pool);
      const { rows } = await pool.query<{ table: string; column: string; notnull: boolean }>(
        `SELECT table_name AS table, column_name AS column, is_nullable = 'NO' AS notnull FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name <> 'waybill_migrations' ORDER BY 1, 2`,
      );
      const sqlite = [openDatabase(':memory:'), openDatabase(':memory:', 'request-log')];
      const expected = sqlite.flatMap((db) =>
        (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]).flatMap((table) =>
          (db.pragma(`table_info(${table})`) as { name: string; notnull: number; pk: number }[]).map((column) => ({ table, column: column.name, notnull: column.notnull === 1 || column.pk > 0 })),
        ),
      );
      const extra = [{ table: 'fault_rules', column: 'rowid', notnull: true }, { table: 'ministatuses', column: 'rowid', notnull: true }];
      const key = (row: { table: string; column: string }) => `${row.table}.${row.column}`;
      expect([...rows].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...expected, ...extra].sort((a, b) => key(a).localeCompare(key(b))));
      const indexes = await pool.query<{ name: string }>("SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND indexname NOT LIKE '%_pkey' ORDER BY 1");
      const sqliteIndexes = sqlite.flatMap((db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").pluck().all() as string[]);
      expect(indexes.rows.map((row) => row.name)).toEqual(sqliteIndexes.sort());
      for (const db of sqlite) db.close();
    } finally {
      await pool.end();
    }
  });

  it('refuses, with one line and no change, a database a newer waybill migrated', async () => {
    const pool = openPool(await freshDatabase());
    try {
      await migrate(pool);
      await pool.query("INSERT INTO waybill_migrations (history, version, name) VALUES ('sandbox', 9, '009-from-the-future.sql')");
      const refusal = await migrate(pool).then(() => null, (error: unknown) => error);
      expect(refusal).toBeInstanceOf(SchemaTooNewError);
      expect((refusal as Error).message).toBe("the database's 'sandbox' schema is at version 9, newer than this waybill's 8: a newer waybill migrated it; run that version or later");
      const { rows } = await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM waybill_migrations');
      expect(rows[0]?.count).toBe(postgresMigrations().length + 1);
    } finally {
      await pool.end();
    }
  });

  it('leaves nothing behind when a migration fails: the next start applies the whole history', async () => {
    const pool = openPool(await freshDatabase());
    try {
      const broken = [...postgresMigrations().slice(0, 2), { history: 'sandbox', version: 3, name: '003-broken.sql', sql: 'CREATE TABLE tenants (id text)' }];
      await expect(migrate(pool, broken)).rejects.toThrow(/relation "tenants" already exists/);
      const { rows } = await pool.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()");
      expect(rows).toEqual([]);
      expect(await migrate(pool)).toHaveLength(postgresMigrations().length);
    } finally {
      await pool.end();
    }
  });
});
