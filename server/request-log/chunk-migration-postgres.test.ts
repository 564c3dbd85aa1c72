/** The request log's move to chunks (D85, migration 004) on PostgreSQL: the same log before and after as on SQLite (chunk-migration.test.ts). */
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, releaseCluster, skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { expectMigrated, OLD_ROWS } from '../../dev/testing/log-chunk-migration.ts';
import { migrate, postgresMigrations } from '../store/postgres/migrate.ts';
import { openPool } from '../store/postgres/pool.ts';
import { postgresSql } from '../store/postgres/sql.ts';
import { makeRequestLogReads } from './chunks.ts';
import { makePostgresLogTable } from './postgres-table.ts';

describe.skipIf(skipWithoutPostgres('request log migration'))('the request log’s migration to chunks on PostgreSQL', () => {
  afterAll(releaseCluster);

  it('keeps every entry as it was, with its id, and numbers new ones past the last id ever given', async () => {
    const url = await freshDatabase();
    const sql = postgresSql(url, { max: 2 });
    const pool = openPool(url, { max: 1 });
    try {
      // The database as waybill left it before: the request log's migrations 001–003, a row per entry.
      await migrate(sql.pool, postgresMigrations().filter((migration) => migration.history !== 'request-log' || migration.version <= 3));
      const columns = Object.keys(OLD_ROWS[0]!);
      for (const row of OLD_ROWS) {
        await sql.pool.query(`INSERT INTO request_log (id, ${columns.slice(1).join(', ')}) OVERRIDING SYSTEM VALUE VALUES (${columns.map((_, n) => `$${n + 1}`).join(', ')})`, Object.values(row));
      }
      // The identity's sequence as inserting them would have left it; then the newest entry is pruned.
      await sql.pool.query("SELECT setval(pg_get_serial_sequence('request_log', 'id'), $1)", [OLD_ROWS.at(-1)!.id]);
      await sql.pool.query('DELETE FROM request_log WHERE id = $1', [OLD_ROWS.at(-1)!.id]);
      await migrate(sql.pool);
      expect((await sql.pool.query("SELECT to_regclass('request_log') AS old")).rows[0].old).toBeNull();
      const firstIds = await makePostgresLogTable(pool, 100).insert([
        {
          tenantId: 'ten_a', at: '2026-11-27T15:00:00.000Z', operation: 'whoami', method: 'GET', target: '/api/v1/integration/whoami', status: 200, problemType: null,
          fieldErrors: null, latencyMs: 1, keyId: 'key_a', requestId: 'req_new', idempotencyKey: null, replayed: false, requestContentType: null, requestBody: null,
          requestBytes: 0, responseContentType: 'application/json', responseBody: '{}', responseBytes: 2, orderIds: '[]', tripIds: '[]', fault: null, feedPage: null,
        },
      ]);
      await expectMigrated(makeRequestLogReads(sql), firstIds.get('ten_a'));
    } finally {
      await pool.end();
      await sql.close();
    }
  });
});
