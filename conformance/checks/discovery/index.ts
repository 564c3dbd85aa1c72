/**
 * Discovery: what a key resolves to (whoami), and whether every answer of the run matches the
 * contract: what the seeds fix (MUST), and the shape spec/openapi.yaml decides on top (DECISION).
 */
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { ExchangeRecord } from '../../engine/types/exchange.ts';
import type { KeyName, Profile } from '../../engine/types/profile.ts';
import { timestampsDecided } from './timestamps.ts';
import { decidedResponseViolations, seedContractErrors, seedResponseViolations } from '../support/response-contract.ts';

const whoamiPath = '/api/v1/integration/whoami';

/** What a profile key's name promises about its scopes. */
interface ScopePromise {
  includes: string[];
  excludes: string[];
  exactlyNone?: true;
}

/** The scope payment, cancel and archive need: the profile's choice, else D2's `orders:write`. */
function writeScopeOf(profile: Profile): string {
  return profile.choices?.writeScope ?? 'orders:write';
}

/**
 * What each profile key's name promises about its scopes, in the seeds' scope names
 * (`orders:read` order feed, `trips:read` trip feed): the full key holds both and the write
 * scope the profile declares; a read key holds its own feed's scope and not the other's; the
 * noScopes key holds none.
 */
function scopePromises(profile: Profile): Partial<Record<KeyName, ScopePromise>> {
  return {
    full: { includes: ['orders:read', writeScopeOf(profile), 'trips:read'], excludes: [] },
    ordersRead: { includes: ['orders:read'], excludes: ['trips:read'] },
    tripsRead: { includes: ['trips:read'], excludes: ['orders:read'] },
    noScopes: { includes: [], excludes: [], exactlyNone: true },
  };
}

/** The scope catalog D2 decides. */
const decidedScopes = ['orders:read', 'orders:write', 'trips:read'];

/** True when `value` is an array of strings. */
function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The scopes a key's whoami reports with the exchange that showed them, or a finding saying why they cannot be read. */
async function scopesOf(ctx: CheckContext, key: KeyName): Promise<{ scopes: string[]; exchange: ExchangeRecord } | Finding> {
  const response = await ctx.http.request({ method: 'GET', path: whoamiPath, key });
  const scopes = (response.json as { scopes?: unknown } | undefined)?.scopes;
  if (response.status !== 200) return finding(`whoami with the ${key} key: ${describeExchange(response.exchange)}`, '200 with the key identity', `${response.status} ${show(response.json ?? response.text, 200)}`, response.exchange);
  if (!isStringArray(scopes)) return finding(`whoami with the ${key} key: scopes is not an array of strings`, 'scopes: an array of strings', `scopes: ${show(scopes)}`, response.exchange);
  return { scopes, exchange: response.exchange };
}

/** whoami with the full key answers 200 with a KeyIdentity body. */
export const whoamiShape: Check = {
  id: 'discovery.whoami.shape',
  family: 'discovery',
  title: 'whoami answers 200 with the key identity',
  verifies: ['int.whoami.response', 'int.identity.tenantId', 'int.identity.keyId', 'int.identity.scopes', 'int.versioning.prefix'],
  fix: "answer GET /api/v1/integration/whoami with 200 and the key's identity: tenantId and keyId as strings, scopes as an array of strings (int.whoami.response, int.identity.tenantId, int.identity.keyId, int.identity.scopes)",
  requires: ['key:full'],
  async run(ctx) {
    const response = await ctx.http.request({ method: 'GET', path: whoamiPath, key: 'full' });
    if (response.status !== 200) {
      return [finding(`whoami with the full key: ${describeExchange(response.exchange)}`, '200', `${response.status} ${show(response.json ?? response.text, 200)}`, response.exchange)];
    }
    // The seeds' Key identity: tenantId and keyId strings, scopes an array of strings.
    const errors = seedContractErrors('KeyIdentity', response.json, ctx.profile);
    if (errors.length === 0) return [];
    const received = errors.join('; ');
    return [finding('whoami body does not match KeyIdentity', 'tenantId (string), keyId (string), scopes (array of strings)', `${received} in ${show(response.json)}`, response.exchange)];
  },
};

/**
 * whoami of each discovery key of the profile reports the scopes the key's name promises. The
 * seeds name `orders:read` and `trips:read`; the write scope is the one the profile declares
 * (`choices.writeScope`, default D2's `orders:write`): that the full key holds it is the
 * profile's promise, and whether its name is D2's is discovery.whoami.scopeCatalog's rule.
 */
export const whoamiScopes: Check = {
  id: 'discovery.whoami.scopes',
  family: 'discovery',
  title: "whoami reports the scopes each profile key's name implies",
  verifies: ['int.identity.scopes'],
  fix: "report in whoami's scopes exactly the scopes granted to the key: orders:read and trips:read where granted, none that were not (int.identity.scopes)",
  requires: ['key:full'],
  async run(ctx) {
    const findings: Finding[] = [];
    for (const [key, promise] of Object.entries(scopePromises(ctx.profile)) as [KeyName, ScopePromise][]) {
      if (ctx.profile.keys[key] === undefined) continue;
      const answer = await scopesOf(ctx, key);
      if (!('scopes' in answer)) {
        findings.push(answer);
        continue;
      }
      const { scopes, exchange } = answer;
      const missing = promise.includes.filter((scope) => !scopes.includes(scope));
      const extra = promise.excludes.filter((scope) => scopes.includes(scope));
      if (missing.length > 0) findings.push(finding(`the ${key} key lacks scopes its name implies`, `scopes including ${promise.includes.join(', ')}`, show(scopes), exchange));
      if (extra.length > 0) findings.push(finding(`the ${key} key carries scopes its name excludes`, `scopes without ${promise.excludes.join(', ')}`, show(scopes), exchange));
      if (promise.exactlyNone && scopes.length > 0) findings.push(finding('the noScopes key carries scopes', '[]', show(scopes), exchange));
    }
    return findings;
  },
};

/**
 * whoami of each discovery key reports only scopes of D2's catalog (`orders:read`,
 * `orders:write`, `trips:read`): a target that names its write scope otherwise (and declares
 * it as `choices.writeScope`) departs from D2 here, and only here.
 */
export const whoamiScopeCatalog: Check = {
  id: 'discovery.whoami.scopeCatalog',
  family: 'discovery',
  title: "whoami reports only scopes of D2's catalog: orders:read, orders:write, trips:read",
  verifies: ['D2'],
  fix: 'grant and report only the scopes of the catalog: orders:read, orders:write and trips:read (D2)',
  requires: ['key:full'],
  async run(ctx) {
    const findings: Finding[] = [];
    for (const key of ['full', 'ordersRead', 'tripsRead', 'noScopes'] as const) {
      if (ctx.profile.keys[key] === undefined) continue;
      const answer = await scopesOf(ctx, key);
      // An unreadable whoami is discovery.whoami.scopes's finding.
      if (!('scopes' in answer)) continue;
      const outside = answer.scopes.filter((scope) => !decidedScopes.includes(scope));
      if (outside.length > 0) findings.push(finding(`the ${key} key carries scopes outside D2's catalog`, `scopes among ${decidedScopes.join(', ')}`, show(answer.scopes), answer.exchange));
    }
    return findings;
  },
};

/** The run's answers to contract operations (the control plane's are not the API's). */
function contractAnswers(ctx: CheckContext): ExchangeRecord[] {
  const exchanges = ctx.exchanges().filter((exchange) => exchange.channel !== 'sandbox' && exchange.operationId !== null && exchange.response !== null);
  if (exchanges.length === 0) ctx.skip('no exchange of this run matched an operation of spec/openapi.yaml');
  return exchanges;
}

/**
 * Run-level: every answer to a contract operation matches what the seeds fix: a status they
 * allow, JSON (problem+json on failures), the members, types, nullability and enums of the
 * Order, pages, Trip (read with the target's names, in the seeds' order), Key identity and
 * problem bodies, no `overridable`, at most 100 items a page, and `Retry-After` on a 429.
 */
export const responsesContract: Check = {
  id: 'discovery.responses.contract',
  family: 'discovery',
  title: "every answer of the run matches what the seeds fix (status, media type, body members and types, Retry-After on 429)",
  verifies: [
    'int.service.json',
    'int.endpoints.error-bodies',
    // The success status each operation answers with: the seeds' "Response 200: …" and "Response 204 …".
    'int.payment.response',
    'int.cancel.response',
    'int.archive.no-content',
    'int.whoami.response',
    'int.order.all-present',
    'int.order.id',
    'int.order.externalId',
    'int.order.shortId',
    'int.order.status',
    'int.order.miniStatus',
    'int.order.type',
    'int.order.customId',
    'int.order.createdAtUtc',
    'int.order.updatedAtUtc',
    'int.order.tags',
    'int.order-page.items',
    'int.order-page.nextCursor',
    'int.trip.members',
    'int.trip.status-name',
    'int.trip-page.items',
    'int.trip-page.nextCursor',
    'int.status.by-name',
    'int.identity.tenantId',
    'int.identity.keyId',
    'int.identity.scopes',
    'int.limits.page-size',
    'int.errors.problem-json',
    'int.errors.rate-limit-429',
    'int.errors.validation-body',
    'int.errors.validation-title',
    'int.errors.validation-status',
    'int.errors.validation-detail',
    'int.errors.validation-errors',
    'int.errors.no-overridable',
    'int.errors.field-error',
    'int.errors.field-error-code',
    'int.errors.field-error-value',
    'int.errors.field-error-message',
    'int.errors.other-bodies',
  ],
  fix: 'answer each operation with a status the seeds allow and a JSON body holding every member of its schema, of its type and nullability (problem+json on failures), and Retry-After on a 429 (int.service.json, int.order.all-present, int.errors.problem-json, int.errors.rate-limit-429)',
  requires: [],
  after: 'all',
  async run(ctx) {
    return contractAnswers(ctx).flatMap((exchange) => seedResponseViolations(exchange, ctx.profile));
  },
};

/**
 * Run-level: every answer to a contract operation has the shape spec/openapi.yaml decides, as
 * far as it goes beyond the seeds: the statuses each operation declares (415, 408, 413 only on the writes: D17, D18), D15's trip
 * names and uuids, D20's millisecond timestamps, D6's non-empty cursor, D23's X-Request-Id,
 * D14's RateLimit-* and whole-second Retry-After, D13's Idempotent-Replayed, D3's 401 and 403
 * bodies and WWW-Authenticate. What discovery.responses.contract reports for the same answer
 * is left out, so a seed breakage is not a departure from a decision too.
 */
export const responsesDecided: Check = {
  id: 'discovery.responses.decided',
  family: 'discovery',
  title: 'every answer of the run has the shape spec/openapi.yaml decides (trip names, millisecond timestamps, request id, rate-limit headers, 401/403 bodies)',
  verifies: ['D3', 'D6', 'D13', 'D14', 'D15', 'D17', 'D18', 'D20', 'D23'],
  fix: "answer each operation as spec/openapi.yaml decides beyond the seeds: X-Request-Id and RateLimit-* on every answer, millisecond UTC timestamps, the trip's members by D15, a non-empty cursor and D3's 401 and 403 bodies (D23, D14, D20, D15, D6, D3)",
  requires: [],
  after: 'all',
  async run(ctx) {
    return contractAnswers(ctx).flatMap((exchange) => decidedResponseViolations(exchange, ctx.profile));
  },
};

/** The discovery family, in the order it runs. */
export const discoveryChecks: Check[] = [whoamiShape, whoamiScopes, whoamiScopeCatalog, responsesContract, responsesDecided, timestampsDecided];
