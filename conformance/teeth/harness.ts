/**
 * Test support for the suite's teeth: the reference sandbox, provisioned as `--provision` does,
 * made to misbehave in exactly one way — a wrapped store, or a proxy in front of it rewriting
 * one thing — and the whole suite run against it. Breakages live here, in test code, never as
 * switches in the server.
 */
import { memoryStore, startServer } from '../../server/testing.ts';
import type { Store } from '../../server/store/index.ts';
import { checks } from '../checks/index.ts';
import { integrationContract } from '../contract.ts';
import { provisionProfile } from '../profile.ts';
import { runSuite } from '../runner.ts';
import { type ProxyRewrite, type RunningProxy, startProxy } from '../testing/proxy.ts';
import type { Profile, RunReport } from '../types.ts';

const ADMIN_TOKEN = 'teeth-admin-token';

/** One way to make the reference misbehave. */
export interface Breakage {
  wrapStore?: (store: Store) => Store;
  /** A proxy in front of the reference; it gets the provisioned profile, to know its keys. */
  proxy?: (profile: Profile) => ProxyRewrite;
  /** What the profile says of the target's own choices (trip field names, …). */
  profile?: (profile: Profile) => Profile;
}

/**
 * A deliberately broken reference: it breaks the seed requirements `breaks` (MUST or SHOULD)
 * and must fail exactly the checks `fails`, each of which verifies one of them.
 */
export interface BrokenVariant extends Breakage {
  breaks: string[];
  fails: string[];
}

/**
 * A target that obeys every sentence of the seeds but decides the gaps `decides` otherwise:
 * it passes without `--strict`, and fails exactly the DECISION checks `failsStrict` with it.
 */
export interface AlternativeVariant extends Breakage {
  decides: string[];
  failsStrict: string[];
}

/** Runs the whole registry against the reference changed by `breakage`, provisioned as --provision does. */
export async function runAgainst(breakage: Breakage = {}, options: { strict?: boolean } = {}): Promise<RunReport> {
  const store = memoryStore();
  const server = await startServer(breakage.wrapStore ? breakage.wrapStore(store) : store, { adminToken: ADMIN_TOKEN, bodyIdleTimeoutMs: 1000 });
  let proxy: RunningProxy | undefined;
  try {
    const provisioned = await provisionProfile(server.url, ADMIN_TOKEN, 30_000);
    if (breakage.proxy) proxy = await startProxy(server.url, breakage.proxy(provisioned));
    // Everything goes through the proxy, socket-level requests included: it streams request bodies as they come.
    const target = proxy?.url ?? server.url;
    const profile = (breakage.profile ?? ((same: Profile) => same))({ ...provisioned, target, ...(proxy ? { sandbox: { ...provisioned.sandbox!, url: `${proxy.url}/sandbox/v1` } } : {}) });
    return await runSuite({ checks, profile, target, contract: integrationContract, concurrency: 4, seed: 11, timeoutMs: 5000, strict: options.strict ?? false });
  } finally {
    await proxy?.close();
    await server.close();
  }
}

/** Ids of the checks that ended `fail`, sorted. */
export const failed = (report: RunReport) => report.results.filter((result) => result.outcome === 'fail').map((result) => result.id).sort();
/** `id: message` of the checks that ended `error` (the suite broke). */
export const errored = (report: RunReport) => report.results.filter((result) => result.outcome === 'error').map((result) => `${result.id}: ${result.error?.message}`);
/** `id: reason` of the checks that were skipped. */
export const skipped = (report: RunReport) => report.results.filter((result) => result.outcome === 'skip').map((result) => `${result.id}: ${result.reason}`);

/** The `index`-th of `count` slices of `entries`, so the matrix runs spread over the test workers. */
export function slice<T>(entries: Record<string, T>, index: number, count: number): [string, T][] {
  return Object.entries(entries).filter((_, position) => position % count === index);
}
