/** The request log's file is made with pages of LOG_PAGE_SIZE, and one made before with SQLite's default is rewritten to them once, its entries kept. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/db.ts';
import { sqliteSql } from '../store/sqlite-sql.ts';
import { LOG_PAGE_SIZE, makeRequestLogReads, makeRequestLogTable, openRequestLogDatabase } from './store.ts';
import { type CapturedRequest, entryOf } from './writer.ts';

const TENANT = '75b4856a-a594-44f9-a64b-111a5489e878';
const captured = (requestId: string, body: string): CapturedRequest => ({
  tenantId: TENANT, operation: 'orderFeed', method: 'GET', target: '/api/v1/integration/orders', status: 200, latencyMs: 1, keyId: 'key_x', requestId,
  idempotencyKey: null, replayed: false, requestContentType: null, requestBytes: 0, responseContentType: 'application/json', responseBytes: body.length,
  startedAt: Date.now(), requestBody: null, responseBody: body, orderIds: [], tripIds: [], fault: null, feedPage: null,
});

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const settings = async (file: string) => {
  const db = openRequestLogDatabase(file);
  try {
    const ids = (await makeRequestLogReads(sqliteSql(db)).page(TENANT, {}, Number.MAX_SAFE_INTEGER, 10)).map((row) => row.request_id);
    return { pageSize: db.pragma('page_size', { simple: true }), journal: db.pragma('journal_mode', { simple: true }), ids };
  } finally {
    db.close();
  }
};

describe('the request log file’s page size', () => {
  it('is LOG_PAGE_SIZE for a new file, in WAL', async () => {
    dir = mkdtempSync(join(tmpdir(), 'waybill-log-pages-'));
    expect(LOG_PAGE_SIZE).not.toBe(4096);
    expect(await settings(join(dir, 'new.requests.db'))).toEqual({ pageSize: LOG_PAGE_SIZE, journal: 'wal', ids: [] });
  });

  it('rewrites a file made with the default 4 KiB pages once, keeping its entries, and leaves it in WAL', async () => {
    dir = mkdtempSync(join(tmpdir(), 'waybill-log-pages-'));
    const file = join(dir, 'old.requests.db');
    const old = openDatabase(file, 'request-log');
    expect(old.pragma('page_size', { simple: true })).toBe(4096);
    makeRequestLogTable(old, 10).insert(['first', 'second'].map((id) => entryOf(captured(id, 'x'.repeat(20_000)))));
    old.close();
    expect(await settings(file)).toEqual({ pageSize: LOG_PAGE_SIZE, journal: 'wal', ids: ['second', 'first'] });
    // Opened again, nothing is left to change.
    expect((await settings(file)).pageSize).toBe(LOG_PAGE_SIZE);
  });
});
