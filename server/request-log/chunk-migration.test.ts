/**
 * The request log's move to chunks (D85, migration 004): a log written one row per entry
 * reads back the same after it, ids, bodies and order kept, and ids go on past the last one
 * ever given. Run on SQLite here and on PostgreSQL in chunk-migration-postgres.test.ts.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageFile } from '../../spec/package-files.ts';
import { sqliteSql } from '../store/sqlite-sql.ts';
import { makeRequestLogReads, makeRequestLogTable, openRequestLogDatabase } from './store.ts';
import { expectMigrated, OLD_ROWS } from '../../dev/testing/log-chunk-migration.ts';

describe('the request log’s migration to chunks on SQLite', () => {
  it('keeps every entry as it was, with its id, and numbers new ones past the last id ever given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-log-chunks-'));
    try {
      const file = join(dir, 'old.requests.db');
      // A log file as waybill wrote it before: migrations 001–003, a row per entry.
      const old = new Database(file);
      for (const name of ['001-request-log.sql', '002-fault.sql', '003-feed-page.sql']) old.exec(readFileSync(packageFile(`server/store/migrations/request-log/${name}`), 'utf8'));
      old.pragma('user_version = 3');
      const columns = Object.keys(OLD_ROWS[0]!);
      const insert = old.prepare(`INSERT INTO request_log (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of OLD_ROWS) insert.run(...Object.values(row));
      // The newest entry was pruned: its id is never given again.
      old.prepare('DELETE FROM request_log WHERE id = ?').run(OLD_ROWS.at(-1)!.id);
      old.close();

      const db = openRequestLogDatabase(file);
      expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'request_log'").pluck().get()).toBe(0);
      const newFirstId = makeRequestLogTable(db, 100).insert([{ ...expectedNew, tenantId: 'ten_a' }]).firstIds.get('ten_a');
      await expectMigrated(makeRequestLogReads(sqliteSql(db)), newFirstId);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const expectedNew = {
  tenantId: 'ten_a', at: '2026-11-27T15:00:00.000Z', operation: 'whoami', method: 'GET', target: '/api/v1/integration/whoami', status: 200, problemType: null,
  fieldErrors: null, latencyMs: 1, keyId: 'key_a', requestId: 'req_new', idempotencyKey: null, replayed: false, requestContentType: null, requestBody: null,
  requestBytes: 0, responseContentType: 'application/json', responseBody: '{}', responseBytes: 2, orderIds: '[]', tripIds: '[]', fault: null, feedPage: null,
};
