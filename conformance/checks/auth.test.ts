import { afterEach, describe, expect, it } from 'vitest';
import type { KeyPrincipal } from '../../server/tenants/keys.ts';
import type { SqliteStore } from '../../server/store/index.ts';
import { answerJson, type ProxiedAnswer, type ProxyRewrite, startProxy } from '../../dev/testing/conformance/proxy.ts';
import { runChecks, startReference, type ReferenceTarget } from '../../dev/testing/conformance/reference.ts';
import type { Profile } from '../engine/types/profile.ts';
import { authChecks } from './auth.ts';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

/** The reference, closed after the tests. */
async function reference(options: Parameters<typeof startReference>[0] = {}): Promise<ReferenceTarget> {
  const target = await startReference(options);
  open.push(target.close);
  return target;
}

/** The profile of `target`, pointed at a proxy in front of it that applies `rewrite`. */
async function behindProxy(target: ReferenceTarget, rewrite: ProxyRewrite, profile: Profile = target.profile): Promise<Profile> {
  const proxy = await startProxy(target.server.url, rewrite);
  open.push(proxy.close);
  return { ...profile, target: proxy.url };
}

/** Runs the auth family; returns the ids of the failed checks, and fails the test on any error. */
async function failedChecks(profile: Profile): Promise<string[]> {
  const { report } = await runChecks(authChecks, profile);
  expect(report.results.filter((result) => result.outcome === 'error').map((result) => [result.id, result.error?.message])).toEqual([]);
  return report.results.filter((result) => result.outcome === 'fail').map((result) => result.id);
}

/** A store whose key lookup goes through `authenticate` (given the real one); `keys` are read when a request comes. */
function withAuthenticate(authenticate: (real: (presented: string) => Promise<KeyPrincipal | null>, presented: string) => Promise<KeyPrincipal | null>) {
  return (store: SqliteStore): SqliteStore => ({ ...store, keys: { ...store.keys, authenticate: (presented: string) => authenticate(async (key) => store.keys.authenticate(key), presented) } });
}

/** A problem answer written by a proxy. */
function problemAnswer(status: number, type: string, title: string): ProxiedAnswer {
  return { status, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req_proxy' }, body: Buffer.from(JSON.stringify({ type, title, status, detail: null, instance: null })) };
}

describe('auth checks against the reference', () => {
  it('pass, every one', async () => {
    const target = await reference();
    const { report } = await runChecks(authChecks, target.profile);
    expect(report.results.map((result) => [result.id, result.outcome, result.reason ?? result.findings[0]?.message])).toEqual(authChecks.map((check) => [check.id, 'pass', undefined]));
  });

  it("skip auth.tenant.writes, rather than fail it, for a profile whose otherTenant ids the full key's tenant uses too", async () => {
    // A profile whose otherTenant pool names tenant A's own external ids.
    const target = await startReference();
    open.push(target.close);
    const overlapping = { ...target.profile, orders: { ...target.profile.orders, otherTenant: Array.from({ length: 20 }, (_, i) => `EXT-${i}`) } };
    const { byId } = await runChecks(authChecks, overlapping);
    expect(byId.get('auth.tenant.writes')).toMatchObject({
      outcome: 'skip',
      reason: expect.stringMatching(/^the full key's order feed serves an order with the otherTenant id EXT-\d+ \(id [0-9a-f-]+\): the profile's orders.otherTenant must name external ids the full key's tenant does not use$/),
    });
    expect(byId.get('auth.tenant.writes')?.exchangeCount).toBe(5);
    expect([...byId.values()].filter((result) => result.id !== 'auth.tenant.writes').map((result) => result.outcome)).toEqual(authChecks.slice(1).map(() => 'pass'));
  });

  it('skip what the profile lacks', async () => {
    const target = await reference();
    const { full } = target.profile.keys;
    const { byId } = await runChecks(authChecks, { ...target.profile, keys: { full }, orders: {} });
    const skipped = [...byId.values()].filter((result) => result.outcome === 'skip').map((result) => result.id);
    expect(skipped).toEqual([
      'auth.key.revoked',
      'auth.problem.forbidden',
      'auth.scope.feeds',
      'auth.scope.writes',
      'auth.scope.whoami',
      'auth.tenant.writes',
      'auth.tenant.feed',
      'auth.suspended.writes',
      'auth.suspended.reads',
    ]);
    expect(byId.get('auth.scope.feeds')?.reason).toBe('profile has none of keys.ordersRead, keys.tripsRead, keys.noScopes');
  });
});

describe('auth checks against broken targets', () => {
  it('fail auth.key.missing when a request without a key is served', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      request: (request) => (request.headers['x-api-key'] === undefined && request.headers['authorization'] === undefined ? { ...request, headers: { ...request.headers, 'x-api-key': target.profile.keys.full } } : request),
    });
    expect(await failedChecks(profile)).toEqual(['auth.key.missing']);
  });

  it('fail auth.key.invalid and auth.key.revoked when an unknown key passes as the full key', async () => {
    let full = '';
    const target = await reference({ wrapStore: withAuthenticate(async (real, presented) => (await real(presented)) ?? real(full)) });
    full = target.profile.keys.full;
    expect(await failedChecks(target.profile)).toEqual(['auth.key.invalid', 'auth.key.revoked']);
  });

  it('fail auth.key.revoked when a revoked key still works', async () => {
    let keys: Profile['keys'] | undefined;
    const target = await reference({ wrapStore: withAuthenticate(async (real, presented) => real(presented === keys?.revoked ? keys.full : presented)) });
    keys = target.profile.keys;
    const { report } = await runChecks(authChecks, target.profile);
    const revoked = report.results.find((result) => result.id === 'auth.key.revoked')!;
    expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => result.id)).toEqual(['auth.key.revoked']);
    expect(revoked.findings).toHaveLength(6);
    expect(revoked.findings[0]).toMatchObject({ message: expect.stringMatching(/^orderFeed with the revoked key: GET \/api\/v1\/integration\/orders → 200/), expected: '401' });
    expect(revoked.findings[0]?.exchange?.request.headers['x-api-key']).toBe('<redacted:revoked>');
  });

  it.each([
    ['without WWW-Authenticate', (answer: ProxiedAnswer) => ({ ...answer, headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name !== 'www-authenticate')) }), 'a WWW-Authenticate header naming the accepted schemes'],
    ['with a type of its own', (answer: ProxiedAnswer) => ({ ...answer, body: Buffer.from(JSON.stringify({ ...(answerJson(answer) as object), type: 'auth.unauthorized' })) }), '{"type":"about:blank","title":"Unauthorized","status":401}'],
  ])('fail auth.problem.unauthorized for a 401 %s', async (_name, rewrite, expected) => {
    const target = await reference();
    const profile = await behindProxy(target, { answer: (answer) => (answer.status === 401 ? rewrite(answer) : answer) });
    const { byId } = await runChecks(authChecks, profile);
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['auth.problem.unauthorized']);
    expect(byId.get('auth.problem.unauthorized')?.findings.map((found) => found.expected)).toEqual([expected, expected, expected]);
  });

  it('fail auth.problem.forbidden for a 403 served as plain JSON', async () => {
    const target = await reference();
    const profile = await behindProxy(target, { answer: (answer) => (answer.status === 403 ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json' } } : answer) });
    expect(await failedChecks(profile)).toEqual(['auth.problem.forbidden']);
  });

  it('fail auth.scope.feeds when every key may read orders', async () => {
    const target = await reference({ wrapStore: withAuthenticate(async (real, presented) => {
      const principal = await real(presented);
      return principal === null ? null : { ...principal, scopes: [...new Set([...principal.scopes, 'orders:read'])] };
    }) });
    expect(await failedChecks(target.profile)).toEqual(['auth.scope.feeds']);
  });

  it('fail auth.scope.feeds when a key with trips:read is refused the trip feed', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      answer: (answer, request) => (request.url.startsWith('/api/v1/integration/trips') && request.headers['x-api-key'] === target.profile.keys.tripsRead ? problemAnswer(403, 'about:blank', 'Forbidden') : answer),
    });
    expect(await failedChecks(profile)).toEqual(['auth.scope.feeds']);
  });

  it('fail auth.scope.writes when every key may write', async () => {
    const target = await reference({ wrapStore: withAuthenticate(async (real, presented) => {
      const principal = await real(presented);
      return principal === null ? null : { ...principal, scopes: [...new Set([...principal.scopes, 'orders:write'])] };
    }) });
    expect(await failedChecks(target.profile)).toEqual(['auth.scope.writes']);
  });

  it('fail auth.scope.whoami when whoami demands a scope', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      answer: (answer, request) => (request.url === '/api/v1/integration/whoami' && request.headers['x-api-key'] === target.profile.keys.noScopes ? problemAnswer(403, 'about:blank', 'Forbidden') : answer),
    });
    expect(await failedChecks(profile)).toEqual(['auth.scope.whoami']);
  });

  it('fail auth.transport.bearer when Authorization is not read', async () => {
    const target = await reference();
    const profile = await behindProxy(target, { request: ({ headers: { authorization: _dropped, ...headers }, ...request }) => ({ ...request, headers }) });
    expect(await failedChecks(profile)).toEqual(['auth.transport.bearer']);
  });

  it('fail auth.transport.apiKey when X-Api-Key is not read (the profile sends Bearer)', async () => {
    const target = await reference();
    const bearer: Profile = { ...target.profile, auth: { header: 'Authorization', prefix: 'Bearer ' } };
    const profile = await behindProxy(target, { request: ({ headers: { 'x-api-key': _dropped, ...headers }, ...request }) => ({ ...request, headers }) }, bearer);
    expect(await failedChecks(profile)).toEqual(['auth.transport.apiKey']);
  });

  it("fail auth.tenant.writes when a write finds the order in another tenant", async () => {
    let otherTenant = '';
    const target = await reference({
      wrapStore: (store) => {
        const anywhere = <A extends unknown[]>(write: (tenantId: string, externalId: string, ...rest: A) => ReturnType<SqliteStore['orders']['cancel']>) =>
          async (tenantId: string, externalId: string, ...rest: A) => {
            const result = await write(tenantId, externalId, ...rest);
            return !result.ok && result.reason === 'notFound' ? write((await store.keys.authenticate(otherTenant))!.tenantId, externalId, ...rest) : result;
          };
        const orders = { ...store.orders, attachPayment: anywhere(store.orders.attachPayment), cancel: anywhere(store.orders.cancel), archive: anywhere(store.orders.archive) };
        return { ...store, orders: orders as SqliteStore['orders'] };
      },
    });
    otherTenant = target.profile.keys.otherTenant!;
    expect(await failedChecks(target.profile)).toEqual(['auth.tenant.writes']);
  });

  it("fail auth.tenant.feed when the first page of the order feed carries another tenant's order", async () => {
    let keys: Profile['keys'] | undefined;
    const target = await reference({
      wrapStore: (store) => ({
        ...store,
        orders: {
          ...store.orders,
          async feedPage(tenantId, query) {
            const page = await store.orders.feedPage(tenantId, query);
            if (tenantId !== (await store.keys.authenticate(keys!.full))!.tenantId || query.position !== null || query.since !== null) return page;
            const stranger = await store.orders.feedPage((await store.keys.authenticate(keys!.otherTenant!))!.tenantId, { ...query, limit: 1 });
            return { ...page, items: [...stranger.items, ...page.items] };
          },
        },
      }),
    });
    keys = target.profile.keys;
    const { byId } = await runChecks(authChecks, target.profile);
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['auth.tenant.feed']);
    expect(byId.get('auth.tenant.feed')?.findings[0]).toMatchObject({ message: "the full key's order feed serves 1 of the other tenant's orders", expected: "none of the other tenant's orders" });
    expect(byId.get('auth.tenant.feed')?.findings[0]?.exchange?.request.url).toMatch(/\/api\/v1\/integration\/orders\?limit=100$/);
  });

  it("fail auth.suspended.writes when a suspended tenant's writes go through", async () => {
    const target = await reference({ wrapStore: withAuthenticate(async (real, presented) => {
      const principal = await real(presented);
      return principal === null ? null : { ...principal, tenantState: 'Active' };
    }) });
    expect(await failedChecks(target.profile)).toEqual(['auth.suspended.writes']);
  });

  it("fail auth.suspended.reads when a suspended tenant's whoami and trip feed are refused", async () => {
    const target = await reference();
    const suspended = target.profile.keys.suspendedTenant;
    const profile = await behindProxy(target, {
      answer: (answer, request) =>
        request.method === 'GET' && !request.url.startsWith('/api/v1/integration/orders') && request.headers['x-api-key'] === suspended ? problemAnswer(409, 'tenants.tenant.suspended', 'Conflict') : answer,
    });
    expect(await failedChecks(profile)).toEqual(['auth.suspended.reads']);
  });
});
