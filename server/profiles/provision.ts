/**
 * Conformance profiles (D39): three fresh tenants, each in one transaction, loaded from
 * fixture datasets whose external ids get a suffix of their own, so that two profiles never
 * share a tenant, key, order, trip or external id.
 */
import { randomBytes } from 'node:crypto';
import type { components } from '../../spec/sandbox-types.ts';
import type { OrderStatusName } from '../../spec/load.ts';
import { type Dataset, generateDataset } from '../../fixtures/generate.ts';
import { pickPools, type OrderPools } from './pools.ts';
import { importDataset, scopedId } from '../store/dataset.ts';
import type { Sql, Steps } from '../store/sql.ts';
import { type Keys, MAX_RATE_LIMIT, SCOPES } from '../tenants/keys.ts';
import type { Tenants } from '../tenants/store.ts';

// requirement: D39
/** The orders and trips the main tenant's feeds hold at least, outside the pools. */
export const PROFILE_FEEDS = { minOrders: 120, minTrips: 120 };
/** External ids per pool. */
export const POOL_SIZE = 20;
/** External ids of the payable pool, the one most checks write on (a payment changes no status, D10). */
export const PAYABLE_POOL_SIZE = 30;
/** The fewest orders of each on-trip status (Planned, InProgress) the `onTrip` pool holds. */
export const ON_TRIP_MIN_EACH = 5;
/** The rate limit of the profile's `rateLimited` key. */
export const RATE_LIMITED_PER_MINUTE = 5;

/**
 * What a provisioned profile holds besides its addresses: its keys, order pools and trips
 * (`Profile` of spec/sandbox.yaml), and the ids of its three tenants.
 */
export type ProvisionedProfile = Pick<components['schemas']['Profile'], 'keys' | 'orders' | 'trips'> & {
  tenants: { main: string; other: string; suspended: string };
};

// The datasets are the same for every profile (only the tenant-scoped ids and the suffix
// differ), so they are generated once. Main: 120 orders kept out of the pools plus 4 × 20
// pool orders and 30 payable ones, with room for every status and type; trips over every trip status, Confirmed
// and InProgress ones carrying the Planned and InProgress orders of the onTrip pool. Other:
// 40 orders and 10 trips of its own.
interface ProfileDatasets {
  main: Dataset;
  mainPools: OrderPools;
  other: Dataset;
  otherPool: string[];
  suspended: Dataset;
}
let datasets: ProfileDatasets | undefined;

/** The three datasets and the main tenant's pools, generated on first use and checked for what the profile promises. */
function profileDatasets(): ProfileDatasets {
  if (datasets === undefined) {
    const main = withTransactionStamps(generateDataset({ seed: 4120, orders: 260, trips: 130, coverage: true }));
    const mainPools = pickPools(main.orders, { size: POOL_SIZE, sizes: { payable: PAYABLE_POOL_SIZE }, reserve: 3, keep: PROFILE_FEEDS.minOrders });
    checkMainDataset(main, mainPools);
    const other = generateDataset({ seed: 4121, orders: 40, trips: 10 });
    const otherPool = other.orders.flatMap((order) => (order.externalId === null ? [] : [order.externalId])).slice(0, POOL_SIZE);
    if (otherPool.length < POOL_SIZE) throw new Error(`the other tenant's dataset has ${otherPool.length} external ids`);
    if (other.trips.length === 0) throw new Error("the other tenant's dataset has no trips");
    datasets = { main, mainPools, other, otherPool, suspended: generateDataset({ seed: 4122, orders: 20, trips: 5 }) };
  }
  return datasets;
}

/** Throws unless the main dataset fills the trip feed and its onTrip pool mixes Planned and InProgress orders. */
function checkMainDataset(main: Dataset, pools: OrderPools): void {
  if (main.trips.length < PROFILE_FEEDS.minTrips) throw new Error(`the profile dataset has ${main.trips.length} trips`);
  const statusOf = new Map(main.orders.map((order) => [order.externalId, order.status]));
  for (const status of ['Planned', 'InProgress'] satisfies OrderStatusName[]) {
    const count = pools.onTrip.filter((id) => statusOf.get(id) === status).length;
    if (count < ON_TRIP_MIN_EACH) throw new Error(`the profile dataset's onTrip pool has ${count} ${status} orders`);
  }
}

const END_STATUSES = new Set<string>(['FullyDelivered', 'PartiallyDelivered', 'Returned', 'Collected', 'PartiallyCollected', 'NotCollected', 'Refused'] satisfies OrderStatusName[]);

/**
 * `dataset` with the stamps one write transaction would leave (D7): a completed trip and
 * the orders it finished share one `updatedAtUtc`, and trips confirmed by one planning run
 * (three at a time) share theirs. A conformance profile then holds real ties, so the
 * feeds' `(updatedAtUtc, id)` order is tested on them.
 */
function withTransactionStamps(dataset: Dataset): Dataset {
  const latest = (stamps: string[]) => stamps.reduce((a, b) => (a > b ? a : b));
  const orderStamp = new Map<string, string>();
  const trips = dataset.trips.map((trip) => ({ ...trip }));
  for (const trip of trips.filter((t) => t.status === 'Completed')) {
    const finished = dataset.orders.filter((order) => order.tripId === trip.id && END_STATUSES.has(order.status));
    const stamp = latest([trip.updatedAtUtc, ...finished.map((order) => order.updatedAtUtc)]);
    trip.updatedAtUtc = stamp;
    for (const order of finished) orderStamp.set(order.id, stamp);
  }
  const confirmed = trips.filter((t) => t.status === 'Confirmed');
  for (let i = 0; i + 1 < confirmed.length; i += 3) {
    const run = confirmed.slice(i, i + 3);
    const stamp = latest(run.map((trip) => trip.updatedAtUtc));
    for (const trip of run) trip.updatedAtUtc = stamp;
  }
  const orders = dataset.orders.map((order) => (orderStamp.has(order.id) ? { ...order, updatedAtUtc: orderStamp.get(order.id)! } : order));
  return { ...dataset, orders, trips };
}

/** `dataset` with every external id suffixed by `-<suffix>`. */
function withSuffix(dataset: Dataset, suffix: string): Dataset {
  return { ...dataset, orders: dataset.orders.map((order) => ({ ...order, externalId: order.externalId && `${order.externalId}-${suffix}` })) };
}

/** Provisioning over the store's tenants, keys and database. */
export function makeProvisioning(store: { sql: Sql; tenants: Tenants; keys: Keys }) {
  const key = function* (tenantId: string, name: string, scopes: readonly string[], rateLimit?: number): Steps<string> {
    return (yield* store.keys.steps.create({ tenantId, name, scopes, ...(rateLimit === undefined ? {} : { rateLimit }) })).secret;
  };

  /** One tenant with its data and keys, in one transaction; `keys` makes the keys once the tenant exists. */
  function tenantWith<K>(name: string, dataset: Dataset, keys: (tenantId: string) => Steps<K>): Promise<{ tenantId: string; keys: K }> {
    return store.sql.write(null, function* () {
      const tenant = yield* store.tenants.steps.create({ name, country: 'NL' });
      yield* importDataset(store.tenants, tenant.id, dataset);
      return { tenantId: tenant.id, keys: yield* keys(tenant.id) };
    });
  }

  /** Creates the three tenants of a fresh profile, named `<name> (main)` and so on (D68), and answers what they hold. */
  return async function provision(name?: string): Promise<ProvisionedProfile> {
    const { main, mainPools, other, otherPool, suspended } = profileDatasets();
    const suffix = () => randomBytes(4).toString('hex');
    const mainSuffix = suffix();
    const label = name ?? `Conformance profile ${mainSuffix}`;
    // The tenants are new: no key of theirs is in the key cache, whatever state they take.
    const first = await tenantWith(`${label} (main)`, withSuffix(main, mainSuffix), function* (tenantId) {
      const revoked = yield* store.keys.steps.create({ tenantId, name: 'profile-revoked', scopes: SCOPES });
      yield* store.keys.steps.revoke(tenantId, revoked.id);
      return {
        // The whole suite runs on it: the most a key may have (D14), so that no check's requests take another's turn.
        full: yield* key(tenantId, 'profile-full', SCOPES, MAX_RATE_LIMIT),
        ordersRead: yield* key(tenantId, 'profile-orders-read', ['orders:read']),
        tripsRead: yield* key(tenantId, 'profile-trips-read', ['trips:read']),
        noScopes: yield* key(tenantId, 'profile-no-scopes', []),
        revoked: revoked.secret,
        rateLimited: yield* key(tenantId, 'profile-rate-limited', SCOPES, RATE_LIMITED_PER_MINUTE),
      };
    });
    const otherSuffix = suffix();
    const second = await tenantWith(`${label} (other tenant)`, withSuffix(other, otherSuffix), (tenantId) => key(tenantId, 'profile-other-full', SCOPES));
    const third = await tenantWith(`${label} (suspended)`, withSuffix(suspended, suffix()), function* (tenantId) {
      const secret = yield* key(tenantId, 'profile-suspended-full', SCOPES);
      yield* store.tenants.steps.setState(tenantId, 'Suspended');
      return secret;
    });
    const suffixed = (ids: string[], s: string) => ids.map((id) => `${id}-${s}`);
    const { onTrip, cancellable, notCancellable, archivable, payable } = mainPools;
    return {
      tenants: { main: first.tenantId, other: second.tenantId, suspended: third.tenantId },
      keys: {
        full: first.keys.full,
        ordersRead: first.keys.ordersRead,
        tripsRead: first.keys.tripsRead,
        noScopes: first.keys.noScopes,
        otherTenant: second.keys,
        revoked: first.keys.revoked,
        rateLimited: { key: first.keys.rateLimited, perMinute: RATE_LIMITED_PER_MINUTE },
        suspendedTenant: third.keys,
      },
      orders: {
        payable: suffixed(payable, mainSuffix),
        cancellable: suffixed(cancellable, mainSuffix),
        notCancellable: suffixed(notCancellable, mainSuffix),
        archivable: suffixed(archivable, mainSuffix),
        onTrip: suffixed(onTrip, mainSuffix),
        otherTenant: suffixed(otherPool, otherSuffix),
      },
      trips: { otherTenant: other.trips.map((trip) => scopedId(second.tenantId, trip.id)) },
    };
  };
}
