/**
 * Auth: which credentials each operation accepts (no key, a wrong key, a revoked key, the
 * Bearer form), what each scope allows, what 401 and 403 bodies look like, and that a key
 * reads and writes its own tenant only — including a suspended one, which stays readable.
 */
import { mediaTypeOf } from '../contract/catalog-rules.ts';
import { describeExchange, finding, show } from '../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../engine/types/check.ts';
import type { HttpRequest, HttpResponse } from '../engine/types/exchange.ts';
import type { KeyName } from '../engine/types/profile.ts';
import { absentExternalId, everyOperation, expectProblem, type FeedItem, invalidKey, objectOf, paths, paymentBody, received, walkFeed, writeOperations } from './support/order-requests.ts';
import { type OrderState, poolStates, qualifyingOrders } from './support/pool-state.ts';

/** Findings for every operation not answered 401 when called with `key`. */
async function expectUnauthorized(ctx: CheckContext, key: string | null, described: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const { operation, request } of everyOperation(absentExternalId(ctx))) {
    const response = await ctx.http.request({ ...request, key });
    if (response.status !== 401) findings.push(finding(`${operation} ${described}: ${describeExchange(response.exchange)}`, '401', received(response), response.exchange));
  }
  return findings;
}

/** Findings unless `response` is an `about:blank` problem for `status` titled `title` (D3). */
function aboutBlankFindings(response: HttpResponse, title: string, what: string): Finding[] {
  const where = `${what}: ${describeExchange(response.exchange)}`;
  const findings: Finding[] = [];
  const contentType = response.headers['content-type'];
  if (mediaTypeOf(contentType) !== 'application/problem+json') findings.push(finding(`${where}: not a problem body`, 'Content-Type: application/problem+json', contentType ?? 'no Content-Type', response.exchange));
  const body = objectOf(response);
  const expected = { type: 'about:blank', title, status: response.status };
  const actual = { type: body?.['type'], title: body?.['title'], status: body?.['status'] };
  if (actual.type !== expected.type || actual.title !== expected.title || actual.status !== expected.status) {
    findings.push(finding(`${where}: the problem is not about:blank with the status phrase`, show(expected), show(actual), response.exchange));
  }
  return findings;
}

/** No key on every operation: 401. */
export const missingKey: Check = {
  id: 'auth.key.missing',
  family: 'auth',
  title: 'every operation answers 401 to a request without an API key',
  verifies: ['int.auth.unauthenticated'],
  fix: 'authenticate every operation before anything else, and answer 401 when the request carries no API key (int.auth.unauthenticated)',
  requires: [],
  run: (ctx) => expectUnauthorized(ctx, null, 'without an API key'),
};

/** A key the target never issued, on every operation: 401. */
export const invalidKeyCheck: Check = {
  id: 'auth.key.invalid',
  family: 'auth',
  title: 'every operation answers 401 to a key the target never issued',
  verifies: ['int.auth.unauthenticated'],
  fix: 'answer 401 to a key the server never issued, on every operation, before doing anything the request asks (int.auth.unauthenticated)',
  requires: [],
  run: (ctx) => expectUnauthorized(ctx, invalidKey(ctx), 'with a key the target never issued'),
};

/** The profile's revoked key, on every operation: 401. */
export const revokedKey: Check = {
  id: 'auth.key.revoked',
  family: 'auth',
  title: 'every operation answers 401 to a revoked key',
  verifies: ['int.auth.revoked'],
  fix: 'refuse a revoked key with 401 on every operation from the moment it is revoked (int.auth.revoked)',
  requires: ['key:revoked'],
  run: (ctx) => expectUnauthorized(ctx, 'revoked', 'with the revoked key'),
};

/** 401 answers are about:blank problems with WWW-Authenticate (D3). */
export const unauthorizedProblem: Check = {
  id: 'auth.problem.unauthorized',
  family: 'auth',
  title: 'a 401 is an about:blank problem titled Unauthorized and carries WWW-Authenticate',
  verifies: ['D3'],
  fix: 'answer a 401 as application/problem+json with type about:blank, title Unauthorized and status 401, and a WWW-Authenticate header naming the accepted schemes (D3)',
  requires: [],
  async run(ctx) {
    const probes: [HttpRequest, string][] = [
      [{ method: 'GET', path: paths.whoami, key: null }, 'whoami without a key'],
      [{ method: 'GET', path: paths.orderFeed, key: invalidKey(ctx) }, 'orderFeed with a key the target never issued'],
      [{ method: 'POST', path: paths.payment(absentExternalId(ctx)), key: null, body: paymentBody() }, 'attachPayment without a key'],
    ];
    const findings: Finding[] = [];
    let unauthorized = 0;
    for (const [request, what] of probes) {
      const response = await ctx.http.request(request);
      // Whether these are 401 at all is auth.key.missing's and auth.key.invalid's rule.
      if (response.status !== 401) continue;
      unauthorized += 1;
      findings.push(...aboutBlankFindings(response, 'Unauthorized', what));
      const challenge = response.headers['www-authenticate'];
      if (challenge === undefined || challenge.trim() === '') {
        const fix = 'send a WWW-Authenticate header with every 401, naming the schemes the key is accepted in (D3)';
        findings.push(finding(`${what}: ${describeExchange(response.exchange)}: a 401 without a challenge`, 'a WWW-Authenticate header naming the accepted schemes', 'no WWW-Authenticate header', response.exchange, fix));
      }
    }
    if (unauthorized === 0) return ctx.skip('no request without a valid key was answered 401 (see auth.key.missing and auth.key.invalid)');
    return findings;
  },
};

/** 403 answers are about:blank problems (D3). */
export const forbiddenProblem: Check = {
  id: 'auth.problem.forbidden',
  family: 'auth',
  title: 'a 403 is an about:blank problem titled Forbidden',
  verifies: ['D3'],
  fix: 'answer a 403 as application/problem+json with type about:blank, title Forbidden, status 403 and a detail naming the scope the operation needs (D3)',
  requires: ['key:noScopes'],
  async run(ctx) {
    const findings: Finding[] = [];
    let forbidden = 0;
    for (const [path, operation] of [[paths.orderFeed, 'orderFeed'], [paths.tripFeed, 'tripFeed']] as const) {
      const response = await ctx.http.request({ method: 'GET', path, key: 'noScopes' });
      // Whether these are 403 at all is auth.scope.feeds's rule.
      if (response.status !== 403) continue;
      forbidden += 1;
      findings.push(...aboutBlankFindings(response, 'Forbidden', `${operation} with the noScopes key`));
    }
    if (forbidden === 0) return ctx.skip('no feed request with the noScopes key was answered 403 (see auth.scope.feeds)');
    return findings;
  },
};

/** The profile keys (other than full) a scope test can use, and what each may read. */
const readKeys: { key: KeyName; orderFeed: boolean; tripFeed: boolean }[] = [
  { key: 'ordersRead', orderFeed: true, tripFeed: false },
  { key: 'tripsRead', orderFeed: false, tripFeed: true },
  { key: 'noScopes', orderFeed: false, tripFeed: false },
];

/** The feeds answer 403 to a key without their scope and 200 to a key with it. */
export const feedScopes: Check = {
  id: 'auth.scope.feeds',
  family: 'auth',
  title: 'each feed answers 403 to a key without its read scope and 200 to a key with it',
  verifies: ['int.auth.scope', 'int.orders-feed.scope', 'int.trips-feed.scope'],
  fix: 'serve the order feed only to a key with orders:read and the trip feed only to a key with trips:read, answering 403 to any other key (int.auth.scope, int.orders-feed.scope, int.trips-feed.scope)',
  requires: [],
  async run(ctx) {
    const keys = readKeys.filter(({ key }) => ctx.profile.keys[key] !== undefined);
    if (keys.length === 0) return ctx.skip('profile has none of keys.ordersRead, keys.tripsRead, keys.noScopes');
    const findings: Finding[] = [];
    for (const { key, ...allowed } of keys) {
      for (const feed of ['orderFeed', 'tripFeed'] as const) {
        const response = await ctx.http.request({ method: 'GET', path: paths[feed], key, query: { limit: 1 } });
        const expected = allowed[feed] ? 200 : 403;
        if (response.status !== expected) {
          const scope = feed === 'orderFeed' ? 'orders:read' : 'trips:read';
          const message = allowed[feed] ? `${feed} with the ${key} key, which has ${scope}` : `${feed} with the ${key} key, which lacks ${scope}`;
          findings.push(finding(`${message}: ${describeExchange(response.exchange)}`, String(expected), received(response), response.exchange));
        }
      }
    }
    return findings;
  },
};

/** The scope the target's writes need: its own name for it (`profile.choices.writeScope`), waybill's `orders:write` by default. */
function writeScopeOf(ctx: CheckContext): string {
  return ctx.profile.choices?.writeScope ?? 'orders:write';
}

/** The writes answer 403 to every profile key without the write scope (D2; the scope's name is the target's). */
export const writeScopes: Check = {
  id: 'auth.scope.writes',
  family: 'auth',
  title: 'payment, cancel and archive answer 403 to a key without the write scope (orders:write, or the profile\'s choices.writeScope)',
  verifies: ['D2'],
  fix: 'answer 403 to a payment, cancel or archive whose key lacks orders:write, before the order is looked at (D2)',
  requires: ['orders:payable:1'],
  async run(ctx) {
    const scope = writeScopeOf(ctx);
    // The profile's read keys are meant to lack the write scope; what their identity claims is not asked, as a target that grants it wrongly must fail here.
    const keys = readKeys.map(({ key }) => key).filter((key) => ctx.profile.keys[key] !== undefined);
    if (keys.length === 0) return ctx.skip('profile has none of keys.ordersRead, keys.tripsRead, keys.noScopes');
    // A live order, so that a target checking the order before the scope still owes a 403.
    const [{ externalId }] = (await qualifyingOrders(ctx, 'payable', poolStates.payable)) as [OrderState];
    const findings: Finding[] = [];
    for (const key of keys) {
      for (const { operation, request } of writeOperations(externalId)) {
        const response = await ctx.http.request({ ...request, key });
        if (response.status !== 403) findings.push(finding(`${operation} with the ${key} key, which lacks ${scope}: ${describeExchange(response.exchange)}`, '403', received(response), response.exchange));
      }
    }
    return findings;
  },
};

/** whoami needs no scope. */
export const whoamiNoScope: Check = {
  id: 'auth.scope.whoami',
  family: 'auth',
  title: 'whoami answers 200 to a key with no scopes',
  verifies: ['int.whoami.no-scope'],
  fix: 'answer whoami to any valid key, whatever its scopes: it needs no scope of its own (int.whoami.no-scope)',
  requires: ['key:noScopes'],
  async run(ctx) {
    const response = await ctx.http.request({ method: 'GET', path: paths.whoami, key: 'noScopes' });
    return response.status === 200 ? [] : [finding(`whoami with the noScopes key: ${describeExchange(response.exchange)}`, '200 with the key identity', received(response), response.exchange)];
  },
};

/** Findings unless the full key, sent as `auth`, reads whoami (as the same key) and the order feed. */
async function keyTransportFindings(ctx: CheckContext, auth: { header: string; prefix: string }, described: string): Promise<Finding[]> {
  const reference = await ctx.http.request({ method: 'GET', path: paths.whoami, key: 'full' });
  const whoami = await ctx.http.request({ method: 'GET', path: paths.whoami, key: 'full', auth });
  const feed = await ctx.http.request({ method: 'GET', path: paths.orderFeed, key: 'full', auth, query: { limit: 1 } });
  const findings: Finding[] = [];
  for (const [operation, response] of [['whoami', whoami], ['orderFeed', feed]] as const) {
    if (response.status !== 200) findings.push(finding(`${operation} with the full key ${described}: ${describeExchange(response.exchange)}`, '200', received(response), response.exchange));
  }
  const keyIdOf = (response: HttpResponse) => objectOf(response)?.['keyId'];
  if (whoami.status === 200 && reference.status === 200 && keyIdOf(whoami) !== keyIdOf(reference)) {
    findings.push(finding(`whoami with the full key ${described} names another key`, `keyId ${show(keyIdOf(reference))} (as with the profile's auth)`, `keyId ${show(keyIdOf(whoami))}`, whoami.exchange));
  }
  return findings;
}

/** The key as `X-Api-Key` (D1). */
export const apiKeyHeader: Check = {
  id: 'auth.transport.apiKey',
  family: 'auth',
  title: 'the key is accepted in the X-Api-Key header',
  verifies: ['D1'],
  fix: 'accept the key in the X-Api-Key header, as the same key it is in any other form (D1)',
  requires: ['key:full'],
  run: (ctx) => keyTransportFindings(ctx, { header: 'X-Api-Key', prefix: '' }, 'in X-Api-Key'),
};

/** The key as `Authorization: Bearer` (D1). */
export const bearerKey: Check = {
  id: 'auth.transport.bearer',
  family: 'auth',
  title: 'the key is accepted as Authorization: Bearer',
  verifies: ['D1'],
  fix: 'accept the key as Authorization: Bearer <key> too, as the same key it is in X-Api-Key (D1)',
  requires: ['key:full'],
  run: (ctx) => keyTransportFindings(ctx, { header: 'Authorization', prefix: 'Bearer ' }, 'as Authorization: Bearer'),
};

/** The full key's writes on the other tenant's external ids: 404 orders.notFound. */
export const otherTenantWrites: Check = {
  id: 'auth.tenant.writes',
  family: 'auth',
  title: "payment, cancel and archive answer 404 orders.notFound for another tenant's order",
  verifies: ['int.auth.one-tenant', 'int.service.tenant-only', 'cat.orders.not-found'],
  fix: "look an external id up within the key's tenant only, and answer 404 orders.notFound when that tenant has no such order, even if another tenant has (int.auth.one-tenant, int.service.tenant-only, cat.orders.not-found)",
  requires: ['key:full', 'orders:otherTenant:1'],
  async run(ctx) {
    const [externalId] = ctx.orders('otherTenant') as [string];
    // If the full key's own feed shows that external id, a write on it may rightly succeed: either
    // the profile names an id both tenants use, or the feed leaks (auth.tenant.feed's rule).
    const own = await walkFeed(ctx, { path: paths.orderFeed, key: 'full' });
    const mine = 'items' in own ? own.items.find((item) => item['externalId'] === externalId) : undefined;
    if (mine !== undefined) {
      return ctx.skip(`the full key's order feed serves an order with the otherTenant id ${externalId} (id ${show(mine['id'])}): the profile's orders.otherTenant must name external ids the full key's tenant does not use`);
    }
    const findings: Finding[] = [];
    for (const { operation, request } of writeOperations(externalId)) {
      const response = await ctx.http.request({ ...request, key: 'full' });
      findings.push(...expectProblem(response, { status: 404, type: 'orders.notFound' }, `${operation} with the full key on the other tenant's order ${externalId}`));
    }
    return findings;
  },
};

/** The full key's order feed holds none of the other tenant's orders. */
export const otherTenantFeed: Check = {
  id: 'auth.tenant.feed',
  family: 'auth',
  title: "the order feed of one tenant holds none of another tenant's orders",
  verifies: ['int.auth.one-tenant', 'int.service.tenant-only'],
  fix: "filter every feed query by the key's tenant, so that no other tenant's order is ever served (int.auth.one-tenant, int.service.tenant-only)",
  requires: ['key:full', 'key:otherTenant'],
  async run(ctx) {
    const other = await walkFeed(ctx, { path: paths.orderFeed, key: 'otherTenant' });
    if (!('items' in other)) return [other];
    // Compared by the service's order id: two tenants may well use the same external id.
    const otherIds = new Map(other.items.map((item) => [item['id'], item]));
    if (otherIds.size === 0) return ctx.skip("the other tenant's order feed is empty, so there is nothing to look for");
    const own = await walkFeed(ctx, { path: paths.orderFeed, key: 'full' });
    if (!('items' in own)) return [own];
    const leaked = own.items.filter((item) => otherIds.has(item['id']));
    if (leaked.length === 0) return [];
    const shown = leaked.slice(0, 5).map((item) => `id ${show(item['id'])} (externalId ${show(item['externalId'])})`);
    return [finding(`the full key's order feed serves ${leaked.length} of the other tenant's orders`, "none of the other tenant's orders", `${shown.join(', ')}${leaked.length > 5 ? ', …' : ''}`, own.exchangeOf(leaked[0]!))];
  },
};

/** An order of the suspended tenant to aim writes at: a New or InPlanning one (cancellable and archivable under D11/D12) when there is one. */
function suspendedTarget(items: readonly FeedItem[]): string | undefined {
  const withId = items.filter((item): item is FeedItem & { externalId: string } => typeof item['externalId'] === 'string');
  return (withId.find((item) => item['status'] === 'New' || item['status'] === 'InPlanning') ?? withId[0])?.externalId;
}

/** A suspended tenant's writes: 409 tenants.tenant.suspended (D22). */
export const suspendedWrites: Check = {
  id: 'auth.suspended.writes',
  family: 'auth',
  title: "a suspended tenant's payment, cancel and archive answer 409 tenants.tenant.suspended",
  verifies: ['cat.tenants.suspended'],
  fix: 'refuse every payment, cancel and archive of a suspended tenant with 409 tenants.tenant.suspended, changing nothing (cat.tenants.suspended)',
  requires: ['key:suspendedTenant'],
  async run(ctx) {
    const response = await ctx.http.request({ method: 'GET', path: paths.orderFeed, key: 'suspendedTenant', query: { limit: 100 } });
    const items = objectOf(response)?.['items'];
    if (response.status !== 200 || !Array.isArray(items)) return ctx.skip(`cannot find an order of the suspended tenant: its order feed answered ${received(response)} (see auth.suspended.reads)`);
    const externalId = suspendedTarget(items as FeedItem[]);
    if (externalId === undefined) return ctx.skip("the suspended tenant's order feed shows no order with an external id");
    const findings: Finding[] = [];
    for (const { operation, request } of writeOperations(externalId)) {
      const answer = await ctx.http.request({ ...request, key: 'suspendedTenant' });
      findings.push(...expectProblem(answer, { status: 409, type: 'tenants.tenant.suspended' }, `${operation} with the suspended tenant's key on its order ${externalId}`));
    }
    return findings;
  },
};

/** A suspended tenant still reads: whoami and the feeds its key's scopes allow answer 200. */
export const suspendedReads: Check = {
  id: 'auth.suspended.reads',
  family: 'auth',
  title: 'a suspended tenant still reads: whoami and both feeds answer 200',
  verifies: ['cat.tenants.suspended-reads'],
  fix: "keep serving whoami and both feeds to a suspended tenant's keys: suspension makes a tenant read-only, not unreadable (cat.tenants.suspended-reads)",
  requires: ['key:suspendedTenant'],
  async run(ctx) {
    const findings: Finding[] = [];
    const whoami = await ctx.http.request({ method: 'GET', path: paths.whoami, key: 'suspendedTenant' });
    if (whoami.status !== 200) findings.push(finding(`whoami with the suspended tenant's key: ${describeExchange(whoami.exchange)}`, '200', received(whoami), whoami.exchange));
    const scopes = objectOf(whoami)?.['scopes'];
    for (const [feed, scope] of [['orderFeed', 'orders:read'], ['tripFeed', 'trips:read']] as const) {
      // A key without the feed's scope owes a 403, not a read; the profile's key is meant to have both.
      if (Array.isArray(scopes) && !scopes.includes(scope)) continue;
      const response = await ctx.http.request({ method: 'GET', path: paths[feed], key: 'suspendedTenant', query: { limit: 1 } });
      if (response.status !== 200) findings.push(finding(`${feed} with the suspended tenant's key: ${describeExchange(response.exchange)}`, '200', received(response), response.exchange));
    }
    return findings;
  },
};

/** The auth family, in the order it runs. */
export const authChecks: Check[] = [
  missingKey,
  invalidKeyCheck,
  revokedKey,
  unauthorizedProblem,
  forbiddenProblem,
  feedScopes,
  writeScopes,
  whoamiNoScope,
  apiKeyHeader,
  bearerKey,
  otherTenantWrites,
  otherTenantFeed,
  suspendedWrites,
  suspendedReads,
];
