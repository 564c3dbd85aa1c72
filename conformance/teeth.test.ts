/**
 * The suite's teeth: the whole suite, provisioned through the control plane as
 * `--provision` does, passes on the reference and fails on deliberately broken variants of
 * it — each variant failing exactly the checks meant for it. Breakages live here, in test
 * code: a wrapped store passed to the app, or a proxy in front of it rewriting one thing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, memoryStore } from '../server/testing.ts';
import { makeFeedPage, ORDER_JSON } from '../server/store/feed-sql.ts';
import type { Store } from '../server/store/index.ts';
import { checks } from './checks/index.ts';
import { integrationContract } from './contract.ts';
import { provisionProfile } from './profile.ts';
import { runSuite } from './runner.ts';
import { answerJson, type ProxyRewrite, startProxy } from './testing/proxy.ts';
import type { Profile, RunReport } from './types.ts';

const ADMIN_TOKEN = 'teeth-admin-token';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/**
 * A breakage — a store override, or a proxy rewrite (given the profile, to know its keys) —
 * and exactly the checks it must fail: the check meant for it, and those whose rule the
 * same breakage also breaks (e.g. every 429 without Retry-After also breaks the declared
 * response headers that `discovery.responses.schema` checks).
 */
interface Variant {
  fails: string[];
  wrapStore?: (store: Store) => Store;
  proxy?: (profile: Profile) => ProxyRewrite;
}

/** Runs the whole registry against the reference broken by `variant`, provisioned as --provision does. */
async function runAgainst(variant: Partial<Variant> = {}): Promise<RunReport> {
  const store = memoryStore();
  const server = await startServer(variant.wrapStore ? variant.wrapStore(store) : store, { adminToken: ADMIN_TOKEN, bodyIdleTimeoutMs: 1000 });
  cleanups.push(server.close);
  const profile = await provisionProfile(server.url, ADMIN_TOKEN, 30_000);
  let target = server.url;
  if (variant.proxy) {
    const proxy = await startProxy(server.url, variant.proxy(profile));
    cleanups.push(proxy.close);
    target = proxy.url;
  }
  return runSuite({ checks, profile: { ...profile, target }, target, rawTarget: server.url, contract: integrationContract, concurrency: 4, seed: 11, timeoutMs: 5000 });
}

const failed = (report: RunReport) => report.results.filter((r) => r.outcome === 'fail').map((r) => r.id).sort();
const errored = (report: RunReport) => report.results.filter((r) => r.outcome === 'error').map((r) => `${r.id}: ${r.error?.message}`);

/** The order feed of a store, over `select` instead of the real query. */
function orderFeedOver(store: Store, where: string): Store {
  const feedPage = makeFeedPage(store.db, { select: `SELECT o.updated_at, o.id, ${ORDER_JSON} FROM orders o WHERE ${where}`, orderBy: 'o.updated_at, o.id', statusColumn: 'o.status' });
  return { ...store, orders: { ...store.orders, feedPage } };
}

const variants: Record<string, Variant> = {
  'archived orders in the feed': {
    fails: ['feeds.orders.archived.hidden', 'writes.archive.feed'],
    wrapStore: (store) => orderFeedOver(store, 'o.tenant_id = ? AND (o.updated_at, o.id) > (?, ?)'),
  },
  'a cross-tenant read': {
    fails: ['auth.tenant.feed'],
    wrapStore: (store) => orderFeedOver(store, '? IS NOT NULL AND o.archived_at IS NULL AND (o.updated_at, o.id) > (?, ?)'),
  },
  'a cursor that skips ties': {
    fails: ['feeds.orders.walk.same-items'],
    wrapStore: (store) => ({
      ...store,
      orders: { ...store.orders, feedPage: (tenantId, query) => store.orders.feedPage(tenantId, query.position ? { ...query, position: { ...query.position, id: '\uffff' } } : query) },
      trips: { ...store.trips, feedPage: (tenantId, query) => store.trips.feedPage(tenantId, query.position ? { ...query, position: { ...query.position, id: '\uffff' } } : query) },
    }),
  },
  'since exclusive': {
    fails: ['feeds.orders.since.inclusive'],
    wrapStore: (store) => ({
      ...store,
      orders: { ...store.orders, feedPage: (tenantId, query) => store.orders.feedPage(tenantId, query.since ? { ...query, since: new Date(Date.parse(query.since) + 1).toISOString() } : query) },
    }),
  },
  'scopes not enforced': {
    fails: ['auth.scope.feeds', 'auth.scope.writes', 'discovery.whoami.scopes'],
    wrapStore: (store) => ({ ...store, keys: { ...store.keys, authenticate: (key) => { const found = store.keys.authenticate(key); return found && { ...found, scopes: ['orders:read', 'orders:write', 'trips:read'] }; } } }),
  },
  'rate limit not enforced': {
    fails: ['ratelimit.exceeded'],
    wrapStore: (store) => ({ ...store, keys: { ...store.keys, authenticate: (key) => { const found = store.keys.authenticate(key); return found && { ...found, rateLimit: 6000 }; } } }),
  },
  'a revoked key accepted': {
    fails: ['auth.key.revoked'],
    proxy: (profile) => ({ request: (request) => (request.headers['x-api-key'] === profile.keys.revoked ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },
  'limit not capped': {
    fails: ['discovery.responses.schema', 'feeds.orders.limit.cap', 'feeds.trips.limit.cap'],
    proxy: () => ({
      answer: async (answer, request, resend) => {
        const url = new URL(request.url, 'http://x');
        const limit = Number(url.searchParams.get('limit'));
        const page = answerJson(answer) as { items?: unknown[]; nextCursor?: string | null } | undefined;
        if (!(limit > 100) || answer.status !== 200 || !page?.nextCursor) return answer;
        url.searchParams.set('cursor', page.nextCursor);
        url.searchParams.set('limit', '100');
        const more = answerJson(await resend({ url: `${url.pathname}${url.search}` })) as { items: unknown[]; nextCursor: string | null };
        return { ...answer, body: Buffer.from(JSON.stringify({ items: [...page.items!, ...more.items].slice(0, limit), nextCursor: more.nextCursor })) };
      },
    }),
  },
  'a malformed cursor served from the start': {
    fails: ['feeds.orders.cursor.malformed', 'feeds.orders.cursor.unissued', 'feeds.trips.cursor.malformed', 'feeds.trips.cursor.unissued'],
    proxy: () => ({
      answer: async (answer, request, resend) => {
        const problem = answerJson(answer) as { errors?: { field: string }[] } | undefined;
        if (answer.status !== 400 || problem?.errors?.[0]?.field !== 'cursor') return answer;
        const url = new URL(request.url, 'http://x');
        url.searchParams.delete('cursor');
        return resend({ url: `${url.pathname}${url.search}` });
      },
    }),
  },
  'a wrong status for a catalog code': {
    fails: ['auth.tenant.writes', 'discovery.responses.schema', 'problems.catalog', 'writes.archive.gone', 'writes.notFound'],
    proxy: () => ({ answer: (answer) => ((answerJson(answer) as { type?: string } | undefined)?.type === 'orders.notFound' ? { ...answer, status: 410 } : answer) }),
  },
  'no Retry-After on 429': {
    fails: ['discovery.responses.schema', 'idempotency.inflight', 'ratelimit.exceeded'],
    proxy: () => ({ answer: (answer) => { const { 'retry-after': _gone, ...headers } = answer.headers; return answer.status === 429 ? { ...answer, headers } : answer; } }),
  },
  'errors as plain JSON, not problem+json': {
    fails: ['auth.problem.forbidden', 'auth.problem.unauthorized', 'discovery.responses.schema', 'http.method.notAllowed', 'http.route.unknown', 'problems.catalog', 'sandbox.tenant.archived'],
    proxy: () => ({ answer: (answer) => (answer.headers['content-type']?.startsWith('application/problem+json') ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json' } } : answer) }),
  },
  'a replay that is not identical': {
    fails: ['idempotency.replay', 'idempotency.replay.refusal'],
    proxy: () => ({
      answer: (answer) => {
        if (answer.headers['idempotent-replayed'] !== 'true') return answer;
        const body = answerJson(answer) as Record<string, unknown> | undefined;
        return body === undefined ? answer : { ...answer, body: Buffer.from(JSON.stringify({ ...body, detail: 'replayed', updatedAtUtc: new Date().toISOString() })) };
      },
    }),
  },
  'no WWW-Authenticate on 401': {
    fails: ['auth.problem.unauthorized', 'discovery.responses.schema'],
    proxy: () => ({ answer: (answer) => { const { 'www-authenticate': _gone, ...headers } = answer.headers; return answer.status === 401 ? { ...answer, headers } : answer; } }),
  },
};

describe('the suite against the reference, provisioned', () => {
  it('passes every check, skips none', async () => {
    const report = await runAgainst();
    expect(errored(report)).toEqual([]);
    expect(failed(report)).toEqual([]);
    expect(report.results.filter((r) => r.outcome === 'skip').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(report.exitCode).toBe(0);
  }, 60_000);
});

describe('the suite against broken variants of the reference', () => {
  it('has at least 12 variants', () => {
    expect(Object.keys(variants).length).toBeGreaterThanOrEqual(12);
  });

  it.each(Object.keys(variants))('catches %s, with exactly the checks meant for it', async (name) => {
    const variant = variants[name]!;
    const report = await runAgainst(variant);
    expect(errored(report)).toEqual([]);
    expect(failed(report)).toEqual([...variant.fails].sort());
    // A MUST or SHOULD check among them makes the run fail (exit 1).
    const counting = report.results.some((r) => r.outcome === 'fail' && r.level !== 'DECISION');
    expect(report.exitCode).toBe(counting ? 1 : 0);
  }, 60_000);
});
