/**
 * Fault rules in the control plane and the store (D51): defaults, each refusal naming its
 * field, list, delete one or all, 404 for a rule that is not the tenant's; counters kept
 * across a restart, a reset forgetting the cache; the draws' reproducibility.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryStore, type RunningServer, sandboxClient, type SandboxClient, type SeededTestTenant, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from '../../dev/testing/sandbox.ts';
import { DRAW, draw, drawBetween } from './draw.ts';
import { planFromRules } from './plan.ts';
import { restartableDatabase } from '../../dev/testing/test-store.ts';

let server: RunningServer;
let api: SandboxClient;
let a: SeededTestTenant;
let b: SeededTestTenant;
let keyOfA: string;
let keyOfB: string;

beforeAll(async () => {
  const store = await memoryStore();
  a = await seedTenant(store, tinyDataset({ orders: 3 }));
  b = await seedTenant(store, tinyDataset({ orders: 3, idSpace: 1 }));
  server = await startServer(store, { adminToken: TEST_ADMIN_TOKEN, requestLog: null });
  api = sandboxClient(server.url);
  keyOfA = (await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: a.keys.full })).body.keyId;
  keyOfB = (await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: b.keys.full })).body.keyId;
});
afterAll(() => server.close());

const faultsOf = (tenant: { tenantId: string }) => `/tenants/${tenant.tenantId}/faults`;
const create = (json: Record<string, unknown>, tenant = a) => api('createFault', faultsOf(tenant), { json });

describe('adding a rule: defaults', () => {
  it.each([
    [{ operation: 'attachPayment', fault: 'reset' }, { when: 'before', times: 1, remaining: 1, probability: null, seed: null, keyId: null, status: null, problemType: null, problem: null, latencyMs: null, durationMs: null }],
    [{ operation: 'attachPayment', fault: 'malformed' }, { when: 'after' }],
    [{ operation: 'cancelOrder', fault: 'stall' }, { when: 'after', durationMs: 10_000 }],
    [{ operation: 'orderFeed', fault: 'stall', durationMs: 500 }, { when: null, durationMs: 500 }],
    [{ operation: 'orderFeed', fault: 'status', status: 429 }, { retryAfterSeconds: 1, problemType: 'api.rate_limited', when: null }],
    [{ operation: 'attachPayment', fault: 'status', status: 429, problemType: 'idempotency.inFlight', retryAfterSeconds: 2 }, { problemType: 'idempotency.inFlight', when: 'before' }],
    [{ operation: 'whoami', fault: 'status', status: 429, problemType: 'api.rate_limited' }, { problemType: 'api.rate_limited' }],
    [{ operation: 'orderFeed', fault: 'status', status: 503 }, { retryAfterSeconds: null }],
    [{ operation: 'orderFeed', fault: 'status', status: 500, times: 3 }, { times: 3, remaining: 3, retryAfterSeconds: null, problemType: null }],
    [{ operation: 'tripFeed', fault: 'latency', latencyMs: 250 }, { latencyMs: { min: 250, max: 250 }, seed: null }],
    [{ operation: 'tripFeed', fault: 'latency', latencyMs: { min: 5, max: 5 } }, { latencyMs: { min: 5, max: 5 }, seed: null }],
    [{ operation: 'whoami', fault: 'empty', probability: 0.5, seed: 42 }, { times: null, remaining: null, probability: 0.5, seed: 42 }],
    [{ operation: 'cancelOrder', fault: 'problem', problem: 'orders.notFound', times: 2 }, { when: 'before', status: null, retryAfterSeconds: null, problemType: null, remaining: 2 }],
    [{ operation: 'orderFeed', fault: 'problem', problem: 'api.rate_limited' }, { when: null, retryAfterSeconds: 1, problemType: null }],
    [{ operation: 'archiveOrder', fault: 'problem', problem: 'idempotency.inFlight', retryAfterSeconds: 3, when: 'before' }, { retryAfterSeconds: 3 }],
  ])('%j → %j', async (input, expected) => {
    const answer = await create(input);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ ...input, ...expected, matched: 0, fired: 0 });
  });

  it('a rule that draws gets a random seed, shown; the order of the members is the contract\'s', async () => {
    const ranged = (await create({ operation: 'orderFeed', fault: 'latency', latencyMs: { min: 10, max: 20 } })).body;
    const chance = (await create({ operation: 'orderFeed', fault: 'reset', probability: 0.1 })).body;
    for (const rule of [ranged, chance]) expect(Number.isInteger(rule.seed)).toBe(true);
    expect(Object.keys(ranged)).toEqual(['id', 'operation', 'keyId', 'fault', 'status', 'retryAfterSeconds', 'problemType', 'problem', 'latencyMs', 'durationMs', 'when', 'times', 'remaining', 'probability', 'seed', 'matched', 'fired', 'createdAtUtc']);
  });

  it('keyId may name any key of the tenant', async () => {
    expect((await create({ operation: 'orderFeed', keyId: keyOfA, fault: 'reset' })).body.keyId).toBe(keyOfA);
  });
});

describe('a rule that cannot be honoured is 400 api.malformed_request naming the field', () => {
  it.each([
    [{ operation: 'orderFeed', fault: 'reset', status: 500 }, 'status'],
    [{ operation: 'orderFeed', fault: 'status' }, 'status'],
    [{ operation: 'orderFeed', fault: 'latency' }, 'latencyMs'],
    [{ operation: 'orderFeed', fault: 'reset', latencyMs: 100 }, 'latencyMs'],
    [{ operation: 'orderFeed', fault: 'latency', latencyMs: { min: 900, max: 100 } }, 'latencyMs'],
    [{ operation: 'orderFeed', fault: 'empty', durationMs: 1000 }, 'durationMs'],
    [{ operation: 'orderFeed', fault: 'status', status: 500, retryAfterSeconds: 2 }, 'retryAfterSeconds'],
    [{ operation: 'orderFeed', fault: 'reset', retryAfterSeconds: 2 }, 'retryAfterSeconds'],
    [{ operation: 'orderFeed', fault: 'reset', when: 'after' }, 'when'],
    [{ operation: 'whoami', fault: 'reset', when: 'before' }, 'when'],
    [{ operation: 'tripFeed', fault: 'malformed', when: 'after' }, 'when'],
    [{ operation: 'attachPayment', fault: 'malformed', when: 'before' }, 'when'],
    [{ operation: 'archiveOrder', fault: 'stall', when: 'before' }, 'when'],
    [{ operation: 'orderFeed', fault: 'reset', times: 2, probability: 0.5 }, 'times'],
    [{ operation: 'orderFeed', fault: 'reset', seed: 3 }, 'seed'],
    [{ operation: 'orderFeed', fault: 'latency', latencyMs: 100, seed: 3 }, 'seed'],
    [{ operation: 'orderFeed', fault: 'reset', keyId: 'key_AAAAAAAAAAAA' }, 'keyId'],
    [{ operation: 'orderFeed', fault: 'status', status: 429, problemType: 'idempotency.inFlight' }, 'problemType'],
    [{ operation: 'whoami', fault: 'status', status: 429, problemType: 'idempotency.inFlight' }, 'problemType'],
    [{ operation: 'attachPayment', fault: 'status', status: 503, problemType: 'idempotency.inFlight' }, 'problemType'],
    [{ operation: 'attachPayment', fault: 'status', status: 500, problemType: 'api.rate_limited' }, 'problemType'],
    [{ operation: 'cancelOrder', fault: 'reset', problemType: 'idempotency.inFlight' }, 'problemType'],
    [{ operation: 'orderFeed', fault: 'problem' }, 'problem'],
    [{ operation: 'orderFeed', fault: 'problem', problem: 'orders.notFound' }, 'problem'],
    [{ operation: 'whoami', fault: 'problem', problem: 'api.payload_too_large' }, 'problem'],
    [{ operation: 'attachPayment', fault: 'problem', problem: 'orders.status.illegal' }, 'problem'],
    [{ operation: 'orderFeed', fault: 'reset', problem: 'api.rate_limited' }, 'problem'],
    [{ operation: 'cancelOrder', fault: 'problem', problem: 'orders.notFound', when: 'after' }, 'when'],
    [{ operation: 'cancelOrder', fault: 'problem', problem: 'orders.notFound', retryAfterSeconds: 2 }, 'retryAfterSeconds'],
    [{ operation: 'attachPayment', fault: 'problem', problem: 'api.rate_limited', problemType: 'idempotency.inFlight' }, 'problemType'],
  ])('%j names %s', async (input, field) => {
    const answer = await create(input);
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('api.malformed_request');
    expect(answer.body.errors.map((error: { field: string }) => error.field)).toEqual([field]);
  });

  it("another tenant's key names keyId", async () => {
    const answer = await create({ operation: 'orderFeed', fault: 'reset', keyId: keyOfB });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'keyId', value: keyOfB });
  });

  it.each([
    [{ operation: 'orderFeed', fault: 'stall', durationMs: 50 }, 'durationMs'],
    [{ operation: 'nope', fault: 'reset' }, 'operation'],
    [{ operation: 'orderFeed', fault: 'reset', probability: 0 }, 'probability'],
    [{ operation: 'attachPayment', fault: 'status', status: 429, problemType: 'orders.notFound' }, 'problemType'],
  ])('the schema refuses %j naming %s', async (input, field) => {
    const answer = await create(input);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toContain(field);
  });
});

describe('listing and deleting', () => {
  it('lists oldest first, deletes one (404 once gone or when another tenant\'s), then all', async () => {
    await api('deleteFaults', faultsOf(b));
    const first = (await create({ operation: 'orderFeed', fault: 'reset' }, b)).body;
    const second = (await create({ operation: 'whoami', fault: 'empty' }, b)).body;
    const third = (await create({ operation: 'tripFeed', fault: 'malformed' }, b)).body;
    expect((await api('listFaults', faultsOf(b))).body.items.map((rule: { id: string }) => rule.id)).toEqual([first.id, second.id, third.id]);
    expect((await api('deleteFault', `${faultsOf(b)}/${second.id}`)).status).toBe(204);
    const again = await api('deleteFault', `${faultsOf(b)}/${second.id}`);
    expect(again.status).toBe(404);
    expect(again.body.type).toBe('about:blank');
    expect((await api('deleteFault', `${faultsOf(a)}/${first.id}`)).status).toBe(404);
    expect((await api('listFaults', faultsOf(b))).body.items.map((rule: { id: string }) => rule.id)).toEqual([first.id, third.id]);
    expect((await api('deleteFaults', faultsOf(b))).status).toBe(204);
    expect((await api('listFaults', faultsOf(b))).body.items).toEqual([]);
    expect((await api('deleteFaults', faultsOf(b))).status).toBe(204);
  });

  it('shows the counters as calls match and fire', async () => {
    await api('deleteFaults', faultsOf(b));
    await create({ operation: 'whoami', fault: 'status', status: 503, times: 2 }, b);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: b.keys.full })).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect((await api('listFaults', faultsOf(b))).body.items[0]).toMatchObject({ times: 2, remaining: 0, matched: 3, fired: 2 });
  });

  it('an unknown tenant is 404', async () => {
    expect((await api('listFaults', '/tenants/00000000-0000-4000-8000-000000000000/faults')).status).toBe(404);
  });
});

describe('the store', () => {
  it('keeps rules and counters across a restart, and a reset forgets them, cache included', async () => {
    const database = await restartableDatabase();
    try {
      let store = await database.open();
      const tenant = await seedTenant(store);
      const spec = { operation: 'whoami', keyId: null, fault: 'reset', status: null, retryAfterSeconds: null, problemType: null, problem: null, latencyMs: null, durationMs: null, when: null, times: 2, probability: null, seed: null } as const;
      const rule = await store.faults.add(tenant.tenantId, spec);
      const cached = store.faults.rulesOf(tenant.tenantId)![0]!;
      expect(await store.faults.spend(cached)).toBe(true);
      store.faults.count(cached, true);
      await store.close();
      store = await database.open();
      expect(await store.faults.list(tenant.tenantId)).toEqual([{ ...rule, matched: 1, fired: 1, remaining: 1 }]);
      await store.reset();
      expect(store.faults.rulesOf(tenant.tenantId)).toBeUndefined();
      await store.close();
    } finally {
      database.remove();
    }
  });

  it('a tenant without rules has no entry to look at (the hot path)', async () => {
    const store = await memoryStore();
    const tenant = await seedTenant(store);
    const rule = await store.faults.add(tenant.tenantId, { operation: 'whoami', keyId: null, fault: 'reset', status: null, retryAfterSeconds: null, problemType: null, problem: null, latencyMs: null, durationMs: null, when: null, times: 1, probability: null, seed: null });
    expect(store.faults.rulesOf(tenant.tenantId)).toHaveLength(1);
    expect(await store.faults.remove(tenant.tenantId, rule.id)).toBe(true);
    expect(store.faults.rulesOf(tenant.tenantId)).toBeUndefined();
  });
});

describe('draws', () => {
  it('depend only on seed, call number and stream, and spread over [0, 1)', () => {
    expect(draw(42, 17, DRAW.fire)).toBe(draw(42, 17, DRAW.fire));
    expect(draw(42, 17, DRAW.fire)).not.toBe(draw(43, 17, DRAW.fire));
    expect(draw(42, 17, DRAW.fire)).not.toBe(draw(42, 18, DRAW.fire));
    expect(draw(42, 17, DRAW.fire)).not.toBe(draw(42, 17, DRAW.latency));
    const values = Array.from({ length: 10_000 }, (_, n) => draw(7, n, DRAW.fire));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const belowQuarter = values.filter((value) => value < 0.25).length;
    expect(belowQuarter).toBeGreaterThan(2300);
    expect(belowQuarter).toBeLessThan(2700);
  });

  it('fixed values: a rerun on another machine fires on the same calls', async () => {
    expect([0, 1, 2, 3].map((n) => draw(42, n, DRAW.fire).toFixed(6))).toEqual(GOLDEN);
  });

  it('a latency range is drawn uniformly, both ends included', async () => {
    const seen = new Set(Array.from({ length: 2000 }, (_, n) => drawBetween(100, 104, draw(1, n, DRAW.latency))));
    expect([...seen].sort()).toEqual([100, 101, 102, 103, 104]);
  });

  it('rules: every firing latency adds its wait; the first other rule that fires decides; a used-up rule never fires', async () => {
    const base = { keyId: null, status: null, retryAfterSeconds: null, problemType: null, problem: null, latencyMs: null, durationMs: null, when: null, probability: null, seed: null, matched: 0, fired: 0, createdAtUtc: '' };
    const rules = [
      { ...base, id: 'l1', operation: 'orderFeed', fault: 'latency' as const, latencyMs: { min: 100, max: 100 }, times: 5, remaining: 5 },
      { ...base, id: 'used', operation: 'orderFeed', fault: 'reset' as const, times: 1, remaining: 0 },
      { ...base, id: 's1', operation: 'orderFeed', fault: 'status' as const, status: 503 as const, times: 1, remaining: 1 },
      { ...base, id: 's2', operation: 'orderFeed', fault: 'empty' as const, times: 1, remaining: 1 },
      { ...base, id: 'l2', operation: 'orderFeed', fault: 'latency' as const, latencyMs: { min: 50, max: 50 }, times: 1, remaining: 1 },
      { ...base, id: 'other', operation: 'tripFeed', fault: 'reset' as const, times: 1, remaining: 1 },
    ];
    const counted: string[] = [];
    const plan = planFromRules(rules, 'orderFeed', 'key_x', (rule, fired) => {
      counted.push(`${rule.id}:${fired}`);
      rule.matched += 1;
    });
    expect(plan).toMatchObject({ waitBeforeMs: 150, waitAfterMs: 0, strike: { fault: 'status', status: 503 }, mark: { fault: 'status', source: 'rule', ruleId: 's1', latencyMs: 150 } });
    expect(counted).toEqual(['l1:true', 'used:false', 's1:true', 's2:false', 'l2:true']);
  });
});

// draw(42, n, DRAW.fire) for n = 0..3, as this implementation first drew them: a change of the hash changes every rerun.
const GOLDEN = ['0.689202', '0.799535', '0.586000', '0.920705'];
