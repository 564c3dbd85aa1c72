/**
 * Sandbox, the control plane itself: who may use it and what a missing tenant gets (D30), the
 * conformance profiles it provisions (D39), and the request log it keeps of each tenant (D48).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import { profileProblems } from '../../setup/profile.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpRequest, HttpResponse } from '../../engine/types/exchange.ts';
import type { Profile } from '../../engine/types/profile.ts';
import { fullKeyTenant, onControlPlane } from '../support/control-plane.ts';
import { objectOf, paths, paymentBody, received } from '../support/order-requests.ts';

/** Findings unless `response` is a 401 `about:blank` problem with a WWW-Authenticate challenge (D30, after D3). */
function expectUnauthorized(response: HttpResponse, what: string): Finding[] {
  const where = `${what}: ${describeExchange(response.exchange)}`;
  if (response.status !== 401) return [finding(where, '401 about:blank with WWW-Authenticate', received(response), response.exchange)];
  const findings: Finding[] = [];
  const type = objectOf(response)?.['type'];
  if (type !== 'about:blank') findings.push(finding(`${where}: not an about:blank problem`, 'type: about:blank', `type: ${show(type)}`, response.exchange));
  if (!response.headers['www-authenticate']) findings.push(finding(`${where}: a 401 without a challenge`, 'a WWW-Authenticate header', 'no WWW-Authenticate header', response.exchange));
  return findings;
}

/**
 * The control plane opens only to its admin token: no token, a wrong one or an integration key
 * (as a Bearer token or in X-Api-Key) is 401 about:blank with WWW-Authenticate; the admin token
 * does not open the integration API; an unknown tenant is 404 about:blank.
 */
export const planeAccess: Check = {
  id: 'sandbox.access',
  family: 'sandbox',
  title: 'the control plane answers 401 about:blank to no token, a wrong one and an integration key; the admin token opens no integration call; an unknown tenant is 404 about:blank',
  verifies: ['D30'],
  fix: 'require Authorization: Bearer with the admin token on every control-plane operation, answering 401 about:blank otherwise (an integration key included), let the admin token open no integration call, and answer an unknown tenant with 404 about:blank (D30)',
  requires: ['sandbox', 'key:full'],
  run: onControlPlane(async (plane, ctx) => {
    const token = ctx.profile.sandbox!.token;
    const tenants: HttpRequest = { method: 'GET', path: '/tenants', key: null };
    const refused: [string, HttpRequest][] = [
      ['the tenant list without a token', tenants],
      ['the tenant list with a token the plane never issued', { ...tenants, headers: { authorization: `Bearer wba_${randomUUID()}` } }],
      ['the tenant list with the full integration key as a Bearer token', { ...tenants, headers: { authorization: `Bearer ${ctx.profile.keys.full}` } }],
      ['the tenant list with the full integration key in X-Api-Key', { ...tenants, headers: { 'x-api-key': ctx.profile.keys.full } }],
    ];
    for (const [what, request] of refused) plane.findings.push(...expectUnauthorized(await plane.client.request(request), what));
    for (const [what, auth] of [['X-Api-Key', undefined], ['a Bearer token', { header: 'Authorization', prefix: 'Bearer ' }]] as const) {
      const whoami = await ctx.http.request({ method: 'GET', path: paths.whoami, key: token, ...(auth === undefined ? {} : { auth }) });
      if (whoami.status !== 401) plane.findings.push(finding(`whoami with the admin token as ${what}: ${describeExchange(whoami.exchange)}`, '401 (the admin token is no API key)', received(whoami), whoami.exchange));
    }
    const missing = await plane.client.request({ method: 'GET', path: `/tenants/${randomUUID()}` });
    const type = objectOf(missing)?.['type'];
    if (missing.status !== 404 || type !== 'about:blank') {
      plane.findings.push(finding(`reading a tenant id nobody issued: ${describeExchange(missing.exchange)}`, '404 about:blank', received(missing), missing.exchange));
    }
  }),
};

/** The key values of a profile, by name (`rateLimited` by its key); anything but a string is left out. */
function keyValues(profile: Pick<Profile, 'keys'>): [string, string][] {
  return Object.entries(profile.keys as Record<string, unknown>)
    .map(([name, value]): [string, unknown] => [name, typeof value === 'string' ? value : (value as { key?: unknown } | null)?.key])
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

/** The tenant whoami names for `key`, or the finding why it names none. */
async function tenantOf(ctx: CheckContext, name: string, key: string): Promise<string | Finding> {
  const response = await ctx.http.request({ method: 'GET', path: paths.whoami, key });
  const tenantId = objectOf(response)?.['tenantId'];
  if (response.status === 200 && typeof tenantId === 'string') return tenantId;
  return finding(`whoami with the new profile's ${name} key: ${describeExchange(response.exchange)}`, '200 with its tenantId', received(response), response.exchange);
}

/**
 * A provisioned profile (D39): valid, every key and pool, pools of 20 disjoint live ids, feeds of
 * 120; its keys name one main tenant, another for otherTenant and a third for suspendedTenant, the
 * revoked key is refused; and it shares no key or external id with the profile of this run.
 */
export const profiles: Check = {
  id: 'sandbox.profiles',
  family: 'sandbox',
  title: 'a provisioned profile is valid, with every key, five disjoint pools of 20 ids and the feed sizes; its keys resolve to three fresh tenants, the revoked one to none',
  verifies: ['D39'],
  fix: 'provision a profile of three fresh tenants with every key, five disjoint pools of 20 external ids and the feed sizes, its revoked key resolving to no tenant (D39)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane, ctx) => {
    // The profile's keys are told apart by the tenants whoami names; a whoami that names none is the discovery checks' finding.
    await fullKeyTenant(ctx);
    const response = await plane.client.request({ method: 'POST', path: '/profiles', body: { name: plane.tenantName } });
    const body = objectOf(response);
    // The answer holds live secrets: keep them out of the report before anything else.
    const keys = body?.['keys'];
    if (keys !== null && typeof keys === 'object') {
      for (const [name, value] of keyValues({ keys } as Profile)) ctx.addSecret(value, `provisioned${name[0]!.toUpperCase()}${name.slice(1)}`);
    }
    if (response.status !== 201 || body === undefined) return plane.stop(finding(`provisioning a profile: ${describeExchange(response.exchange)}`, '201 with a profile', received(response), response.exchange));
    const problems = profileProblems(body);
    if (problems.length > 0) return plane.stop(finding(`the provisioned profile: ${describeExchange(response.exchange)}: not a valid profile`, 'a profile valid against conformance/profile.schema.json', problems.slice(0, 5).join('; '), response.exchange));
    const profile = body as unknown as Profile;
    const holds = (ok: boolean, what: string, expected: string, got: string) => ok || plane.findings.push(finding(`the provisioned profile: ${what}`, expected, got, response.exchange));
    const names = ['full', 'ordersRead', 'tripsRead', 'noScopes', 'otherTenant', 'revoked', 'rateLimited', 'suspendedTenant'];
    const absent = names.filter((name) => !(name in profile.keys));
    holds(absent.length === 0, 'keys missing', `every key: ${names.join(', ')}`, `no ${absent.join(', ')}`);
    holds(profile.keys.rateLimited?.perMinute === 5, 'the rateLimited key', 'perMinute 5', `perMinute ${show(profile.keys.rateLimited?.perMinute)}`);
    const pools = ['payable', 'cancellable', 'notCancellable', 'archivable', 'onTrip', 'otherTenant'] as const;
    for (const pool of pools) holds((profile.orders?.[pool]?.length ?? 0) >= 20, `the pool orders.${pool}`, 'at least 20 external ids', `${profile.orders?.[pool]?.length ?? 0}`);
    const ids = pools.flatMap((pool) => profile.orders?.[pool] ?? []);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    holds(repeated.length === 0, 'an id in two pools', 'disjoint pools', show(repeated.slice(0, 5)));
    holds(profile.feeds?.minOrders === 120 && profile.feeds?.minTrips === 120, 'the feed sizes', 'feeds.minOrders 120, feeds.minTrips 120', show(profile.feeds));
    const own = new Set([...keyValues(ctx.profile).map(([, value]) => value), ...Object.values(ctx.profile.orders ?? {}).flat()]);
    const shared = [...keyValues(profile).map(([name, value]) => (own.has(value) ? `key ${name}` : '')), ...ids.filter((id) => own.has(id))].filter(Boolean);
    holds(shared.length === 0, "shares keys or external ids with this run's profile", 'nothing shared: fresh tenants', shared.slice(0, 5).join(', '));

    const tenants = new Map<string, string>();
    for (const name of ['full', 'ordersRead', 'tripsRead', 'noScopes', 'otherTenant', 'suspendedTenant']) {
      const key = keyValues(profile).find(([keyName]) => keyName === name)?.[1];
      if (key === undefined) continue;
      const tenant = await tenantOf(ctx, name, key);
      if (typeof tenant === 'string') tenants.set(name, tenant);
      else plane.findings.push(tenant);
    }
    const main = tenants.get('full');
    for (const name of ['ordersRead', 'tripsRead', 'noScopes']) if (tenants.has(name)) holds(tenants.get(name) === main, `the ${name} key's tenant`, `the full key's tenant ${main}`, show(tenants.get(name)));
    const distinct = new Set([main, tenants.get('otherTenant'), tenants.get('suspendedTenant')]);
    holds(distinct.size === 3, 'the tenants of full, otherTenant and suspendedTenant', 'three different tenants', show([...distinct]));
    if (profile.keys.revoked !== undefined) {
      const revoked = await ctx.http.request({ method: 'GET', path: paths.whoami, key: profile.keys.revoked });
      if (revoked.status !== 401) plane.findings.push(finding(`whoami with the new profile's revoked key: ${describeExchange(revoked.exchange)}`, '401', received(revoked), revoked.exchange));
    }
    // The run archives only the tenants its POST /tenants made (D68); this profile's three are this check's to archive.
    for (const tenant of new Set(tenants.values())) await plane.client.request({ method: 'POST', path: `/tenants/${encodeURIComponent(tenant)}/archive` });
  }),
};

/**
 * How long the request log may take to show an entry (it is written in batches, D48), and how
 * often it is read: polled, so a prompt log costs no wait, and long enough for a busy host whose
 * database answers each batch late (a log that shows nothing takes this long to fail).
 */
const LOG_WAIT_MS = 10_000;
const LOG_POLL_MS = 100;

/** The first page of the tenant's request log, newest first. */
async function logPage(ctx: CheckContext, tenant: string): Promise<{ items: Record<string, unknown>[]; response: HttpResponse }> {
  const response = await ctx.sandbox!.request({ method: 'GET', path: `${tenant}/requests`, query: { limit: 100 } });
  const items = objectOf(response)?.['items'];
  return { items: Array.isArray(items) ? (items as Record<string, unknown>[]) : [], response };
}

/**
 * The request log of a fresh tenant (D48): a call with its key is logged with its request id,
 * operation, status and key id, and so is a revoked key's 401; a path that is no operation is
 * not; and a key a client put in a body is not kept.
 */
export const requestLog: Check = {
  id: 'sandbox.requests',
  family: 'sandbox',
  title: "the tenant's request log holds its key's calls and a revoked key's 401, not a path that is no operation, and never a key sent in a body",
  verifies: ['D48'],
  fix: "log every call of a tenant's keys, a revoked key's 401 too, but no request that belongs to no tenant, and never a key a request carried in its body (D48)",
  requires: ['sandbox'],
  run: onControlPlane(async (plane, ctx) => {
    const tenant = await plane.tenant();
    const create = (name: string) => plane.need(`creating the key ${name}`, { method: 'POST', path: `${tenant}/keys`, body: { name, scopes: ['orders:read', 'orders:write', 'trips:read'] } });
    const [live, gone] = [await create('waybill request log'), await create('waybill request log, revoked')];
    const [secret, keyId, goneSecret, goneId] = [live['secret'], live['id'], gone['secret'], gone['id']];
    if ([secret, keyId, goneSecret, goneId].some((value) => typeof value !== 'string')) return plane.stop(finding('creating the keys (needed by this check): no id and secret', 'CreatedApiKey with id and secret', show([live, gone])));
    await plane.need('revoking the second key', { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(goneId as string)}/revoke` });
    const run = randomUUID().slice(0, 8);
    const rid = (n: number) => `waybill-log-${run}-${n}`;
    await ctx.http.request({ method: 'GET', path: paths.whoami, key: secret as string, headers: { 'x-request-id': rid(1) } });
    await ctx.http.request({ method: 'POST', path: paths.payment(`waybill-absent-${run}`), key: secret as string, headers: { 'x-request-id': rid(2) }, body: { ...paymentBody(), note: secret } });
    await ctx.http.request({ method: 'GET', path: '/api/v1/integration/no-such-operation', key: secret as string, headers: { 'x-request-id': rid(3) } });
    await ctx.http.request({ method: 'GET', path: paths.whoami, key: goneSecret as string, headers: { 'x-request-id': rid(4) } });

    const wanted = [rid(1), rid(2), rid(4)];
    let page = await logPage(ctx, tenant);
    for (let waited = 0; waited < LOG_WAIT_MS && !wanted.every((id) => page.items.some((item) => item['requestId'] === id)); waited += LOG_POLL_MS) {
      await delay(LOG_POLL_MS);
      page = await logPage(ctx, tenant);
    }
    if (page.response.status !== 200) return plane.stop(finding(`reading the request log: ${describeExchange(page.response.exchange)}`, '200 with items', received(page.response), page.response.exchange));
    const entry = (id: string) => page.items.find((item) => item['requestId'] === id);
    const where = `the request log of the check's tenant, read after ${wanted.length + 1} calls`;
    for (const [id, what, expected] of [[rid(1), 'whoami with its key', { operation: 'whoami', status: 200, keyId }], [rid(4), 'whoami with its revoked key', { operation: 'whoami', status: 401, keyId: goneId }]] as const) {
      const found = entry(id);
      const actual = found && { operation: found['operation'], status: found['status'], keyId: found['keyId'] };
      if (JSON.stringify(actual) !== JSON.stringify(expected)) plane.findings.push(finding(`${where}: ${what} (X-Request-Id ${id})`, `an entry ${show(expected)}`, actual === undefined ? `no entry within ${LOG_WAIT_MS} ms` : show(actual), page.response.exchange));
    }
    if (entry(rid(3)) !== undefined) plane.findings.push(finding(`${where}: a path that is no operation was logged (X-Request-Id ${rid(3)})`, 'no entry: the request belongs to no operation', show(entry(rid(3))), page.response.exchange));
    const payment = entry(rid(2));
    if (payment === undefined) plane.findings.push(finding(`${where}: the payment with the key in its body (X-Request-Id ${rid(2)})`, 'an entry', `no entry within ${LOG_WAIT_MS} ms`, page.response.exchange));
    else {
      const detail = await plane.client.request({ method: 'GET', path: `${tenant}/requests/${encodeURIComponent(String(payment['id']))}` });
      if (detail.status !== 200) plane.findings.push(finding(`reading the payment's log entry: ${describeExchange(detail.exchange)}`, '200 with the entry', received(detail), detail.exchange));
      // The exchange is redacted in the report; the check reads the raw text.
      else if (detail.text.includes(secret as string)) plane.findings.push(finding(`the payment's log entry keeps the API key the client put in its body`, 'the key redacted (no API key is ever stored)', 'the key, in the entry', detail.exchange));
    }
    await plane.need('revoking the key this check made', { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(keyId as string)}/revoke` });
  }),
};

/** The control-plane checks. */
export const sandboxPlaneChecks: Check[] = [planeAccess, profiles, requestLog];
