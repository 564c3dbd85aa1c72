import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { portable } from '../../../server/store/dialect.ts';
import { makeFeedPage, ORDER_JSON, TRIP_JSON, type FeedQuery, type FeedRows } from '../../../server/store/feed-sql.ts';
import type { SqliteStore, Store } from '../../../server/store/index.ts';
import { type ReferenceTarget, runChecks, startReference } from '../../../dev/testing/conformance/reference.ts';
import type { Check } from '../../engine/types/check.ts';
import type { CheckResult } from '../../engine/types/report.ts';
import { feedsChecks } from './index.ts';

const ids = feedsChecks.map((check) => check.id);

let reference: ReferenceTarget | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

/** The ids of the checks that ended `outcome`. */
function withOutcome(byId: Map<string, CheckResult>, outcome: CheckResult['outcome']): string[] {
  return [...byId.values()].filter((result) => result.outcome === outcome).map((result) => result.id);
}

/**
 * A check that keeps paying, cancelling and archiving orders of its own pools while the feeds
 * checks run, as the other families do in a full run: those orders move to the feed's tail or
 * leave it.
 */
function concurrentWriter(name: string, rounds: number): Check {
  return {
    id: `noise.${name}`,
    family: 'noise',
    title: 'writes orders of its own pools while other checks read the feeds',
    verifies: ['int.service.json'],
    fix: 'answer JSON (int.service.json)',
    requires: ['orders:payable:6', 'orders:cancellable:6', 'orders:archivable:6'],
    async run(ctx) {
      const [payable, cancellable, archivable] = [ctx.orders('payable'), ctx.orders('cancellable'), ctx.orders('archivable')];
      for (let round = 0; round < rounds; round += 1) {
        const at = (list: readonly string[]) => encodeURIComponent(list[round % list.length]!);
        const path = `/api/v1/integration/orders/externalid/`;
        await ctx.http.request({ method: 'POST', path: `${path}${at(payable)}/payment`, body: { paymentId: crypto.randomUUID(), amount: 1, currency: 'EUR' } });
        if (round < cancellable.length) await ctx.http.request({ method: 'POST', path: `${path}${at(cancellable)}/cancel`, body: {} });
        if (round < archivable.length) await ctx.http.request({ method: 'DELETE', path: `${path}${at(archivable)}` });
        await delay(10);
      }
    },
  };
}

/** Runs the family against the reference built with `wrapStore`. */
async function runBroken(wrapStore: (store: SqliteStore) => SqliteStore) {
  reference = await startReference({ wrapStore });
  return runChecks(feedsChecks, reference.profile);
}

/** A store whose order and trip feed pages come from `orders` and `trips` (each given the original). */
function wrapFeeds(override: { orders?: (original: SqliteStore['orders']['feedPage'], store: SqliteStore) => SqliteStore['orders']['feedPage']; trips?: (original: SqliteStore['trips']['feedPage'], store: SqliteStore) => SqliteStore['trips']['feedPage'] }) {
  return (store: SqliteStore): SqliteStore => ({
    ...store,
    orders: { ...store.orders, ...(override.orders ? { feedPage: override.orders(store.orders.feedPage, store) } : {}) },
    trips: { ...store.trips, ...(override.trips ? { feedPage: override.trips(store.trips.feedPage, store) } : {}) },
  });
}

/** Both feeds with the same change to the query they are asked. */
function bothFeedsQuery(change: (query: FeedQuery) => FeedQuery) {
  const wrap = (original: (tenantId: string, query: FeedQuery) => Promise<FeedRows>) => (tenantId: string, query: FeedQuery) => original(tenantId, change(query));
  return wrapFeeds({ orders: wrap, trips: wrap });
}

/** Both feeds with the same change to the page they answer (given the query). */
function bothFeedsRows(change: (rows: FeedRows, query: FeedQuery) => FeedRows) {
  const wrap = (original: (tenantId: string, query: FeedQuery) => Promise<FeedRows>) => async (tenantId: string, query: FeedQuery) => change(await original(tenantId, query), query);
  return wrapFeeds({ orders: wrap, trips: wrap });
}

/** A store whose order write `name` keeps the order's updatedAtUtc as it was (the change does not move it). */
function writeWithoutBump(name: 'cancel' | 'attachPayment') {
  return (store: SqliteStore): SqliteStore => {
    const stampOf = store.db.prepare<[string, string], { id: string; updated_at: string }>('SELECT id, updated_at FROM orders WHERE tenant_id = ? AND external_id = ?');
    const restore = store.db.prepare('UPDATE orders SET updated_at = ? WHERE id = ?');
    const original = store.orders[name] as (tenantId: string, externalId: string, ...rest: never[]) => ReturnType<SqliteStore['orders']['cancel']>;
    const write = async (tenantId: string, externalId: string, ...rest: never[]) => {
      const before = stampOf.get(tenantId, externalId);
      const result = await original(tenantId, externalId, ...rest);
      if (before !== undefined) restore.run(before.updated_at, before.id);
      return result;
    };
    return { ...store, orders: { ...store.orders, [name]: write } };
  };
}

/** The order feed over every tenant's live orders (no tenant filter). */
const everyTenantsOrders = (store: SqliteStore) =>
  makeFeedPage(store.sql, { select: portable`SELECT o.updated_at, o.id, o.status, ${ORDER_JSON} AS json FROM orders o WHERE ? IS NOT NULL AND o.archived_at IS NULL AND (o.updated_at, o.id) > (?, ?)`, orderBy: 'o.updated_at, o.id', statusColumn: 'o.status' });

/** The trip feed over every tenant's trips. */
const everyTenantsTrips = (store: SqliteStore) =>
  makeFeedPage(store.sql, { select: portable`SELECT t.updated_at, t.id, t.status, ${TRIP_JSON} AS json FROM trips t WHERE ? IS NOT NULL AND (t.updated_at, t.id) > (?, ?)`, orderBy: 't.updated_at, t.id', statusColumn: 't.status' });

/** The order feed with archived orders left in. */
const withArchivedOrders = (store: SqliteStore) =>
  makeFeedPage(store.sql, { select: portable`SELECT o.updated_at, o.id, o.status, ${ORDER_JSON} AS json FROM orders o WHERE o.tenant_id = ? AND (o.updated_at, o.id) > (?, ?)`, orderBy: 'o.updated_at, o.id', statusColumn: 'o.status' });

/** Both feeds served by `leaky` (given the store) for the queries `when` picks, else as they are. */
function leakingWhen(when: (query: FeedQuery) => boolean) {
  const wrap = (leaky: (store: SqliteStore) => (tenantId: string, query: FeedQuery) => Promise<FeedRows>) => (original: (tenantId: string, query: FeedQuery) => Promise<FeedRows>, store: SqliteStore) => {
    const served = leaky(store);
    return (tenantId: string, query: FeedQuery) => (when(query) ? served(tenantId, query) : original(tenantId, query));
  };
  return wrapFeeds({ orders: wrap(everyTenantsOrders), trips: wrap(everyTenantsTrips) });
}

/** A store in which orders of the reference's tenant A, by external id, took another type and status (seed-invalid data). */
function ordersRewritten(changes: Record<string, { type: string; status: string }>) {
  return (store: SqliteStore): SqliteStore => {
    const update = store.db.prepare('UPDATE orders SET type = ?, status = ? WHERE external_id = ?');
    for (const [externalId, { type, status }] of Object.entries(changes)) update.run(type, status, externalId);
    return store;
  };
}

/** Keyset on the stamp alone after a cursor (`updated_at > ?`): items sharing the last item's stamp are skipped. `since` stays inclusive. */
const tiesSkipped = (alias: 'o' | 't') =>
  `AND (${alias}.updated_at, 1) > (?, CASE WHEN ? = '' THEN 0 ELSE 1 END)`;

describe('feeds checks against the reference', () => {
  it('pass, while other checks pay, cancel and archive orders at the same time', async () => {
    reference = await startReference();
    const checks = [concurrentWriter('first', 40), ...feedsChecks.slice(0, 12), concurrentWriter('second', 40), ...feedsChecks.slice(12)];
    const { byId, report } = await runChecks(checks, reference.profile);
    expect(ids.map((id) => [id, byId.get(id)?.outcome, byId.get(id)?.reason, byId.get(id)?.findings])).toEqual(ids.map((id) => [id, 'pass', undefined, []]));
  });

  it('pass at concurrency 8 too', async () => {
    reference = await startReference();
    const { byId } = await runChecks([concurrentWriter('first', 30), ...feedsChecks], reference.profile, { concurrency: 8, seed: 7 });
    expect(withOutcome(byId, 'pass').sort()).toEqual([...ids, 'noise.first'].sort());
  });

  it('skip what the profile cannot support, rather than pass', async () => {
    reference = await startReference();
    const { feeds: _feeds, orders: _orders, ...rest } = reference.profile;
    const { byId } = await runChecks(feedsChecks, rest);
    expect(withOutcome(byId, 'skip').sort()).toEqual(
      [
        'feeds.orders.limit.default',
        'feeds.orders.limit.cap',
        'feeds.trips.limit.default',
        'feeds.trips.limit.cap',
        'feeds.orders.archived.hidden',
        'feeds.orders.follow.changes',
        'feeds.orders.follow.payment',
        // Nothing was archived in the run, so there is no page after an archive to look at.
        'feeds.orders.walks.archived',
      ].sort(),
    );
    expect(byId.get('feeds.orders.limit.default')?.reason).toBe('profile has no feeds.minOrders');
  });

  it('skip, rather than fail, when the pools name orders whose state does not allow the write', async () => {
    reference = await startReference();
    const pools = reference.profile.orders!;
    // Cancellable ids that cannot be cancelled, archivable ids on a trip, payable ids of another tenant.
    const orders = { ...pools, cancellable: pools.notCancellable!, archivable: pools.onTrip!, payable: pools.otherTenant! };
    const { byId } = await runChecks(feedsChecks, { ...reference.profile, orders });
    expect(withOutcome(byId, 'fail')).toEqual([]);
    expect(withOutcome(byId, 'skip').sort()).toEqual(['feeds.orders.archived.hidden', 'feeds.orders.follow.changes', 'feeds.orders.follow.payment', 'feeds.orders.walks.archived'].sort());
    expect(byId.get('feeds.orders.follow.changes')?.reason).toMatch(/^needs cancellable orders \(New, InPlanning or Planned, D11\) from profile orders\.cancellable; none of its ids given to this check qualifies \(EXT-\d+: (InProgress|FullyDelivered|Cancelled|Returned|Refused|Closed), /);
    expect(byId.get('feeds.orders.archived.hidden')?.reason).toMatch(/^needs an archivable order \(any status but Planned or InProgress, D12\) from profile orders\.archivable; .*\(EXT-\d+: (Planned|InProgress)\)$/);
    expect(byId.get('feeds.orders.follow.payment')?.reason).toMatch(/^needs live orders \(in the order feed\) from profile orders\.payable; .*OTHER-\d+: not in the feed/);
  });
});

describe('feeds checks against broken stores', () => {
  it.each<[string, (store: SqliteStore) => SqliteStore, string[]]>([
    ['an order feed that returns archived orders', wrapFeeds({ orders: (_original, store) => withArchivedOrders(store) }), ['feeds.orders.archived.hidden', 'feeds.orders.walks.archived']],
    // Small pages only: archived.hidden reads pages of 100.
    [
      'an order feed that returns archived orders on pages of fewer than 10',
      wrapFeeds({ orders: (original, store) => { const leaky = withArchivedOrders(store); return (tenantId, query) => (query.limit < 10 ? leaky(tenantId, query) : original(tenantId, query)); } }),
      ['feeds.orders.walks.archived'],
    ],
    ['feeds that serve every tenant under a status filter', leakingWhen((query) => query.statuses !== null), ['feeds.orders.walks.tenant', 'feeds.trips.walks.tenant']],
    // Every page but a first one without since: walks from since and pages after a cursor leak alike.
    ['feeds that serve every tenant after a cursor or from a since', leakingWhen((query) => query.position !== null || query.since !== null), ['feeds.orders.walks.tenant', 'feeds.trips.walks.tenant']],
    // trips.cursor.end too: the other tenant's trips come after this one's tail, so a tail page of n items leaks them and one of 100 does not.
    ['feeds that serve every tenant on small pages', leakingWhen((query) => query.limit < 10), ['feeds.orders.walks.tenant', 'feeds.trips.walks.tenant', 'feeds.trips.cursor.end']],
    [
      'orders that end as another type ends (a Delivery Collected, a Pickup FullyDelivered, a Rebox NotCollected)',
      ordersRewritten({ 'EXT-445': { type: 'Delivery', status: 'Collected' }, 'EXT-436': { type: 'Pickup', status: 'FullyDelivered' }, 'EXT-427': { type: 'Rebox', status: 'NotCollected' } }),
      ['feeds.orders.status.ends'],
    ],
    [
      'feeds that skip the ties of the last item after a cursor',
      wrapFeeds({
        orders: (_original, store) =>
          makeFeedPage(store.sql, { select: portable`SELECT o.updated_at, o.id, o.status, ${ORDER_JSON} AS json FROM orders o WHERE o.tenant_id = ? AND o.archived_at IS NULL ${tiesSkipped('o')}`, orderBy: 'o.updated_at, o.id', statusColumn: 'o.status' }),
        trips: (_original, store) => makeFeedPage(store.sql, { select: portable`SELECT t.updated_at, t.id, t.status, ${TRIP_JSON} AS json FROM trips t WHERE t.tenant_id = ? ${tiesSkipped('t')}`, orderBy: 't.updated_at, t.id', statusColumn: 't.status' }),
      }),
      // The trip feed's tail shares a stamp too, so the page after a cursor there misses the last item and ends.
      // follow.payment (D10) passes: the paid orders still come back; the skipped items are follow.changes' (SHOULD) to report.
      ['feeds.orders.walk.same-items', 'feeds.orders.follow.changes', 'feeds.trips.walk.same-items', 'feeds.trips.cursor.end', 'feeds.trips.cursor.more'],
    ],
    [
      'feeds whose since is exclusive',
      bothFeedsQuery((query) => (query.position === null && query.since !== null ? { ...query, since: new Date(Date.parse(query.since) + 1).toISOString() } : query)),
      ['feeds.orders.since.inclusive', 'feeds.trips.since.inclusive'],
    ],
    // since.future and cursor.end too: a since after every item must give an empty (D6: final) page; since.offset too: a since in any form must be read.
    [
      'feeds that ignore since',
      bothFeedsQuery((query) => ({ ...query, since: null })),
      ['feeds.orders.since.filter', 'feeds.trips.since.filter', 'feeds.orders.since.future', 'feeds.trips.since.future', 'feeds.orders.cursor.end', 'feeds.trips.cursor.end', 'feeds.orders.since.offset', 'feeds.trips.since.offset'],
    ],
    // filters-as-sent too: the status sent with a cursor is a status filter.
    [
      'feeds that ignore the status filter',
      bothFeedsQuery((query) => ({ ...query, statuses: null })),
      ['feeds.orders.status.filter', 'feeds.trips.status.filter', 'feeds.orders.cursor.filters-as-sent', 'feeds.trips.cursor.filters-as-sent'],
    ],
    ['feeds that keep only the first of repeated statuses', bothFeedsQuery((query) => ({ ...query, statuses: query.statuses?.slice(0, 1) ?? null })), ['feeds.orders.status.filter', 'feeds.trips.status.filter']],
    [
      'feeds that give a cursor whenever a page is full (an empty last page follows)',
      bothFeedsRows((rows, query) => {
        const last = rows.items[rows.items.length - 1];
        if (rows.next !== null || last === undefined || rows.items.length < query.limit) return rows;
        const { updatedAtUtc, id } = JSON.parse(last) as { updatedAtUtc: string; id: string };
        return { ...rows, next: { updatedAt: updatedAtUtc, id } };
      }),
      ['feeds.orders.cursor.end', 'feeds.trips.cursor.end'],
    ],
    ['a cancel that leaves updatedAtUtc as it was', writeWithoutBump('cancel'), ['feeds.orders.follow.changes']],
    ['a payment that leaves updatedAtUtc as it was', writeWithoutBump('attachPayment'), ['feeds.orders.follow.payment']],
  ])('%s fails exactly the checks of that rule', async (_name, wrapStore, failing) => {
    const { byId } = await runBroken(wrapStore);
    expect(withOutcome(byId, 'fail').sort()).toEqual([...failing].sort());
    expect(withOutcome(byId, 'error')).toEqual([]);
    // Each failure shows the exchange it is about.
    for (const id of failing) expect(byId.get(id)!.findings[0]?.exchange, id).toBeDefined();
  });
});
