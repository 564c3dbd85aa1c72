/** The request log's retention (D48): the last N entries of each tenant, pruned during a burst in steps that leave requests answered between them. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, expect, it, vi } from 'vitest';
import { makeRequestLog, type SqliteRequestLog } from './recorder.ts';
import { openRequestLog } from '../start/start-sandbox.ts';
import { testEngine } from '../../dev/testing/test-store.ts';
import { openStore } from '../store/index.ts';
import { openDatabase } from '../store/db.ts';
import { sqliteSql } from '../store/sqlite-sql.ts';
import { makeRequestLogReads, makeRequestLogTable } from './store.ts';
import { type CapturedRequest, entryOf, makeLogWriter } from './writer.ts';
import { call, memoryStore, sandboxClient, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from '../../dev/testing/sandbox.ts';

const ORDERS = '/api/v1/integration/orders';
const requestIdOf = (answer: { headers: Headers }) => answer.headers.get('x-request-id')!;

/** The request ids of every entry of the tenant on the server at `url`, newest first. */
async function listedIds(url: string, tenantId: string): Promise<string[]> {
  return (await sandboxClient(url)('listRequests', `/tenants/${tenantId}/requests?limit=100`)).body.items.map((entry: { requestId: string }) => entry.requestId);
}

/** A captured request of `tenantId`, its request id naming it. */
const captured = (tenantId: string, requestId: string): CapturedRequest => ({
  tenantId, operation: 'whoami', method: 'GET', target: '/api/v1/integration/whoami', status: 200, latencyMs: 1, keyId: 'key_x', requestId,
  idempotencyKey: null, replayed: false, requestContentType: null, requestBytes: 0, responseContentType: 'application/json', responseBytes: 2,
  startedAt: Date.now(), requestBody: null, responseBody: '{}', orderIds: [], tripIds: [], fault: null, feedPage: null,
});

describe('the writer’s pruning', () => {
  it('keeps exactly the last entries of each tenant, those it wrote before a restart counted, and deletes what it dropped a bounded step at a time', async () => {
    const db = openDatabase(':memory:', 'request-log');
    const table = makeRequestLogTable(db, 5);
    const reads = makeRequestLogReads(sqliteSql(db));
    // Entries written before this writer started (a restart).
    table.insert(['a0', 'a1', 'a2'].map((id) => entryOf(captured('A', id))));
    const writer = makeLogWriter(table, { pruneStep: 2, rowsPerTransaction: 3 });
    writer.write(Array.from({ length: 9 }, (_, n) => captured('A', `a${n + 3}`)), new Set());
    writer.write([captured('B', 'b0'), captured('B', 'b1')], new Set());
    const ids = async (tenantId: string) => (await reads.page(tenantId, {}, Number.MAX_SAFE_INTEGER, 100)).map((row) => row.request_id).reverse();
    const chunks = () => db.prepare('SELECT count(*) FROM request_log_chunk').pluck().get();
    // 12 of A over a retention of 5, in chunks of 3: shown are the last 5; stored, the 4 chunks of A and the one of B.
    expect([await ids('A'), await ids('B'), chunks()]).toEqual([['a7', 'a8', 'a9', 'a10', 'a11'], ['b0', 'b1'], 5]);
    let steps = 0;
    while (writer.pruneSome()) steps += 1;
    // The two chunks all of whose entries went (a0–a5), a step each, and a last step that finds nothing more.
    expect([steps + 1, chunks()]).toEqual([3, 3]);
    expect(await ids('A')).toEqual(['a7', 'a8', 'a9', 'a10', 'a11']);
    writer.write([captured('A', 'a12')], new Set());
    while (writer.pruneSome());
    expect([await ids('A'), await ids('B')]).toEqual([['a8', 'a9', 'a10', 'a11', 'a12'], ['b0', 'b1']]);
    db.close();
  });

  it('prepares its statements once: none binds a LIMIT, which SQLite’s planner would read and prepare the statement again for on every run', () => {
    const db = openDatabase(':memory:', 'request-log');
    const prepared: string[] = [];
    const prepare = db.prepare.bind(db);
    vi.spyOn(db, 'prepare').mockImplementation(((source: string) => {
      prepared.push(source);
      return prepare(source);
    }) as typeof db.prepare);
    const writer = makeLogWriter(makeRequestLogTable(db, 2), { pruneStep: 3, rowsPerTransaction: 1 });
    for (let round = 0; round < 3; round++) {
      writer.write(Array.from({ length: 4 }, (_, n) => captured('A', `a${round}-${n}`)), new Set());
      while (writer.pruneSome());
    }
    const pruning = prepared.filter((source) => source.includes('ORDER BY last_seq'));
    // One statement for the step's limit, prepared the first time a step ran and kept; its limit in its text.
    expect(pruning.map((source) => / LIMIT (\S+)$/.exec(source)?.[1])).toEqual(['3']);
    expect(prepared.filter((source) => /LIMIT \?/.test(source))).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM request_log_chunk').pluck().get()).toBe(2);
  });
});

describe('retention', () => {
  it('keeps the last N entries of each tenant and leaves other tenants alone; 0 turns the log off', async () => {
    const store = await memoryStore();
    const x = await seedTenant(store);
    const y = await seedTenant(store);
    const small = openRequestLog(store, { retention: 5, pruneStep: 2 });
    const local = await startServer(store, { adminToken: TEST_ADMIN_TOKEN, requestLog: small });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(requestIdOf(await call(local.url, 'whoami', '/api/v1/integration/whoami', { key: x.keys.full })));
      for (let i = 0; i < 3; i++) await call(local.url, 'whoami', '/api/v1/integration/whoami', { key: y.keys.full });
      await small.settle();
      expect(await listedIds(local.url, x.tenantId)).toEqual(ids.slice(-5).reverse());
      expect(await listedIds(local.url, y.tenantId)).toHaveLength(3);
    } finally {
      await local.close();
      await small.close();
    }
    const off = await startServer(store, { adminToken: TEST_ADMIN_TOKEN, requestLog: null });
    try {
      await call(off.url, 'whoami', '/api/v1/integration/whoami', { key: y.keys.full });
      expect(await listedIds(off.url, y.tenantId)).toEqual([]);
    } finally {
      await off.close();
    }
  });

  // What is held here holds on a machine of any speed: on this thread, pruning deletes at most
  // a step of rows per event-loop turn, never two steps in one turn, and a concurrent request is
  // answered while it goes on; on the writer thread it leaves this one alone. How long the
  // concurrent request waited goes to stderr for a person to read: timings are the bench's.
  // On SQLite the log is written on this thread (main) or its own (worker); on PostgreSQL through its own pool.
  const modes = testEngine() === 'postgres' ? (['off', 'postgres'] as const) : (['off', 'main', 'worker'] as const);
  it.each(modes)('prunes during a 10,000-request burst without stalling a concurrent request (log %s)', async (mode) => {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-request-log-'));
    const store = mode === 'worker' ? await openStore(join(dir, 'sandbox.db')) : await memoryStore();
    const x = await seedTenant(store, tinyDataset({ orders: 60 }));
    // Smaller than a batch (200), so that each batch takes several steps.
    const pruneStep = 50;
    const small = mode === 'off' ? null : mode === 'postgres' ? openRequestLog(store, { retention: 1000, pruneStep }) : makeRequestLog(store.db.name, { retention: 1000, thread: mode, pruneStep });
    const local = await startServer(store, { adminToken: TEST_ADMIN_TOKEN, requestLog: small });
    // Event-loop turns, counted by an immediate that queues itself again: one a turn, as a prune step is.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const probes: number[] = [];
    // Each prune step this thread takes during the burst: its turn, the rows it deleted, and the concurrent requests answered by then.
    const steps: { turn: number; deleted: number; answered: number }[] = [];
    if (small !== null && mode === 'main') {
      const { table } = small as SqliteRequestLog;
      const deleteStep = table.deleteStep;
      vi.spyOn(table, 'deleteStep').mockImplementation((...args) => {
        const deleted = deleteStep(...args);
        if (counting) steps.push({ turn, deleted, answered: probes.length });
        return deleted;
      });
    }
    try {
      const burst = 10_000;
      let sent = 0;
      const worker = async () => {
        while (sent < burst) {
          sent += 1;
          const response = await fetch(`${local.url}${ORDERS}?limit=50`, { headers: { 'X-Api-Key': x.keys.full } });
          await response.arrayBuffer();
        }
      };
      let done = false;
      const probe = async () => {
        while (!done) {
          const started = performance.now();
          const response = await fetch(`${local.url}/api/v1/integration/whoami`, { headers: { 'X-Api-Key': x.keys.ordersRead } });
          await response.arrayBuffer();
          probes.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      const probing = probe();
      const started = performance.now();
      await Promise.all(Array.from({ length: 16 }, worker));
      const elapsed = performance.now() - started;
      const answeredDuringBurst = probes.length;
      counting = false;
      done = true;
      await probing;
      const sorted = [...probes].sort((p, q) => p - q);
      const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
      process.stderr.write(
        `request log ${mode}: ${burst} feed pages in ${(elapsed / 1000).toFixed(1)} s; concurrent whoami (${sorted.length} probes) p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms\n`,
      );
      expect(answeredDuringBurst).toBeGreaterThan(0);
      if (mode === 'main') {
        // 9,000 entries over the retention: many steps, each bounded, each in a turn of its own, with answers between the first and the last.
        expect(steps.length).toBeGreaterThan(1);
        expect(Math.max(...steps.map((step) => step.deleted))).toBeLessThanOrEqual(pruneStep);
        expect(steps.slice(1).every((step, i) => step.turn > steps[i]!.turn)).toBe(true);
        expect(steps.at(-1)!.answered).toBeGreaterThan(steps[0]!.answered);
      }
      if (small !== null) {
        await small.settle();
        expect(await small.page(x.tenantId, {}, Number.MAX_SAFE_INTEGER, 2000)).toHaveLength(1000);
        // The page of a feed answer reaches the table on either thread (D48): 50 items and a cursor.
        // (Most of the burst is refused 429 by the key's rate limit: the newest page served is taken.)
        const [newest] = await small.page(x.tenantId, { operation: 'orderFeed', statusFrom: 200 }, Number.MAX_SAFE_INTEGER, 1);
        const [nextCursor, items] = JSON.parse((await small.get(x.tenantId, newest!.id))!.feed_page!) as [string | null, unknown[]];
        expect([typeof nextCursor, items.length]).toEqual(['string', 50]);
      }
    } finally {
      counting = false;
      await local.close();
      await small?.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
