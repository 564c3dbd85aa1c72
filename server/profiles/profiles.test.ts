/**
 * `POST /sandbox/v1/profiles` (D39): a conformance profile with every key doing what its name
 * says, pools that fit their names, the other tenant's trips, full feeds, and nothing shared
 * between two calls.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderStatuses, orderTypes, tripStatuses } from '../../fixtures/status-rules.ts';
import { call, memoryStore, type RunningServer, sandboxClient, type SandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let api: SandboxClient;

beforeAll(async () => {
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

interface FeedItem {
  id: string;
  externalId?: string | null;
  status: string;
  type?: string;
}

/** Every item of a feed, following the cursor. */
async function wholeFeed(key: string, feed: 'orders' | 'trips'): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  let query = '';
  for (;;) {
    const page = await call(server.url, feed === 'orders' ? 'orderFeed' : 'tripFeed', `/api/v1/integration/${feed}?limit=100${query}`, { key });
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    if (page.body.nextCursor === null) return items;
    query = `&cursor=${encodeURIComponent(page.body.nextCursor)}`;
  }
}

const whoami = (key: string) => call(server.url, 'whoami', '/api/v1/integration/whoami', { key });

describe('POST /sandbox/v1/profiles', () => {
  it('answers a valid profile, addressed at the host the caller used', async () => {
    const answer = await api('createProfile', '/profiles', { json: {} });
    expect(answer.status).toBe(201);
    const schema = JSON.parse(readFileSync(new URL('../../conformance/profile.schema.json', import.meta.url), 'utf8')) as object;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
    expect(answer.body.target).toBe(server.url);
    expect(answer.body.sandbox).toEqual({ url: `${server.url}/sandbox/v1`, token: TEST_ADMIN_TOKEN });
    expect(answer.body.auth).toEqual({ header: 'X-Api-Key', prefix: '' });
    expect(answer.body.feeds).toEqual({ minOrders: 120, minTrips: 120 });
  });

  it('gives keys that do what their names say', async () => {
    const { keys } = (await api('createProfile', '/profiles')).body;
    const full = await whoami(keys.full);
    expect(full.body.scopes.sort()).toEqual(['orders:read', 'orders:write', 'trips:read']);
    expect((await whoami(keys.ordersRead)).body.scopes).toEqual(['orders:read']);
    expect((await whoami(keys.tripsRead)).body.scopes).toEqual(['trips:read']);
    expect((await whoami(keys.noScopes)).body.scopes).toEqual([]);
    const other = await whoami(keys.otherTenant);
    expect(other.body.scopes.sort()).toEqual(['orders:read', 'orders:write', 'trips:read']);
    expect(other.body.tenantId).not.toBe(full.body.tenantId);
    expect((await whoami(keys.revoked)).status).toBe(401);
    const limited = await whoami(keys.rateLimited.key);
    expect(limited.headers.get('ratelimit-limit')).toBe('5');
    expect(limited.body.scopes.sort()).toEqual(['orders:read', 'orders:write', 'trips:read']);
    const suspended = await whoami(keys.suspendedTenant);
    expect(suspended.body.tenantId).not.toBe(full.body.tenantId);
    expect(suspended.body.tenantId).not.toBe(other.body.tenantId);
    const [anyOrder] = await wholeFeed(keys.suspendedTenant, 'orders');
    expect(anyOrder).toBeDefined();
    const write = await call(server.url, 'cancelOrder', `/api/v1/integration/orders/externalid/${encodeURIComponent(anyOrder!.externalId ?? 'none')}/cancel`, { method: 'POST', key: keys.suspendedTenant });
    expect(write.status).toBe(409);
    expect(write.body.type).toBe('tenants.tenant.suspended');
  });

  it('fills pools of 20 live orders that fit their names, disjoint, over feeds of every status and type', async () => {
    const { keys, orders: pools } = (await api('createProfile', '/profiles')).body as { keys: Record<string, string>; orders: Record<string, string[]> };
    const orders = await wholeFeed(keys['full']!, 'orders');
    const byExternalId = new Map(orders.map((order) => [order.externalId, order]));
    const pooled = new Set<string>();
    for (const [name, ids] of Object.entries(pools)) {
      expect(ids.length, name).toBeGreaterThanOrEqual(20);
      for (const id of ids) {
        expect(pooled.has(id), `${id} is in two pools`).toBe(false);
        pooled.add(id);
        if (name !== 'otherTenant') expect(byExternalId.has(id), `${name} ${id} is a live order of the main tenant`).toBe(true);
      }
    }
    const statusOf = (id: string) => byExternalId.get(id)!.status;
    expect(pools['cancellable']!.every((id) => ['New', 'InPlanning', 'Planned'].includes(statusOf(id)))).toBe(true);
    expect(pools['notCancellable']!.some((id) => ['New', 'InPlanning', 'Planned'].includes(statusOf(id)))).toBe(false);
    expect(pools['archivable']!.some((id) => ['Planned', 'InProgress'].includes(statusOf(id)))).toBe(false);
    const otherOrders = new Set((await wholeFeed(keys['otherTenant']!, 'orders')).map((order) => order.externalId));
    expect(pools['otherTenant']!.every((id) => otherOrders.has(id) && !byExternalId.has(id))).toBe(true);

    const outside = orders.filter((order) => !pooled.has(order.externalId ?? ''));
    expect(outside.length).toBeGreaterThanOrEqual(120);
    expect(new Set(outside.map((order) => order.status))).toEqual(new Set(orderStatuses));
    expect(new Set(outside.map((order) => order.type))).toEqual(new Set(orderTypes));
    const trips = await wholeFeed(keys['full']!, 'trips');
    expect(trips.length).toBeGreaterThanOrEqual(120);
    expect(new Set(trips.map((trip) => trip.status))).toEqual(new Set(tripStatuses));

    const cancel = (id: string) => call(server.url, 'cancelOrder', `/api/v1/integration/orders/externalid/${encodeURIComponent(id)}/cancel`, { method: 'POST', key: keys['full']! });
    expect((await cancel(pools['cancellable']![0]!)).status).toBe(200);
    expect((await cancel(pools['notCancellable']![0]!)).body.type).toBe('orders.status.illegal');
    expect((await cancel(pools['otherTenant']![0]!)).body.type).toBe('orders.notFound');
  });

  it('fills onTrip with Planned and InProgress orders of the main tenant, each on a trip of that status', async () => {
    const { keys, orders: pools } = (await api('createProfile', '/profiles')).body as { keys: Record<string, string>; orders: Record<string, string[]> };
    const full = keys['full']!;
    const tenantId = (await whoami(full)).body.tenantId as string;
    const byExternalId = new Map((await wholeFeed(full, 'orders')).map((order) => [order.externalId, order]));
    const tripStatus = new Map((await wholeFeed(full, 'trips')).map((trip) => [trip.id, trip.status]));
    const onTrip = pools['onTrip']!;
    expect(onTrip.length).toBeGreaterThanOrEqual(10);
    const statuses = onTrip.map((id) => byExternalId.get(id)?.status);
    expect(new Set(statuses)).toEqual(new Set(['Planned', 'InProgress']));
    expect(statuses.filter((status) => status === 'InProgress').length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((status) => status === 'Planned').length).toBeGreaterThanOrEqual(5);
    const expectedTrip = { Planned: 'Confirmed', InProgress: 'InProgress' } as Record<string, string>;
    for (const id of onTrip) {
      const order = byExternalId.get(id)!;
      const detail = await api('getOrder', `/tenants/${tenantId}/orders/${order.id}`);
      expect(detail.body.tripId, `${id} is on a trip`).not.toBeNull();
      expect(tripStatus.get(detail.body.tripId), `the trip of ${id} (${order.status})`).toBe(expectedTrip[order.status]);
    }
  });

  it("gives trips.otherTenant: every trip of the second tenant, none of the main tenant's", async () => {
    const { keys, trips } = (await api('createProfile', '/profiles')).body as { keys: Record<string, string>; trips: { otherTenant: string[] } };
    const otherTrips = (await wholeFeed(keys['otherTenant']!, 'trips')).map((trip) => trip.id);
    expect(trips.otherTenant.length).toBeGreaterThan(0);
    expect([...trips.otherTenant].sort()).toEqual([...otherTrips].sort());
    const mainTrips = new Set((await wholeFeed(keys['full']!, 'trips')).map((trip) => trip.id));
    expect(trips.otherTenant.filter((id) => mainTrips.has(id))).toEqual([]);
  });

  it('shares no tenant, key, order, trip or external id between two calls', async () => {
    const [first, second] = await Promise.all([api('createProfile', '/profiles'), api('createProfile', '/profiles')]);
    const keysOf = (profile: { keys: Record<string, unknown> }) =>
      Object.entries(profile.keys).map(([name, key]) => [name, typeof key === 'string' ? key : (key as { key: string }).key] as const);
    const a = keysOf(first!.body);
    const b = keysOf(second!.body).map(([, key]) => key);
    expect(a.filter(([, key]) => b.includes(key))).toEqual([]);
    // Every key but the revoked one tells its tenant.
    const tenantsOf = async (keys: (readonly [string, string])[]) =>
      new Set(await Promise.all(keys.filter(([name]) => name !== 'revoked').map(async ([, key]) => (await whoami(key)).body.tenantId as string)));
    const tenantsA = await tenantsOf(a);
    const tenantsB = await tenantsOf(keysOf(second!.body));
    expect(tenantsA.size).toBe(3);
    expect([...tenantsA].filter((id) => tenantsB.has(id))).toEqual([]);
    for (const key of ['full', 'otherTenant', 'suspendedTenant']) {
      const ordersA = await wholeFeed(first!.body.keys[key], 'orders');
      const ordersB = await wholeFeed(second!.body.keys[key], 'orders');
      const idsA = new Set(ordersA.flatMap((order) => [order.id, order.externalId]).filter((id) => id !== null));
      expect(ordersB.flatMap((order) => [order.id, order.externalId]).filter((id) => id !== null && idsA.has(id)), key).toEqual([]);
    }
    const pooledA = new Set(Object.values(first!.body.orders as Record<string, string[]>).flat());
    expect(Object.values(second!.body.orders as Record<string, string[]>).flat().filter((id) => pooledA.has(id))).toEqual([]);
    const tripsA = new Set(first!.body.trips.otherTenant as string[]);
    expect((second!.body.trips.otherTenant as string[]).filter((id) => tripsA.has(id))).toEqual([]);
  });
});
