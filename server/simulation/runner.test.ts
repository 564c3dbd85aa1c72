/** The living feed over a store (D53, D54, D93): determinism, pace, stamps, unknown statuses and members, tenants, stop, restart and reset. */
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../store/index.ts';
import { memoryStore } from '../../dev/testing/sandbox.ts';
import { statement } from '../store/sql.ts';
import { UNLISTED_STATUS, UNLISTED_TRIP_STATUS } from './changes.ts';
import { simulationOf } from './runner.ts';
import { restartableDatabase } from '../../dev/testing/test-store.ts';

const WALL = Date.parse('2026-11-20T08:00:00.000Z');
const NINE = Date.parse('2026-11-20T09:00:00.000Z');
const HOUR = 3_600_000;
const TENANT = '6f1c2d3e-4a5b-4c6d-8e7f-101112131415';
const OTHER = '7a2b3c4d-5e6f-4a7b-8c9d-202122232425';

const opened: SqliteStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) {
    simulationOf(store).close();
    await store.close();
  }
});

/** A store whose wall clock stands still, with tenant `tenantId` frozen at nine. */
async function fresh(tenantId = TENANT, given?: SqliteStore) {
  const store = given ?? (await memoryStore(() => WALL));
  opened.push(store);
  await store.tenants.create({ name: 'Living feed', country: 'NL', id: tenantId });
  await store.clocks.set(tenantId, 'frozen', NINE);
  return { store, tenantId, sim: simulationOf(store) };
}

const ALL = { position: null, since: null, statuses: null, limit: 1_000_000 };

/** The tenant's order and trip feeds, as the API's JSON text. */
const feeds = async (store: SqliteStore, tenantId: string) => ({
  orders: (await store.orders.feedPage(tenantId, ALL)).items.join('\n'),
  trips: (await store.trips.feedPage(tenantId, ALL)).items.join('\n'),
});

/** The rows `text` answers in `store`'s database, on either engine. */
const rows = <T>(store: SqliteStore, text: string, args: unknown[] = []) => store.sql.all<T>(statement(text), args);

/** Every stamp a change left, in time order: each order's history and each trip's last change (a completion touches only the trip). */
async function changeStamps(store: SqliteStore, tenantId: string): Promise<string[]> {
  const stamps = await rows<{ at: string }>(
    store,
    `SELECT h.at FROM order_history h JOIN orders o ON o.id = h.order_id WHERE o.tenant_id = ?
     UNION SELECT updated_at FROM trips WHERE tenant_id = ? ORDER BY 1`,
    [tenantId, tenantId],
  );
  return stamps.map((row) => row.at);
}

/** Five standard deviations of a Poisson count with mean `mean`: a miss is a bug, not bad luck. */
const spread = (mean: number) => 5 * Math.sqrt(mean);

describe('the simulation over a frozen clock', () => {
  it('makes nothing until the clock is advanced, then the hour of changes, about N×60, spread over the hour and each with a stamp of its own', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 60, seed: 7 });
    expect(await sim.catchUp(tenantId)).toBe(0);
    expect(await changeStamps(store, tenantId)).toEqual([]);

    const { changes, clock } = await store.clocks.advance(tenantId, HOUR);
    expect(clock.nowUtc).toBe('2026-11-20T10:00:00.000Z');
    expect(Math.abs(changes - 3600)).toBeLessThan(spread(3600));
    expect((await sim.view(tenantId)).changes).toBe(changes);
    const stamps = await changeStamps(store, tenantId);
    // One change, one stamp: no two changes share one, so the count of stamps is the count of changes.
    expect(stamps).toHaveLength(changes);
    // Spread over the hour: the first within a few mean gaps of its start, the last near its end.
    expect(Date.parse(stamps[0]!) - NINE).toBeLessThan(10_000);
    expect(NINE + HOUR - Date.parse(stamps[stamps.length - 1]!)).toBeLessThan(10_000);
    expect(stamps.every((stamp) => Date.parse(stamp) > NINE && Date.parse(stamp) <= NINE + HOUR)).toBe(true);
    // Each half hour has about half of them.
    const firstHalf = stamps.filter((stamp) => Date.parse(stamp) <= NINE + HOUR / 2).length;
    expect(Math.abs(firstHalf - changes / 2)).toBeLessThan(spread(changes / 2));
  });

  it('keeps the pace of its setting at 1, 10 and 120 changes a minute', async () => {
    for (const changesPerMinute of [1, 10, 120]) {
      const { store, tenantId, sim } = await fresh(TENANT, await memoryStore(() => WALL));
      await sim.start(tenantId, { changesPerMinute, seed: 11 });
      const { changes } = await store.clocks.advance(tenantId, HOUR);
      expect(Math.abs(changes - changesPerMinute * 60)).toBeLessThan(spread(changesPerMinute * 60));
      expect(await changeStamps(store, tenantId)).toHaveLength(changes);
    }
  });

  it('stamps its changes in the order they were made, and takes in, plans, starts, delivers, fails, completes and cancels', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 30, seed: 3 });
    await store.clocks.advance(tenantId, 2 * HOUR);
    const history = await rows<{ at: string; kind: string; data: string }>(store, 'SELECT at, kind, data FROM order_history ORDER BY seq');
    // Written one after the other, so never a stamp older than the one before (D7).
    expect(history.every((entry, i) => i === 0 || entry.at >= history[i - 1]!.at)).toBe(true);
    const orderStatuses = new Set((await rows<{ status: string }>(store, 'SELECT DISTINCT status FROM orders')).map((row) => row.status));
    for (const status of ['FullyDelivered', 'PartiallyDelivered', 'Returned', 'Collected', 'Cancelled', 'Planned']) expect(orderStatuses).toContain(status);
    const tripStatuses = new Set((await rows<{ status: string }>(store, 'SELECT DISTINCT status FROM trips')).map((row) => row.status));
    for (const status of ['Completed', 'Cancelled']) expect(tripStatuses).toContain(status);
    expect(new Set(history.map((entry) => entry.kind))).toEqual(new Set(['created', 'status', 'outcome', 'cancel']));
  });
});

describe('the same seed, the same feed', () => {
  it('gives byte-identical order and trip feeds in two fresh sandboxes; another seed gives another feed', async () => {
    const run = async (seed: number) => {
      const { store, tenantId, sim } = await fresh(TENANT, await memoryStore(() => WALL));
      await sim.start(tenantId, { changesPerMinute: 60, seed, unknownStatuses: true });
      await store.clocks.advance(tenantId, HOUR);
      return await feeds(store, tenantId);
    };
    const first = await run(7);
    const second = await run(7);
    expect(first.orders.length).toBeGreaterThan(1000);
    expect(first.trips.length).toBeGreaterThan(1000);
    expect(second.orders).toBe(first.orders);
    expect(second.trips).toBe(first.trips);
    const other = await run(8);
    expect(other.orders).not.toBe(first.orders);
    expect(other.trips).not.toBe(first.trips);
  });

  it('gives the same feed whether the hour is advanced at once or minute by minute', async () => {
    const once = await fresh(TENANT, await memoryStore(() => WALL));
    await once.sim.start(TENANT, { changesPerMinute: 20, seed: 5 });
    await once.store.clocks.advance(TENANT, HOUR);
    const steps = await fresh(TENANT, await memoryStore(() => WALL));
    await steps.sim.start(TENANT, { changesPerMinute: 20, seed: 5 });
    for (let minute = 0; minute < 60; minute++) await steps.store.clocks.advance(TENANT, 60_000);
    expect(await feeds(steps.store, TENANT)).toEqual(await feeds(once.store, TENANT));
  });

  it('resumes after a restart where it stopped: the feed is the one an unbroken run gives', async () => {
    const database = await restartableDatabase();
    try {
      const before = await fresh(TENANT, await database.open(() => WALL));
      await before.sim.start(TENANT, { changesPerMinute: 30, seed: 9 });
      await before.store.clocks.advance(TENANT, HOUR / 2);
      simulationOf(before.store).close();
      await before.store.close();
      opened.splice(opened.indexOf(before.store), 1);

      const after = await database.open(() => WALL);
      opened.push(after);
      const resumed = simulationOf(after);
      expect(await resumed.view(TENANT)).toMatchObject({ running: true, changesPerMinute: 30, seed: 9 });
      await after.clocks.advance(TENANT, HOUR / 2);

      const unbroken = await fresh(TENANT, await memoryStore(() => WALL));
      await unbroken.sim.start(TENANT, { changesPerMinute: 30, seed: 9 });
      await unbroken.store.clocks.advance(TENANT, HOUR);
      expect(await feeds(after, TENANT)).toEqual(await feeds(unbroken.store, TENANT));
      expect((await resumed.view(TENANT)).changes).toBe((await unbroken.sim.view(TENANT)).changes);
    } finally {
      database.remove();
    }
  });
});

describe('unknown statuses (D54)', () => {
  it('passes some orders through OnHold, never plans them while held, and moves each on to a listed status', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 30, seed: 21, unknownStatuses: true });
    await store.clocks.advance(tenantId, 3 * HOUR);
    const moves = (await rows<{ order_id: string; at: string; data: string }>(store, "SELECT order_id, at, data FROM order_history WHERE kind = 'status' ORDER BY seq"))
      .map((row) => ({ orderId: row.order_id, at: Date.parse(row.at), ...(JSON.parse(row.data) as { from: string; to: string }) }));
    const held = moves.filter((move) => move.to === UNLISTED_STATUS);
    expect(held.length).toBeGreaterThan(10);
    // Out of OnHold only to a listed status from which it can be planned.
    expect(new Set(moves.filter((move) => move.from === UNLISTED_STATUS).map((move) => move.to))).toEqual(new Set(['InPlanning']));
    for (const hold of held.filter((move) => move.at < NINE + 2.5 * HOUR)) {
      const next = moves.find((move) => move.orderId === hold.orderId && move.at > hold.at);
      expect(next).toMatchObject({ from: UNLISTED_STATUS, to: 'InPlanning' });
    }
  });

  it('never shows OnHold to a tenant whose simulation did not ask for it', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 30, seed: 21 });
    await store.clocks.advance(tenantId, 3 * HOUR);
    expect(await rows(store, "SELECT count(*) AS n FROM order_history WHERE data LIKE '%OnHold%'")).toEqual([{ n: 0 }]);
  });
});

describe('what a later version may serve (D93)', () => {
  it('gives every order it takes in a deliveryWindow as its last member, a whole hour one to three days after its creation, two to four hours long', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 30, seed: 21, unknownMembers: true, unknownTripStatuses: true });
    await store.clocks.advance(tenantId, 3 * HOUR);
    const orders = (await store.orders.feedPage(tenantId, ALL)).items;
    expect(orders.length).toBeGreaterThan(50);
    for (const text of orders) {
      const order = JSON.parse(text) as { createdAtUtc: string; deliveryWindow: { fromUtc: string; toUtc: string } };
      expect(Object.keys(order).at(-1)).toBe('deliveryWindow');
      const [created, from, to] = [order.createdAtUtc, order.deliveryWindow.fromUtc, order.deliveryWindow.toUtc].map(Date.parse) as [number, number, number];
      expect(from - created).toBeGreaterThan(0);
      expect(from - created).toBeLessThan(4 * 24 * HOUR);
      expect([2, 3, 4]).toContain((to - from) / HOUR);
      expect(new Date(from).getUTCMinutes()).toBe(0);
    }
    const trips = (await store.trips.feedPage(tenantId, ALL)).items.map((text) => JSON.parse(text) as { status: string });
    for (const trip of trips) expect(['Confirmed', 'InProgress', 'Completed', 'Cancelled', UNLISTED_TRIP_STATUS]).toContain(trip.status);
  });

  it('holds some Confirmed trips, their orders staying Planned on them, and confirms each again', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 30, seed: 21, unknownTripStatuses: true });
    const heldIds = new Set<string>();
    for (let minute = 0; minute < 180; minute += 1) {
      await store.clocks.advance(tenantId, 60_000);
      const now = await rows<{ id: string }>(store, `SELECT id FROM trips WHERE tenant_id = ? AND status = '${UNLISTED_TRIP_STATUS}'`, [tenantId]);
      for (const { id } of now) {
        heldIds.add(id);
        expect(await rows(store, "SELECT status FROM orders WHERE trip_id = ? AND status <> 'Planned'", [id])).toEqual([]);
      }
    }
    expect(heldIds.size).toBeGreaterThan(3);
    // Released: a trip once held and no longer is Confirmed again, or moved on from there.
    const after = await rows<{ id: string; status: string }>(store, `SELECT id, status FROM trips WHERE tenant_id = ?`, [tenantId]);
    const released = after.filter((trip) => heldIds.has(trip.id) && trip.status !== UNLISTED_TRIP_STATUS);
    expect(released.length).toBeGreaterThan(0);
    for (const trip of released) expect(['Confirmed', 'InProgress', 'Completed', 'Cancelled']).toContain(trip.status);
  });

  it('serves neither to a tenant whose simulation did not ask, and the same feeds for the same seed', async () => {
    const plain = await fresh();
    await plain.sim.start(plain.tenantId, { changesPerMinute: 30, seed: 21, unknownStatuses: true });
    await plain.store.clocks.advance(plain.tenantId, 3 * HOUR);
    expect(await rows(plain.store, 'SELECT count(*) AS n FROM orders WHERE delivery_window IS NOT NULL')).toEqual([{ n: 0 }]);
    expect(await rows(plain.store, `SELECT count(*) AS n FROM trips WHERE status = '${UNLISTED_TRIP_STATUS}'`)).toEqual([{ n: 0 }]);
    const run = async () => {
      const { store, tenantId, sim } = await fresh(TENANT, await memoryStore(() => WALL));
      await sim.start(tenantId, { changesPerMinute: 60, seed: 7, unknownMembers: true, unknownTripStatuses: true });
      await store.clocks.advance(tenantId, HOUR);
      return await feeds(store, tenantId);
    };
    expect(await run()).toEqual(await run());
  });
});

describe('the simulation and the tenant', () => {
  it('writes nothing while the tenant is Suspended, and takes up its pace again once it is Active', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 60, seed: 7 });
    await store.tenants.setState(tenantId, 'Suspended');
    expect((await store.clocks.advance(tenantId, HOUR)).changes).toBe(0);
    expect(await changeStamps(store, tenantId)).toEqual([]);
    await store.tenants.setState(tenantId, 'Active');
    const { changes } = await store.clocks.advance(tenantId, HOUR);
    expect(Math.abs(changes - 3600)).toBeLessThan(spread(3600));
    // The suspended hour was skipped, not made up for afterwards.
    expect(Date.parse((await changeStamps(store, tenantId))[0]!)).toBeGreaterThan(NINE + HOUR);
  });

  it('never writes into another tenant, and another tenant with the same seed gets ids of its own', async () => {
    const { store, tenantId, sim } = await fresh();
    await fresh(OTHER, store);
    await sim.start(tenantId, { changesPerMinute: 60, seed: 7 });
    await store.clocks.advance(tenantId, HOUR);
    await store.clocks.advance(OTHER, HOUR);
    expect(await changeStamps(store, OTHER)).toEqual([]);
    expect(await rows(store, 'SELECT clock FROM tenants WHERE id = ?', [OTHER])).toEqual([{ clock: 0 }]);

    await sim.start(OTHER, { changesPerMinute: 60, seed: 7 });
    await store.clocks.advance(OTHER, HOUR);
    const ids = async (id: string) => new Set((await rows<{ id: string }>(store, 'SELECT id FROM orders WHERE tenant_id = ?', [id])).map((row) => row.id));
    const mine = await ids(tenantId);
    expect([...(await ids(OTHER))].some((id) => mine.has(id))).toBe(false);
  });

  it('stops and keeps what it wrote; a restart with the same seed makes new ids and tends the orders it left', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 60, seed: 7 });
    const { changes } = await store.clocks.advance(tenantId, HOUR / 4);
    const written = await feeds(store, tenantId);
    expect(await sim.stop(tenantId)).toMatchObject({ running: false, changes, nextChangeAtUtc: null, seed: 7 });
    expect((await store.clocks.advance(tenantId, HOUR)).changes).toBe(0);
    expect(await feeds(store, tenantId)).toEqual(written);

    await sim.start(tenantId, { changesPerMinute: 60, seed: 7 });
    expect((await store.clocks.advance(tenantId, HOUR / 4)).changes).toBeGreaterThan(0);
    const left = (await rows<{ n: number }>(store, "SELECT count(*) AS n FROM orders WHERE status IN ('New', 'InPlanning', 'Planned', 'InProgress') AND created_at < '2026-11-20T09:16'"))[0]!.n;
    expect(left).toBeLessThan(15);
  });

  it("goes on when a client cancels or archives the orders it tends, and never touches the client's own orders", async () => {
    const { store, tenantId, sim } = await fresh();
    const own = await store.intake.create(tenantId, { externalId: 'SHOP-1', type: 'Delivery', lines: [{ warehouseId: TENANT, productId: TENANT, quantity: 1 }] });
    await sim.start(tenantId, { changesPerMinute: 60, seed: 7 });
    await store.clocks.advance(tenantId, HOUR / 4);
    const waiting = (await rows<{ external_id: string }>(store, "SELECT external_id FROM orders WHERE status IN ('New', 'InPlanning') AND external_id LIKE 'SIM-%'")).map((row) => row.external_id);
    expect(waiting.length).toBeGreaterThan(3);
    for (const externalId of waiting.slice(0, 3)) expect((await store.orders.cancel(tenantId, externalId, null)).ok).toBe(true);
    for (const externalId of waiting.slice(3)) expect((await store.orders.archive(tenantId, externalId)).ok).toBe(true);
    const { changes } = await store.clocks.advance(tenantId, HOUR / 4);
    expect(Math.abs(changes - 900)).toBeLessThan(spread(900));
    expect(await rows(store, 'SELECT status, updated_at FROM orders WHERE id = ?', [own])).toEqual([{
      status: 'New',
      updated_at: '2026-11-20T09:00:00.000Z',
    }]);
  });

  it('refuses before the clock moves an advance that would make more than 100,000 changes', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 600, seed: 7 });
    await expect(store.clocks.advance(tenantId, 24 * HOUR)).rejects.toThrow(/more than 100,000 changes/);
    expect(store.clocks.view(tenantId).nowUtc).toBe('2026-11-20T09:00:00.000Z');
    expect((await sim.view(tenantId)).changes).toBe(0);
    // 166 minutes at 600 a minute is below the cap; stopped, any advance goes.
    await sim.stop(tenantId);
    expect((await store.clocks.advance(tenantId, 24 * HOUR)).changes).toBe(0);
  });

  it('ends with a reset: a new tenant of the same id starts with no simulation', async () => {
    const { store, tenantId, sim } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 60, seed: 7 });
    await store.clocks.advance(tenantId, HOUR / 60);
    await store.reset();
    await fresh(tenantId, store);
    expect(await sim.view(tenantId)).toMatchObject({ running: false, changesPerMinute: null, changes: 0 });
    expect((await store.clocks.advance(tenantId, HOUR)).changes).toBe(0);
    expect(await changeStamps(store, tenantId)).toEqual([]);
  });
});

describe('the simulation over a running clock', () => {
  it('makes the changes as they fall due, from its timer, at the pace of the tenant clock', async () => {
    let wall = WALL;
    const store = await memoryStore(() => wall);
    opened.push(store);
    const { id: tenantId } = await store.tenants.create({ name: 'Running', country: 'NL', id: TENANT });
    const sim = simulationOf(store);
    await sim.start(tenantId, { changesPerMinute: 600, seed: 4 });
    wall += 60_000;
    // The timer looks every 250 ms; nobody calls catchUp here.
    await expect.poll(async () => Date.parse((await sim.view(tenantId)).nextChangeAtUtc!), { timeout: 30_000, interval: 50 }).toBeGreaterThan(wall);
    const changes = (await sim.view(tenantId)).changes;
    expect(Math.abs(changes - 600)).toBeLessThan(spread(600));
    const stamps = await changeStamps(store, tenantId);
    expect(stamps).toHaveLength(changes);
    expect(stamps.every((stamp) => Date.parse(stamp) > WALL && Date.parse(stamp) <= wall)).toBe(true);
  });

  it('skips, rather than writes at once, more than 100,000 changes owed after a long stop of the server', async () => {
    let wall = WALL;
    const store = await memoryStore(() => wall);
    opened.push(store);
    const { id: tenantId } = await store.tenants.create({ name: 'Asleep', country: 'NL', id: TENANT });
    const sim = simulationOf(store);
    await sim.start(tenantId, { changesPerMinute: 600, seed: 4 });
    wall += 200 * 60_000;
    expect(await sim.catchUp(tenantId)).toBe(0);
    expect(Date.parse((await sim.view(tenantId)).nextChangeAtUtc!)).toBeGreaterThan(wall);
    wall += 60_000;
    expect(Math.abs((await sim.catchUp(tenantId)) - 600)).toBeLessThan(spread(600));
  });

  it('does nothing from its timer while the clock is frozen', async () => {
    const { sim, tenantId } = await fresh();
    await sim.start(tenantId, { changesPerMinute: 600, seed: 4 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await sim.view(tenantId)).changes).toBe(0);
  });
});
