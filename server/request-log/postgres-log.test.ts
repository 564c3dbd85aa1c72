/** The request log on PostgreSQL (D48, D78): batches written in order through its own pool, read back, pruned, cleared; text PostgreSQL refuses kept readable. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, releaseCluster, skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { migrate } from '../store/postgres/migrate.ts';
import { openPool } from '../store/postgres/pool.ts';
import { type PostgresSql, postgresSql } from '../store/postgres/sql.ts';
import { makePostgresRequestLog } from './postgres-log.ts';
import type { CapturedRequest } from './writer.ts';

/** A captured whoami of `tenantId`, numbered `n` in its request id. */
function captured(tenantId: string, n: number, overrides: Partial<CapturedRequest> = {}): CapturedRequest {
  return {
    tenantId, operation: 'whoami', method: 'GET', target: `/api/v1/integration/whoami?n=${n}`, status: 200, latencyMs: 1.25, keyId: 'key-1',
    requestId: `req-${n}`, idempotencyKey: null, replayed: false, requestContentType: null, requestBytes: 0, responseContentType: 'application/json',
    responseBytes: 2, startedAt: Date.parse('2026-10-01T00:00:00Z') + n, requestBody: null, responseBody: '{}', orderIds: [], tripIds: [], fault: null, feedPage: null,
    ...overrides,
  };
}

describe.skipIf(skipWithoutPostgres('request log'))('the request log on PostgreSQL', () => {
  let url: string;
  let sql: PostgresSql;
  beforeAll(async () => {
    url = await freshDatabase();
    sql = postgresSql(url, { max: 2 });
    await migrate(sql.pool);
  });
  afterAll(async () => {
    await sql?.close();
    await releaseCluster();
  });

  it('writes batches in order, lists them newest first with filters, shows one with its bodies, resumes after an id', async () => {
    const log = makePostgresRequestLog(sql, { batchSize: 7 });
    try {
      const heard: number[] = [];
      const unsubscribe = await log.subscribe('t1', (rows) => heard.push(...rows.map((row) => row.id)));
      for (let n = 0; n < 20; n++) log.record(captured(n % 4 === 3 ? 't2' : 't1', n, n === 5 ? { status: 404, responseContentType: 'application/problem+json', responseBody: '{"type":"orders.notFound","status":404}' } : {}));
      // The list waits for what was handed over before it: every entry recorded so far.
      const page = await log.page('t1', {}, Number.MAX_SAFE_INTEGER, 100);
      expect(page.map((row) => row.request_id)).toEqual(Array.from({ length: 20 }, (_, n) => n).filter((n) => n % 4 !== 3).map((n) => `req-${n}`).reverse());
      expect(page.map((row) => row.id)).toEqual([...page.map((row) => row.id)].sort((a, b) => b - a));
      // The tail hears them through the database's notifications, after their commit.
      await vi.waitFor(() => expect(heard).toEqual(page.map((row) => row.id).reverse()), { timeout: 30_000 });
      unsubscribe();
      const refused = await log.page('t1', { statusFrom: 400, problemType: 'orders.notFound' }, Number.MAX_SAFE_INTEGER, 10);
      expect(refused).toMatchObject([{ request_id: 'req-5', status: 404, problem_type: 'orders.notFound', replayed: 0, latency_ms: 1.25 }]);
      expect(await log.get('t1', refused[0]!.id)).toMatchObject({ response_body: '{"type":"orders.notFound","status":404}', response_bytes: 2, feed_page: null });
      expect(await log.get('t2', refused[0]!.id)).toBeUndefined();
      const newest = page[0]!.id;
      expect((await log.after('t1', page[2]!.id, 10)).map((row) => row.id)).toEqual([page[1]!.id, newest]);
    } finally {
      await log.close();
    }
  });

  it('tails the entries every log over the database wrote, each once and in id order, though the writers commit concurrently (D84)', async () => {
    // Two logs over one database stand for two processes: they share nothing in memory.
    const other = postgresSql(url, { max: 2 });
    const logs = [makePostgresRequestLog(sql, { batchSize: 3, flushMs: 1 }), makePostgresRequestLog(other, { batchSize: 3, flushMs: 1 })] as const;
    try {
      const heard: { id: number; requestId: string }[] = [];
      const unsubscribe = await logs[0].subscribe('t7', (rows) => heard.push(...rows.map((row) => ({ id: row.id, requestId: row.request_id }))));
      const sent: string[] = [];
      for (let n = 0; n < 120; n++) {
        logs[n % 2]!.record(captured(n % 5 === 4 ? 't8' : 't7', 1000 + n));
        if (n % 5 !== 4) sent.push(`req-${1000 + n}`);
        if (n % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(logs.map((log) => log.settle()));
      await vi.waitFor(() => expect(heard.length).toBeGreaterThanOrEqual(sent.length), { timeout: 30_000 });
      expect(heard.map((entry) => entry.requestId).sort()).toEqual([...sent].sort());
      expect(heard.map((entry) => entry.id)).toEqual([...heard.map((entry) => entry.id)].sort((a, b) => a - b));
      // Both logs wrote some of what the tail heard.
      expect(new Set(heard.map((entry) => Number(entry.requestId.slice(4)) % 2))).toEqual(new Set([0, 1]));
      unsubscribe();
    } finally {
      await Promise.all(logs.map((log) => log.close()));
      await other.close();
    }
  });

  it('keeps the last N entries of each tenant, leaves other tenants alone, and empties on clear', async () => {
    const log = makePostgresRequestLog(sql, { retention: 5, pruneStep: 2, batchSize: 3 });
    try {
      for (let n = 100; n < 112; n++) log.record(captured('t3', n));
      log.record(captured('t4', 200));
      await log.settle();
      expect((await log.page('t3', {}, Number.MAX_SAFE_INTEGER, 100)).map((row) => row.request_id)).toEqual(['req-111', 'req-110', 'req-109', 'req-108', 'req-107']);
      expect(await log.page('t4', {}, Number.MAX_SAFE_INTEGER, 100)).toHaveLength(1);
      log.clear();
      expect(await log.page('t3', {}, Number.MAX_SAFE_INTEGER, 100)).toEqual([]);
      expect(await log.page('t4', {}, Number.MAX_SAFE_INTEGER, 100)).toEqual([]);
    } finally {
      await log.close();
    }
  });

  it('keeps a body holding NUL bytes, which PostgreSQL\'s text refuses, with U+FFFD in their place and its length', async () => {
    const log = makePostgresRequestLog(sql);
    try {
      log.record(captured('t5', 1, { method: 'POST', requestContentType: 'application/octet-stream', requestBody: new Uint8Array([0x61, 0, 0x62]), requestBytes: 3 }));
      const [row] = await log.page('t5', {}, Number.MAX_SAFE_INTEGER, 1);
      expect(await log.get('t5', row!.id)).toMatchObject({ request_body: 'a\uFFFDb', request_bytes: 3 });
    } finally {
      await log.close();
    }
  });

  it('commits through connections that ask not to wait for the disk (synchronous_commit off); the store\'s keep the server\'s setting', async () => {
    // The throwaway cluster turns it off for the whole server: what tells them apart is who set it.
    const setting = async (pool: ReturnType<typeof openPool>) => {
      try {
        return (await pool.query<{ setting: string; source: string }>("SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'")).rows[0];
      } finally {
        await pool.end();
      }
    };
    expect(await setting(openPool(url, { synchronousCommit: false }))).toEqual({ setting: 'off', source: 'client' });
    expect((await setting(openPool(url)))?.source).not.toBe('client');
  });

  it('compresses the chunks’ entries and bodies with lz4 where the server has it, else stores them uncompressed, never with the slow default', async () => {
    const { rows } = await sql.pool.query<{ column: string; compression: string | null; storage: string }>(
      `SELECT attname AS column, attcompression AS compression, attstorage AS storage FROM pg_attribute
       WHERE attrelid = 'request_log_chunk'::regclass AND attname IN ('entries', 'bodies') ORDER BY attname`,
    );
    const lz4 = (await sql.pool.query<{ lz4: boolean }>("SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'")).rows[0]!.lz4;
    const expected = lz4 ? { compression: 'l', storage: 'x' } : { compression: '', storage: 'e' };
    expect(rows).toEqual(['bodies', 'entries'].map((column) => ({ column, ...expected })));
  });

  it('writes what waits at close, then drops later entries', async () => {
    const log = makePostgresRequestLog(sql);
    log.record(captured('t6', 1));
    await log.close();
    log.record(captured('t6', 2));
    const again = makePostgresRequestLog(sql);
    try {
      expect((await again.page('t6', {}, Number.MAX_SAFE_INTEGER, 10)).map((row) => row.request_id)).toEqual(['req-1']);
    } finally {
      await again.close();
    }
  });
});
