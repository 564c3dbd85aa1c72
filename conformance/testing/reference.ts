/**
 * Test support: the reference sandbox in-process on an ephemeral port, with a conformance
 * profile built by hand (three tenants, every profile key, disjoint order pools), and a
 * helper that runs checks against it. The suite itself talks HTTP only; only its tests
 * reach into the reference to set it up.
 */
import { memoryStore, type RunningServer, seedTenant, startServer, tinyDataset } from '../../server/testing.ts';
import type { AppOptions } from '../../server/app.ts';
import type { Store } from '../../server/store/index.ts';
import { integrationContract } from '../contract.ts';
import { runSuite } from '../runner.ts';
import type { Check, CheckResult, Profile, RunReport } from '../types.ts';

// tinyDataset cycles statuses by index: i % 9.
const STATUS_AT = ['New', 'InPlanning', 'Planned', 'InProgress', 'FullyDelivered', 'Cancelled', 'Returned', 'Refused', 'Closed'];

/** The reference with a hand-built profile. */
export interface ReferenceTarget {
  server: RunningServer;
  store: Store;
  profile: Profile;
  close(): Promise<void>;
}

/** External ids of tinyDataset orders whose status is in `statuses`, skipping those already taken. */
function pool(total: number, statuses: string[], size: number, taken: Set<string>): string[] {
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
 * `options` (e.g. a wrapped store) lets a test build a deliberately broken variant.
 */
export async function startReference(options: { wrapStore?: (store: Store) => Store; app?: Partial<AppOptions> } = {}): Promise<ReferenceTarget> {
  const store = memoryStore();
  const orders = 450;
  const a = seedTenant(store, tinyDataset({ orders, trips: 150 }));
  const b = seedTenant(store, tinyDataset({ orders: 40, trips: 5, start: Date.parse('2026-10-02T00:00:00.000Z') }));
  const c = seedTenant(store, tinyDataset({ orders: 20 }));
  store.tenants.setState(c.tenantId, 'Suspended');
  const revoked = store.keys.create({ tenantId: a.tenantId, name: 'revoked', scopes: ['orders:read', 'orders:write', 'trips:read'] });
  store.keys.revoke(a.tenantId, revoked.id);
  const rateLimited = store.keys.create({ tenantId: a.tenantId, name: 'limited', scopes: ['orders:read', 'orders:write', 'trips:read'], rateLimit: 5 });
  const server = await startServer(options.wrapStore ? options.wrapStore(store) : store, { bodyIdleTimeoutMs: 1000, ...options.app });
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
      cancellable: pool(orders, ['New', 'InPlanning', 'Planned'], 30, taken),
      notCancellable: pool(orders, ['InProgress', 'FullyDelivered', 'Cancelled', 'Returned', 'Refused', 'Closed'], 30, taken),
      archivable: pool(orders, ['New', 'InPlanning', 'FullyDelivered', 'Cancelled', 'Returned', 'Refused', 'Closed'], 30, taken),
      payable: pool(orders, STATUS_AT, 30, taken),
      otherTenant: Array.from({ length: 20 }, (_, i) => `EXT-${i}`),
    },
    feeds: { minOrders: 120, minTrips: 120 },
  };
  return { server, store, profile, close: () => server.close() };
}

/** Runs `checks` against `target` with `profile`; returns the report and the results by check id. */
export async function runChecks(checks: readonly Check[], profile: Profile, options: { concurrency?: number; seed?: number } = {}): Promise<{ report: RunReport; byId: Map<string, CheckResult> }> {
  const report = await runSuite({
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
