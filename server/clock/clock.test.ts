/** The test clock of each tenant (D52): what it answers, and every time the tenant sees that it drives. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durationMs } from './control-plane.ts';
import { call, memoryStore, orderIntake, type RunningServer, sandboxClient, type SandboxClient, seedTenant, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';
import { restartableDatabase } from '../../dev/testing/test-store.ts';

/** The wall clock of the test's sandbox: it only moves when a test moves it. */
let wall = Date.parse('2026-11-20T08:00:00.000Z');
const NINE = '2026-11-20T09:00:00.000Z';
const HOUR = 3_600_000;
let server: RunningServer;
let api: SandboxClient;

beforeAll(async () => {
  server = await startServer(await memoryStore(() => wall), { adminToken: TEST_ADMIN_TOKEN });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

/** A fresh tenant with a key of every scope, `rateLimit` calls a minute, and orders SHOP-1…SHOP-n. */
async function tenant(options: { orders?: number; rateLimit?: number } = {}) {
  const tenantId = (await api('createTenant', '/tenants', { json: { name: 'Clockwork', country: 'NL' } })).body.id as string;
  const base = `/tenants/${tenantId}`;
  const scopes = ['orders:read', 'orders:write', 'trips:read'];
  const key = (await api('createApiKey', `${base}/keys`, { json: { name: 'erp', scopes, ...(options.rateLimit ? { rateLimitPerMinute: options.rateLimit } : {}) } })).body.secret as string;
  for (let n = 1; n <= (options.orders ?? 0); n += 1) await api('createOrder', `${base}/orders`, { json: orderIntake(`SHOP-${n}`) });
  return { tenantId, base, key };
}

const feed = (key: string, query = '') => call(server.url, 'orderFeed', `/api/v1/integration/orders${query}`, { key });
const cancel = (key: string, externalId: string) =>
  call(server.url, 'cancelOrder', `/api/v1/integration/orders/externalid/${externalId}/cancel`, { method: 'POST', key, json: {} });
const stampOf = async (key: string, externalId: string) =>
  ((await feed(key)).body.items as { externalId: string; updatedAtUtc: string }[]).find((order) => order.externalId === externalId)!.updatedAtUtc;

describe('the clock in the control plane', () => {
  it('starts at the wall clock, freezes, runs at an offset from where it stood, and goes back to system time', async () => {
    const { base } = await tenant();
    expect((await api('getClock', `${base}/clock`)).body).toEqual({ mode: 'system', nowUtc: new Date(wall).toISOString(), offsetMs: 0 });
    expect((await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } })).body).toEqual({ mode: 'frozen', nowUtc: NINE, offsetMs: HOUR });
    wall += 5000;
    expect((await api('getClock', `${base}/clock`)).body).toMatchObject({ mode: 'frozen', nowUtc: NINE, offsetMs: HOUR - 5000 });
    // Unfrozen without a time, it runs on from where it stood: no jump.
    expect((await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'offset' } })).body).toEqual({ mode: 'offset', nowUtc: NINE, offsetMs: HOUR - 5000 });
    wall += 1000;
    expect((await api('getClock', `${base}/clock`)).body.nowUtc).toBe('2026-11-20T09:00:01.000Z');
    // Back to the wall clock would be an hour back: refused, and nothing changes.
    const back = await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'system' } });
    expect(back.status).toBe(409);
    expect(back.body).toMatchObject({ type: 'about:blank', status: 409 });
    expect(back.body.detail).toContain('2026-11-20T09:00:01.000Z');
    expect((await api('getClock', `${base}/clock`)).body.mode).toBe('offset');
  });

  it('refuses to move the clock backwards with a 409 naming both times, and accepts the same time', async () => {
    const { base } = await tenant();
    await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } });
    const earlier = await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: '2026-11-20T08:59:59.999Z' } });
    expect(earlier.status).toBe(409);
    expect(earlier.body.detail).toContain(NINE);
    expect(earlier.body.detail).toContain('2026-11-20T08:59:59.999Z');
    expect((await api('getClock', `${base}/clock`)).body.nowUtc).toBe(NINE);
    expect((await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } })).status).toBe(200);
  });

  it('advances by ISO 8601 durations, turning a system clock into an offset one', async () => {
    const { base } = await tenant();
    const advanced = await api('advanceClock', `${base}/clock/advance`, { json: { by: 'P1DT1H30M0.5S' } });
    expect(advanced.body).toEqual({ clock: { mode: 'offset', nowUtc: new Date(wall + 25.5 * HOUR + 500).toISOString(), offsetMs: 25.5 * HOUR + 500 }, changes: 0 });
    expect(durationMs('PT25H')).toBe(25 * HOUR);
    expect(durationMs('P1W')).toBe(7 * 24 * HOUR);
    expect(durationMs('PT0S')).toBe(0);
  });

  it('refuses a duration that is malformed, negative, calendar-dependent or too long, naming by', async () => {
    const { base } = await tenant();
    for (const by of ['25 hours', '-PT1H', 'P1M', 'P1Y', 'P367D', 'PT']) {
      const answer = await api('advanceClock', `${base}/clock/advance`, { json: { by } });
      expect(answer.status, by).toBe(400);
      expect(answer.body.errors[0], by).toMatchObject({ field: 'by', code: 'api.malformed_request', value: by });
    }
    expect((await api('getClock', `${base}/clock`)).body.mode).toBe('system');
  });

  it('refuses atUtc with mode system, and a mode it does not know, naming the field', async () => {
    const { base } = await tenant();
    const system = await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'system', atUtc: NINE } });
    expect(system.status).toBe(400);
    expect(system.body.errors[0].field).toBe('atUtc');
    const unknown = await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'sideways' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('mode');
  });

  it('answers 404 about:blank for a tenant it does not know', async () => {
    const answer = await api('getClock', '/tenants/8e4f2a6c-1b3d-4f5e-9a7b-c2d4e6f8a0b1/clock');
    expect(answer.status).toBe(404);
    expect(answer.body.type).toBe('about:blank');
  });
});

describe('what the clock drives', () => {
  it('stamps writes at the frozen time, one millisecond apart, then at the advanced time; another tenant keeps the wall clock', async () => {
    const frozen = await tenant({ orders: 3 });
    const other = await tenant({ orders: 1 });
    await api('setClock', `${frozen.base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } });
    await cancel(frozen.key, 'SHOP-1');
    await cancel(frozen.key, 'SHOP-2');
    expect([await stampOf(frozen.key, 'SHOP-1'), await stampOf(frozen.key, 'SHOP-2')]).toEqual([NINE, '2026-11-20T09:00:00.001Z']);
    await api('advanceClock', `${frozen.base}/clock/advance`, { json: { by: 'PT1H' } });
    await cancel(frozen.key, 'SHOP-3');
    expect(await stampOf(frozen.key, 'SHOP-3')).toBe('2026-11-20T10:00:00.000Z');
    wall += 1000;
    await cancel(other.key, 'SHOP-1');
    expect(await stampOf(other.key, 'SHOP-1')).toBe(new Date(wall).toISOString());
  });

  it('keeps stamps increasing when the clock is frozen behind the newest stamp', async () => {
    const { base, key } = await tenant({ orders: 2 });
    wall += 10;
    // Frozen at the current time, two writes still get two stamps in order.
    await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen' } });
    await cancel(key, 'SHOP-1');
    await cancel(key, 'SHOP-2');
    const [one, two] = [await stampOf(key, 'SHOP-1'), await stampOf(key, 'SHOP-2')];
    expect(Date.parse(two)).toBeGreaterThan(Date.parse(one));
  });

  it('compares since with the tenant’s stamps: an hour advanced, since = the tenant’s time keeps only what came after', async () => {
    const { base, key } = await tenant({ orders: 2 });
    await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } });
    await cancel(key, 'SHOP-1');
    const advanced = (await api('advanceClock', `${base}/clock/advance`, { json: { by: 'PT1H' } })).body.clock.nowUtc as string;
    await cancel(key, 'SHOP-2');
    const since = (await feed(key, `?since=${advanced}`)).body.items.map((order: { externalId: string }) => order.externalId);
    expect(since).toEqual(['SHOP-2']);
    expect((await feed(key, `?since=${NINE}`)).body.items.map((order: { externalId: string }) => order.externalId)).toEqual(['SHOP-1', 'SHOP-2']);
  });

  it('refills the rate limit on the tenant’s time: frozen, the wall clock’s minute refills nothing; advanced, it does', async () => {
    const { base, key } = await tenant({ rateLimit: 5 });
    await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } });
    for (let i = 0; i < 5; i += 1) expect((await feed(key)).status).toBe(200);
    const limited = await feed(key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('12');
    wall += 60_000;
    expect((await feed(key)).status).toBe(429);
    await api('advanceClock', `${base}/clock/advance`, { json: { by: 'PT11S' } });
    const early = await feed(key);
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    await api('advanceClock', `${base}/clock/advance`, { json: { by: 'PT1S' } });
    expect((await feed(key)).status).toBe(200);
  });

  it('replays an Idempotency-Key for 24 hours of the tenant’s time; advanced 25 hours, the key is fresh again', async () => {
    const { base, key } = await tenant({ orders: 1 });
    await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } });
    const pay = (amount: number) =>
      call(server.url, 'attachPayment', '/api/v1/integration/orders/externalid/SHOP-1/payment', {
        method: 'POST',
        key,
        json: { paymentId: `4c1a7e93-2b5d-4f08-9e6c-00000000000${amount}`, amount, currency: 'EUR' },
        headers: { 'Idempotency-Key': 'pay-once' },
      });
    expect((await pay(1)).status).toBe(200);
    await api('advanceClock', `${base}/clock/advance`, { json: { by: 'PT23H59M' } });
    expect((await pay(1)).headers.get('idempotent-replayed')).toBe('true');
    // Within the window, the key cannot carry another request.
    expect((await pay(2)).status).toBe(400);
    await api('advanceClock', `${base}/clock/advance`, { json: { by: 'PT1H1M' } });
    const fresh = await pay(2);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  });

  it('dates a key’s creation and revocation on the tenant’s time', async () => {
    const { base } = await tenant();
    await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } });
    const created = (await api('createApiKey', `${base}/keys`, { json: { name: 'later', scopes: ['orders:read'] } })).body;
    expect(created.createdAtUtc).toBe(NINE);
  });
});

describe('keeping the clock', () => {
  it('freezes and runs "from now" on a wall clock that ticks between two readings, without calling it a backwards move', async () => {
    let ticking = wall;
    const store = await memoryStore(() => (ticking += 1));
    const { id } = await store.tenants.create({ name: 'Busy', country: 'NL' });
    expect((await store.clocks.set(id, 'frozen')).mode).toBe('frozen');
    const other = (await store.tenants.create({ name: 'Busy too', country: 'NL' })).id;
    await store.clocks.set(other, 'offset', ticking + HOUR);
    expect((await store.clocks.set(other, 'offset')).mode).toBe('offset');
    expect((await store.clocks.set(other, 'frozen')).mode).toBe('frozen');
  });

  it('keeps a frozen tenant frozen across a restart, and a reset forgets it', async () => {
    const database = await restartableDatabase();
    try {
      const first = await database.open(() => wall);
      const { id } = await first.tenants.create({ name: 'Kept', country: 'NL' });
      await first.clocks.set(id, 'frozen', Date.parse(NINE));
      await first.close();
      const second = await database.open(() => wall + HOUR);
      expect(second.clocks.view(id)).toMatchObject({ mode: 'frozen', nowUtc: NINE });
      await second.reset();
      expect(second.clocks.view(id)).toMatchObject({ mode: 'system', nowUtc: new Date(wall + HOUR).toISOString() });
      await second.close();
    } finally {
      database.remove();
    }
  });
});

describe('a tenant\'s caches read again (D81)', () => {
  it('keep a clock set, or a rule added, in this process after a reading of the database that began before it', async () => {
    const store = await memoryStore(() => wall);
    try {
      const { tenantId } = await seedTenant(store);
      const clockSeen = store.clocks.writesOf(tenantId);
      const rulesSeen = store.faults.writesOf(tenantId);
      const [clockBefore, rulesBefore] = await Promise.all([store.clocks.read(tenantId), store.faults.read(tenantId)]);
      // Written here while the reading was under way: the reading is older, and must not put it back.
      await store.clocks.set(tenantId, 'frozen', wall + 60_000);
      await store.faults.add(tenantId, { operation: 'whoami', keyId: null, fault: 'reset', status: null, retryAfterSeconds: null, problemType: null, problem: null, latencyMs: null, durationMs: null, when: null, times: 1, probability: null, seed: null });
      store.clocks.put(tenantId, clockBefore, clockSeen);
      store.faults.put(tenantId, rulesBefore, rulesSeen);
      expect(store.clocks.view(tenantId)).toMatchObject({ mode: 'frozen', nowUtc: new Date(wall + 60_000).toISOString() });
      expect(store.faults.rulesOf(tenantId)).toHaveLength(1);
      // A reading that began after them is kept.
      const fresh = store.clocks.writesOf(tenantId);
      store.clocks.put(tenantId, await store.clocks.read(tenantId), fresh);
      expect(store.clocks.view(tenantId).mode).toBe('frozen');
    } finally {
      await store.close();
    }
  });
});
