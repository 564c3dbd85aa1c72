/**
 * Orders driven from New through a trip to every end status of their type, while a
 * consumer follows the order feed (cursor while more follow, then `since`, D4–D6) and sees
 * every step of every order, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryStore, orderIntake, type RunningServer, sandboxClient, type SandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let api: SandboxClient;

beforeAll(async () => {
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

const warehouseId = '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f';
const productId = '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d';
const line = (quantity: number, role: 'Delivery' | 'PickUp' = 'Delivery') => ({ warehouseId, productId, quantity, role });

/** One order to drive: its type, its lines and the outcome that ends it in `end`. */
interface Drive {
  end: string;
  type: 'Delivery' | 'Pickup' | 'Return' | 'Rebox';
  lines: ReturnType<typeof line>[];
  outcome: Record<string, unknown>;
}

const drives: Drive[] = [
  { end: 'FullyDelivered', type: 'Delivery', lines: [line(2), line(1)], outcome: { lines: [{ line: 0, delivered: 2 }, { line: 1, delivered: 1 }] } },
  { end: 'PartiallyDelivered', type: 'Delivery', lines: [line(2)], outcome: { lines: [{ line: 0, delivered: 1, returned: 1, rejected: 1, reasonCode: 'Damaged' }] } },
  { end: 'Returned', type: 'Delivery', lines: [line(2)], outcome: { status: 'Failed', reasonCode: 'CustomerAbsent' } },
  { end: 'Returned', type: 'Delivery', lines: [line(3)], outcome: { lines: [{ line: 0, returned: 2, rejected: 2, lost: 1, reasonCode: 'Refused' }] } },
  { end: 'Collected', type: 'Pickup', lines: [line(2)], outcome: { lines: [{ line: 0, collected: 2 }] } },
  { end: 'PartiallyCollected', type: 'Pickup', lines: [line(2)], outcome: { lines: [{ line: 0, collected: 1, notCollected: 1, reasonCode: 'NotReady' }] } },
  { end: 'NotCollected', type: 'Pickup', lines: [line(1)], outcome: { status: 'Failed', reasonCode: 'CustomerAbsent' } },
  { end: 'Collected', type: 'Return', lines: [line(1)], outcome: { lines: [{ line: 0, collected: 1 }] } },
  { end: 'PartiallyCollected', type: 'Return', lines: [line(3)], outcome: { lines: [{ line: 0, collected: 2, notCollected: 1, reasonCode: 'Missing' }] } },
  { end: 'NotCollected', type: 'Return', lines: [line(1)], outcome: { lines: [{ line: 0, notCollected: 1, reasonCode: 'Refused' }] } },
  { end: 'FullyDelivered', type: 'Rebox', lines: [line(1), line(1, 'PickUp')], outcome: { lines: [{ line: 0, delivered: 1 }, { line: 1, collected: 1 }] } },
  { end: 'PartiallyDelivered', type: 'Rebox', lines: [line(1), line(1, 'PickUp')], outcome: { lines: [{ line: 0, delivered: 1 }, { line: 1, notCollected: 1, reasonCode: 'OldItemMissing' }] } },
  { end: 'Returned', type: 'Rebox', lines: [line(1), line(1, 'PickUp')], outcome: { lines: [{ line: 0, returned: 1, reasonCode: 'Refused' }, { line: 1, notCollected: 1, reasonCode: 'Refused' }] } },
];

/** A feed consumer: follows `nextCursor` while more follow, then resumes from the last `updatedAtUtc` (D4, D6). */
function feedFollower(key: string, feed: 'orders' | 'trips') {
  const seen: { id: string; status: string; updatedAtUtc: string }[] = [];
  const delivered = new Set<string>();
  let since: string | null = null;
  let cursors = 0;
  return {
    seen,
    cursorsFollowed: () => cursors,
    /** Reads the feed to its end; returns what is new since the last poll. */
    async poll() {
      const fresh: typeof seen = [];
      let query = since === null ? '' : `&since=${encodeURIComponent(since)}`;
      for (;;) {
        const page = await call(server.url, feed === 'orders' ? 'orderFeed' : 'tripFeed', `/api/v1/integration/${feed}?limit=4${query}`, { key });
        expect(page.status).toBe(200);
        for (const item of page.body.items) {
          expect(since === null || item.updatedAtUtc >= since, 'the feed never goes backwards').toBe(true);
          since = item.updatedAtUtc;
          // Delivery is at least once (D4): dedupe on id and updatedAtUtc.
          if (delivered.has(`${item.id} ${item.updatedAtUtc}`)) continue;
          delivered.add(`${item.id} ${item.updatedAtUtc}`);
          fresh.push({ id: item.id, status: item.status, updatedAtUtc: item.updatedAtUtc });
        }
        if (page.body.nextCursor === null) break;
        cursors += 1;
        query = `&cursor=${encodeURIComponent(page.body.nextCursor)}`;
      }
      seen.push(...fresh);
      return fresh;
    },
  };
}

describe('an order from New through a trip to its end status', () => {
  it('reaches every end status of every type, and the feed follower sees each step in order', async () => {
    const tenantId = (await api('createTenant', '/tenants', { json: { name: 'Scenario', country: 'NL' } })).body.id;
    const base = `/tenants/${tenantId}`;
    const key = (await api('createApiKey', `${base}/keys`, { json: { name: 'feeds', scopes: ['orders:read', 'trips:read'] } })).body.secret;
    const orders = feedFollower(key, 'orders');
    const trips = feedFollower(key, 'trips');
    const related = (await api('createOrder', `${base}/orders`, { json: orderIntake('SCN-RELATED') })).body.id;
    await orders.poll();

    const ids: string[] = [];
    for (const [i, drive] of drives.entries()) {
      const intake = { externalId: `SCN-${i}`, type: drive.type, lines: drive.lines, ...(drive.type === 'Return' ? { relatedToOrderId: related } : {}) };
      const created = await api('createOrder', `${base}/orders`, { json: intake });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ status: 'New', type: drive.type, tripId: null });
      ids.push(created.body.id);
    }
    const statusesSeen = () => new Map(ids.map((id) => [id, orders.seen.filter((item) => item.id === id).map((item) => item.status)]));
    expect((await orders.poll()).map((item) => item.id)).toEqual(ids);

    const built = await api('buildTrip', `${base}/trips`, { json: { orderIds: ids } });
    expect(built.status).toBe(201);
    expect(built.body).toMatchObject({ status: 'Confirmed', stopCount: ids.length, warehouseId });
    const trip = `${base}/trips/${built.body.id}`;
    expect((await orders.poll()).map((item) => item.status)).toEqual(ids.map(() => 'Planned'));
    expect((await trips.poll()).map((item) => item.status)).toEqual(['Confirmed']);

    expect((await api('startTrip', `${trip}/start`)).body.status).toBe('InProgress');
    expect((await orders.poll()).map((item) => item.status)).toEqual(ids.map(() => 'InProgress'));
    expect((await trips.poll()).map((item) => item.status)).toEqual(['InProgress']);

    for (const [i, drive] of drives.entries()) {
      const recorded = await api('recordStopOutcome', `${trip}/stops/${i}/outcome`, { json: drive.outcome });
      expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
      expect(recorded.body.stops[i].status).toBe(drive.outcome['status'] ?? 'Completed');
      expect((await orders.poll()).map((item) => [item.id, item.status]), drive.end).toEqual([[ids[i], drive.end]]);
      // Each outcome changes the trip too (D7), so trip consumers see its progress.
      expect((await trips.poll()).map((item) => item.status)).toEqual(['InProgress']);
    }

    const completed = await api('completeTrip', `${trip}/complete`);
    expect(completed.body.status).toBe('Completed');
    expect(await orders.poll()).toEqual([]);
    expect((await trips.poll()).map((item) => item.status)).toEqual(['Completed']);

    for (const [i, drive] of drives.entries()) {
      expect(statusesSeen().get(ids[i]!), `${drive.type} → ${drive.end}`).toEqual(['New', 'Planned', 'InProgress', drive.end]);
      expect((await api('getOrder', `${base}/orders/${ids[i]}`)).body.status).toBe(drive.end);
    }
    expect(orders.cursorsFollowed()).toBeGreaterThan(3);
    const stamps = orders.seen.map((item) => item.updatedAtUtc);
    expect([...stamps].sort()).toEqual(stamps);
  });

  it('starts a Confirmed trip with its first outcome, and keeps the history of every step', async () => {
    const tenantId = (await api('createTenant', '/tenants', { json: { country: 'BE' } })).body.id;
    const base = `/tenants/${tenantId}`;
    const first = (await api('createOrder', `${base}/orders`, { json: orderIntake('ONE') })).body.id;
    const second = (await api('createOrder', `${base}/orders`, { json: orderIntake('TWO') })).body.id;
    const trip = `${base}/trips/${(await api('buildTrip', `${base}/trips`, { json: { orderIds: [first, second] } })).body.id}`;
    const recorded = await api('recordStopOutcome', `${trip}/stops/1/outcome`, { json: { lines: [{ line: 0, delivered: 2 }] } });
    expect(recorded.body.status).toBe('InProgress');
    expect(recorded.body.stops.map((stop: { status: string }) => stop.status)).toEqual(['Open', 'Completed']);
    expect((await api('getOrder', `${base}/orders/${first}`)).body.status).toBe('InProgress');
    const history = await api('orderHistory', `${base}/orders/${second}/history`);
    expect(history.body.items.map((entry: { kind: string; data: { to?: string } }) => `${entry.kind}${entry.data.to ? `:${entry.data.to}` : ''}`)).toEqual([
      'created',
      'status:Planned',
      'status:InProgress',
      'outcome',
      'status:FullyDelivered',
    ]);
  });

  it('sends the orders of open stops back to InPlanning when the trip is cancelled, so they can be planned again (D43)', async () => {
    const tenantId = (await api('createTenant', '/tenants', { json: { country: 'DE' } })).body.id;
    const base = `/tenants/${tenantId}`;
    const done = (await api('createOrder', `${base}/orders`, { json: orderIntake('DONE') })).body.id;
    const open = (await api('createOrder', `${base}/orders`, { json: orderIntake('OPEN') })).body.id;
    const trip = `${base}/trips/${(await api('buildTrip', `${base}/trips`, { json: { orderIds: [done, open] } })).body.id}`;
    await api('startTrip', `${trip}/start`);
    await api('recordStopOutcome', `${trip}/stops/0/outcome`, { json: { lines: [{ line: 0, delivered: 2 }] } });
    const cancelled = await api('cancelTrip', `${trip}/cancel`, { json: { reasonCode: 'VehicleBreakdown' } });
    expect(cancelled.body.status).toBe('Cancelled');
    expect(cancelled.body.stops.map((stop: { status: string }) => stop.status)).toEqual(['Completed', 'Cancelled']);
    expect((await api('getOrder', `${base}/orders/${done}`)).body).toMatchObject({ status: 'FullyDelivered' });
    expect((await api('getOrder', `${base}/orders/${open}`)).body).toMatchObject({ status: 'InPlanning', tripId: null });
    const again = await api('buildTrip', `${base}/trips`, { json: { orderIds: [open] } });
    expect(again.status).toBe(201);
    expect((await api('buildTrip', `${base}/trips`, { json: { orderIds: [done] } })).body.type).toBe('planning.order_not_plannable');
  });

  it('treats a stop whose order was cancelled through the integration API as removed', async () => {
    const tenantId = (await api('createTenant', '/tenants', { json: { country: 'FR' } })).body.id;
    const base = `/tenants/${tenantId}`;
    const key = (await api('createApiKey', `${base}/keys`, { json: { name: 'w', scopes: ['orders:write'] } })).body.secret;
    const stay = (await api('createOrder', `${base}/orders`, { json: orderIntake('STAY') })).body.id;
    const leave = (await api('createOrder', `${base}/orders`, { json: orderIntake('LEAVE') })).body.id;
    const trip = `${base}/trips/${(await api('buildTrip', `${base}/trips`, { json: { orderIds: [stay, leave] } })).body.id}`;
    expect((await call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/LEAVE/cancel', { method: 'POST', key })).status).toBe(200);
    const detail = await api('getTrip', trip);
    expect(detail.body.stops.map((stop: { status: string }) => stop.status)).toEqual(['Open', 'Removed']);
    expect((await api('recordStopOutcome', `${trip}/stops/1/outcome`, { json: { status: 'Failed', reasonCode: 'Gone' } })).body.type).toBe('trips.stop.illegalTransition');
    await api('recordStopOutcome', `${trip}/stops/0/outcome`, { json: { lines: [{ line: 0, delivered: 2 }] } });
    expect((await api('completeTrip', `${trip}/complete`)).body.status).toBe('Completed');
  });
});
