/** The living feed in the control plane and on the wire (D53, D54, D93): every answer checked against the contracts, but a trip D93 holds. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulationOf } from './runner.ts';
import { call, memoryStore, type RunningServer, sandboxClient, type SandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';

/** The wall clock of the test's sandbox: it only moves when a test moves it. */
const wall = Date.parse('2026-11-20T08:00:00.000Z');
const NINE = '2026-11-20T09:00:00.000Z';
let server: RunningServer;
let api: SandboxClient;

beforeAll(async () => {
  server = await startServer(await memoryStore(() => wall), { adminToken: TEST_ADMIN_TOKEN });
  api = sandboxClient(server.url);
});
afterAll(async () => {
  simulationOf(server.store).close();
  await server.close();
});

/** A fresh tenant frozen at nine, with a key that reads orders and trips. */
async function tenant() {
  const tenantId = (await api('createTenant', '/tenants', { json: { name: 'Living feed', country: 'NL' } })).body.id as string;
  const base = `/tenants/${tenantId}`;
  const key = (await api('createApiKey', `${base}/keys`, { json: { name: 'poller', scopes: ['orders:read', 'trips:read'] } })).body.secret as string;
  await api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: NINE } });
  return { tenantId, base, key };
}

const advance = (base: string, by: string) => api('advanceClock', `${base}/clock/advance`, { method: 'POST', json: { by } });
const orderFeed = (key: string, query = '') => call(server.url, 'orderFeed', `/api/v1/integration/orders${query}`, { key });

describe('the simulation in the control plane', () => {
  it('answers a never-started simulation, starts one, shows its progress, and stops it keeping its settings', async () => {
    const { base } = await tenant();
    const never = { running: false, changesPerMinute: null, seed: null, unknownStatuses: false, unknownMembers: false, unknownTripStatuses: false, startedAtUtc: null, changes: 0, nextChangeAtUtc: null };
    expect((await api('getSimulation', `${base}/simulation`)).body).toEqual(never);
    expect((await api('stopSimulation', `${base}/simulation`, { method: 'DELETE' })).body).toEqual(never);

    const started = await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 2, seed: 7, unknownStatuses: true } });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ running: true, changesPerMinute: 2, seed: 7, unknownStatuses: true, startedAtUtc: NINE, changes: 0 });
    expect(Date.parse(started.body.nextChangeAtUtc)).toBeGreaterThan(Date.parse(NINE));

    const hour = await advance(base, 'PT1H');
    expect(hour.body.clock.nowUtc).toBe('2026-11-20T10:00:00.000Z');
    expect(hour.body.changes).toBeGreaterThan(60);
    expect(hour.body.changes).toBeLessThan(200);
    const running = (await api('getSimulation', `${base}/simulation`)).body;
    expect(running).toMatchObject({ running: true, changes: hour.body.changes });
    expect(Date.parse(running.nextChangeAtUtc)).toBeGreaterThan(Date.parse('2026-11-20T10:00:00.000Z'));

    const stopped = (await api('stopSimulation', `${base}/simulation`, { method: 'DELETE' })).body;
    expect(stopped).toEqual({ ...running, running: false, nextChangeAtUtc: null });
    expect((await advance(base, 'PT1H')).body.changes).toBe(0);
    expect((await api('stopSimulation', `${base}/simulation`, { method: 'DELETE' })).body).toEqual(stopped);
  });

  it('takes the smallest rate the contract allows without failing', async () => {
    const { base } = await tenant();
    const started = await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 1e-300, seed: 0 } });
    expect(started.status).toBe(200);
    expect((await advance(base, 'P366D')).body.changes).toBe(0);
  });

  it('draws a seed when none is given, and shows it', async () => {
    const { base } = await tenant();
    const { seed } = (await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 1 } })).body;
    expect(Number.isInteger(seed) && seed >= 0 && seed <= 4294967295).toBe(true);
  });

  it('refuses a setting it cannot honour, naming the field', async () => {
    const { base } = await tenant();
    const cases: [unknown, string][] = [
      [{ changesPerMinute: 0 }, 'changesPerMinute'],
      [{ changesPerMinute: 601 }, 'changesPerMinute'],
      [{ changesPerMinute: 'fast' }, 'changesPerMinute'],
      [{ changesPerMinute: 1, seed: -1 }, 'seed'],
      [{ changesPerMinute: 1, seed: 1.5 }, 'seed'],
      [{ changesPerMinute: 1, unknownStatuses: 'yes' }, 'unknownStatuses'],
    ];
    for (const [json, field] of cases) {
      const answer = await api('setSimulation', `${base}/simulation`, { method: 'PUT', json });
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body.errors[0].field, JSON.stringify(json)).toBe(field);
    }
    expect((await api('getSimulation', `${base}/simulation`)).body.running).toBe(false);
  });

  it('refuses an advance past 100,000 changes with a 400 naming by, and the clock stays', async () => {
    const { base } = await tenant();
    await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 600, seed: 7 } });
    const refused = await advance(base, 'P1D');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ field: 'by', code: 'api.malformed_request', value: 'P1D' });
    expect(refused.body.detail).toContain('100,000');
    expect((await api('getClock', `${base}/clock`)).body.nowUtc).toBe(NINE);
    expect((await api('getSimulation', `${base}/simulation`)).body.changes).toBe(0);
  });

  it('starts and stops while the tenant is Suspended, and writes nothing until it is Active again', async () => {
    const { base } = await tenant();
    await api('suspendTenant', `${base}/suspend`);
    expect((await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 60, seed: 1 } })).status).toBe(200);
    expect((await advance(base, 'PT1H')).body.changes).toBe(0);
    await api('reactivateTenant', `${base}/reactivate`);
    expect((await advance(base, 'PT10M')).body.changes).toBeGreaterThan(400);
  });

  it('answers other requests while an advance catches up', async () => {
    const { base, key } = await tenant();
    await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 120, seed: 2 } });
    const pending = advance(base, 'PT1H');
    // Each of these is answered between two slices of the catch-up.
    let seen = 0;
    while (seen === 0) {
      seen = (await api('getSimulation', `${base}/simulation`)).body.changes as number;
      expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key })).status).toBe(200);
    }
    const { changes } = (await pending).body;
    expect(seen).toBeLessThan(changes);
  });

  it('ends with a reset of the sandbox', async () => {
    const { tenantId, base } = await tenant();
    await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 60, seed: 1 } });
    await api('resetSandbox', '/reset', { method: 'POST' });
    expect((await api('getSimulation', `${base}/simulation`)).status).toBe(404);
    expect(await server.store.simulations.get(tenantId)).toBeUndefined();
  });
});

describe('unknown order statuses on the wire (D54)', () => {
  it('serves OnHold in the order feed, the order and its history, and still refuses it in the status filter', async () => {
    const { base, key } = await tenant();
    await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 30, seed: 21, unknownStatuses: true } });
    let held: { id: string; externalId: string; status: string } | undefined;
    for (let step = 0; step < 36 && held === undefined; step++) {
      await advance(base, 'PT5M');
      // The feed's answers are checked against the contract: its status is an open string (D27).
      const items = (await orderFeed(key, '?limit=1000')).body.items as { id: string; externalId: string; status: string }[];
      held = items.find((order) => order.status === 'OnHold');
    }
    expect(held).toBeDefined();
    expect((await api('getOrder', `${base}/orders/${held!.id}`)).body.status).toBe('OnHold');
    const history = (await api('orderHistory', `${base}/orders/${held!.id}/history`)).body.items as { data: { to?: string } }[];
    expect(history.map((entry) => entry.data.to)).toContain('OnHold');
    const filtered = await orderFeed(key, '?status=OnHold');
    expect(filtered.status).toBe(400);
    expect(filtered.body.errors[0].field).toBe('status');
    // Not final, and not cancellable while held (D11 names no such status).
    const writer = (await api('createApiKey', `${base}/keys`, { json: { name: 'writer', scopes: ['orders:write'] } })).body.secret as string;
    const cancel = await call(server.url, 'cancelOrder', `/api/v1/integration/orders/externalid/${held!.externalId}/cancel`, { method: 'POST', key: writer, json: {} });
    expect(cancel.status).toBe(409);
    expect(cancel.body.type).toBe('orders.status.illegal');
  });
});

describe('what a later version may serve, on the wire (D93)', () => {
  it('serves deliveryWindow on the orders it takes in and OnHold in the trip feed, refuses OnHold in the trip filter, and neither starts nor cancels a held trip', async () => {
    const { base, key } = await tenant();
    const started = await api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: 30, seed: 21, unknownMembers: true, unknownTripStatuses: true } });
    expect(started.body).toMatchObject({ unknownStatuses: false, unknownMembers: true, unknownTripStatuses: true });
    let held: { id: string; status: string } | undefined;
    for (let step = 0; step < 36 && held === undefined; step++) {
      await advance(base, 'PT5M');
      // Read without the contract's check: this version closes the trip status (D27), and OnHold is outside it by design.
      const page = (await (await fetch(`${server.url}/api/v1/integration/trips?limit=100`, { headers: { 'X-Api-Key': key } })).json()) as { items: { id: string; status: string }[] };
      held = page.items.find((trip) => trip.status === 'OnHold');
    }
    expect(held).toBeDefined();
    // The order feed is checked against the contract: an added member is allowed (the Order schema never closes its members).
    const orders = (await orderFeed(key, '?limit=5')).body.items as Record<string, unknown>[];
    expect(orders.length).toBe(5);
    for (const order of orders) expect(order['deliveryWindow']).toEqual({ fromUtc: expect.stringMatching(/T\d{2}:00:00\.000Z$/), toUtc: expect.stringMatching(/T\d{2}:00:00\.000Z$/) });
    const filtered = await call(server.url, 'tripFeed', '/api/v1/integration/trips?status=OnHold', { key });
    expect(filtered.status).toBe(400);
    expect(filtered.body.errors[0].field).toBe('status');
    const start = await api('startTrip', `${base}/trips/${held!.id}/start`, { method: 'POST' });
    expect([start.status, start.body.type]).toEqual([409, 'planning.trip_not_confirmed']);
    const cancel = await api('cancelTrip', `${base}/trips/${held!.id}/cancel`, { method: 'POST', json: { reasonCode: 'VEHICLE_BREAKDOWN' } });
    expect([cancel.status, cancel.body.type]).toEqual([409, 'trips.mutation.tripNotCancelable']);
  });
});
