/**
 * Test support: the reference sandbox in-process on an ephemeral port, with a conformance
 * profile built by hand (three tenants, every profile key, disjoint order pools), and a
 * helper that runs checks against it. The suite itself talks HTTP only; only its tests
 * reach into the reference to set it up.
 */
import { memoryStore, type RunningServer, seedTenant, startServer, TINY_DATASET_STATUSES, tinyDataset } from '../sandbox.ts';
import type { AppOptions } from '../../../server/start/app.ts';
import type { OrderStatusName } from '../../../spec/load.ts';
import type { SqliteStore, Store } from '../../../server/store/index.ts';
import { integrationContract } from '../../../conformance/contract/contract.ts';
import { CANCELLABLE_STATUSES, ON_TRIP_STATUSES } from '../../../conformance/contract/order-statuses.ts';
import { provisionProfile } from '../../../conformance/setup/profile.ts';
import { type RunOptions, runSuite } from '../../../conformance/engine/runner.ts';
import { type AnswerRewrite, type ProxyRewrite, startProxy } from './proxy.ts';
import type { Check } from '../../../conformance/engine/types/check.ts';
import type { Profile } from '../../../conformance/engine/types/profile.ts';
import type { CheckResult, RunReport } from '../../../conformance/engine/types/report.ts';

// tinyDataset cycles statuses by index: i % 9.
const STATUS_AT: readonly OrderStatusName[] = TINY_DATASET_STATUSES;

/** The reference with a hand-built profile. */
export interface ReferenceTarget {
  server: RunningServer<Store>;
  store: SqliteStore;
  profile: Profile;
  close(): Promise<void>;
}

/** External ids of tinyDataset orders whose status is in `statuses`, skipping those already taken. */
function pool(total: number, statuses: readonly string[], size: number, taken: Set<string>): string[] {
  const ids: string[] = [];
  for (let i = 0; i < total && ids.length < size; i += 1) {
    const id = `EXT-${i}`;
    if (statuses.includes(STATUS_AT[i % 9]!) && !taken.has(id)) {
      ids.push(id);
      taken.add(id);
    }
  }
  return ids;
}

/**
 * Starts the reference over a fresh in-memory store: tenant A (450 orders, 150 trips) with
 * every key, tenant B for `otherTenant`, a suspended tenant C, a revoked key and a 5/min key.
 * `options` (e.g. a wrapped store) lets a test build a deliberately broken variant; `sandbox`
 * opens the control plane with `REFERENCE_ADMIN_TOKEN` and adds it to the profile.
 */
export async function startReference(options: { wrapStore?: (store: SqliteStore) => SqliteStore; app?: Partial<AppOptions>; sandbox?: boolean } = {}): Promise<ReferenceTarget> {
  const store = await memoryStore();
  const orders = 450;
  const a = await seedTenant(store, tinyDataset({ orders, trips: 150 }));
  const otherDataset = tinyDataset({ orders: 40, trips: 5, start: Date.parse('2026-10-02T00:00:00.000Z'), externalIdPrefix: 'OTHER', idSpace: 1 });
  const b = await seedTenant(store, otherDataset);
  const c = await seedTenant(store, tinyDataset({ orders: 20 }));
  await store.tenants.setState(c.tenantId, 'Suspended');
  const revoked = await store.keys.create({ tenantId: a.tenantId, name: 'revoked', scopes: ['orders:read', 'orders:write', 'trips:read'] });
  await store.keys.revoke(a.tenantId, revoked.id);
  const rateLimited = await store.keys.create({ tenantId: a.tenantId, name: 'limited', scopes: ['orders:read', 'orders:write', 'trips:read'], rateLimit: 5 });
  const server = await startServer(options.wrapStore ? options.wrapStore(store) : store, {
    bodyIdleTimeoutMs: 1000,
    ...(options.sandbox ? { adminToken: REFERENCE_ADMIN_TOKEN } : {}),
    ...options.app,
  });
  const taken = new Set<string>();
  const profile: Profile = {
    target: server.url,
    auth: { header: 'X-Api-Key', prefix: '' },
    keys: {
      full: a.keys.full,
      ordersRead: a.keys.ordersRead,
      tripsRead: a.keys.tripsRead,
      noScopes: a.keys.noScopes,
      otherTenant: b.keys.full,
      revoked: revoked.secret,
      rateLimited: { key: rateLimited.secret, perMinute: 5 },
      suspendedTenant: c.keys.full,
    },
    orders: {
      cancellable: pool(orders, CANCELLABLE_STATUSES, 30, taken),
      notCancellable: pool(orders, STATUS_AT.filter((status) => !CANCELLABLE_STATUSES.includes(status)), 30, taken),
      archivable: pool(orders, STATUS_AT.filter((status) => !ON_TRIP_STATUSES.includes(status)), 30, taken),
      payable: pool(orders, STATUS_AT, 30, taken),
      onTrip: pool(orders, ON_TRIP_STATUSES, 20, taken),
      otherTenant: Array.from({ length: 20 }, (_, i) => `OTHER-${i}`),
    },
    trips: { otherTenant: otherDataset.trips.map((trip) => trip.id) },
    feeds: { minOrders: 120, minTrips: 120 },
    ...(options.sandbox ? { sandbox: { url: `${server.url}/sandbox/v1`, token: options.app?.adminToken ?? REFERENCE_ADMIN_TOKEN } } : {}),
  };
  return { server, store, profile, close: () => server.close() };
}

/** The admin token of a reference started with its control plane (`sandbox: true`, `provisionReference`). */
export const REFERENCE_ADMIN_TOKEN = 'wba_conformance-test-admin-token';

/**
 * Starts the reference with its control plane over a fresh in-memory store and builds the
 * profile the way `--provision` does: `POST /sandbox/v1/profiles` through `provisionProfile`.
 * `options` as for `startReference`.
 */
export async function provisionReference(options: { wrapStore?: (store: SqliteStore) => SqliteStore; app?: Partial<AppOptions> } = {}): Promise<ReferenceTarget> {
  const store = await memoryStore();
  const adminToken = options.app?.adminToken ?? REFERENCE_ADMIN_TOKEN;
  const server = await startServer(options.wrapStore ? options.wrapStore(store) : store, { bodyIdleTimeoutMs: 1000, ...options.app, adminToken });
  try {
    return { server, store, profile: await provisionProfile(server.url, adminToken), close: () => server.close() };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** Runs `checks` against `target` with `profile`; returns the report and the results by check id. */
export async function runChecks(checks: readonly Check[], profile: Profile, options: { concurrency?: number; seed?: number; onWait?: RunOptions['onWait'] } = {}): Promise<{ report: RunReport; byId: Map<string, CheckResult> }> {
  const report = await runSuite({
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
    checks,
    profile,
    target: profile.target!,
    contract: integrationContract,
    concurrency: options.concurrency ?? 4,
    seed: options.seed ?? 1,
    timeoutMs: 5000,
  });
  return { report, byId: new Map(report.results.map((result) => [result.id, result])) };
}

/**
 * Runs `checks` against a deliberately broken reference: its store wrapped by `wrapStore`,
 * or a proxy in front of it applying `rewrite`. Both are closed before it returns.
 */
export async function runAgainstBroken(checks: readonly Check[], breakage: { wrapStore?: (store: SqliteStore) => SqliteStore; rewrite?: AnswerRewrite | ProxyRewrite }) {
  const reference = await startReference(breakage.wrapStore ? { wrapStore: breakage.wrapStore } : {});
  const proxy = breakage.rewrite === undefined ? undefined : await startProxy(reference.server.url, breakage.rewrite);
  try {
    return await runChecks(checks, proxy === undefined ? reference.profile : { ...reference.profile, target: proxy.url });
  } finally {
    await proxy?.close();
    await reference.close();
  }
}
