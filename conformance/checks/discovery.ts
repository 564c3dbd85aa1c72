/**
 * Discovery: what a key resolves to (whoami), and whether every answer of the run matches the
 * responses spec/openapi.yaml declares for its operation.
 */
import { validateSchema } from '../../spec/load.ts';
import { describeExchange, finding, show } from '../findings.ts';
import type { Check, CheckContext, ExchangeRecord, Finding, KeyName } from '../types.ts';
import { responseViolations } from './support/response-contract.ts';

const whoamiPath = '/api/v1/integration/whoami';

/** What each profile key's name promises about its scopes (DESIGN.md profile; D2 scope catalog). */
const scopePromises: Partial<Record<KeyName, { includes: string[]; excludes: string[]; exactlyNone?: true }>> = {
  full: { includes: ['orders:read', 'orders:write', 'trips:read'], excludes: [] },
  ordersRead: { includes: ['orders:read'], excludes: ['trips:read'] },
  tripsRead: { includes: ['trips:read'], excludes: ['orders:read'] },
  noScopes: { includes: [], excludes: [], exactlyNone: true },
};

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
  verifies: ['int.whoami.response', 'int.identity.tenantId', 'int.identity.keyId', 'int.versioning.prefix'],
  requires: ['key:full'],
  async run(ctx) {
    const response = await ctx.http.request({ method: 'GET', path: whoamiPath, key: 'full' });
    if (response.status !== 200) {
      return [finding(`whoami with the full key: ${describeExchange(response.exchange)}`, '200', `${response.status} ${show(response.json ?? response.text, 200)}`, response.exchange)];
    }
    // KeyIdentity requires tenantId and keyId as strings and scopes as an array of strings.
    const errors = validateSchema('KeyIdentity', response.json);
    if (errors.length === 0) return [];
    const received = errors.map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`).join('; ');
    return [finding('whoami body does not match KeyIdentity', 'tenantId (string), keyId (string), scopes (array of strings)', `${received} in ${show(response.json)}`, response.exchange)];
  },
};

/** whoami of each discovery key of the profile reports the scopes the key's name promises. */
export const whoamiScopes: Check = {
  id: 'discovery.whoami.scopes',
  family: 'discovery',
  title: "whoami reports the scopes each profile key's name implies",
  verifies: ['int.identity.scopes'],
  requires: ['key:full'],
  async run(ctx) {
    const findings: Finding[] = [];
    for (const [key, promise] of Object.entries(scopePromises) as [KeyName, NonNullable<(typeof scopePromises)[KeyName]>][]) {
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

/** Run-level: every answer to a contract operation matches a response the operation declares. */
export const responsesSchema: Check = {
  id: 'discovery.responses.schema',
  family: 'discovery',
  title: 'every answer of the run matches its declared response (status, media type, body schema, headers)',
  verifies: ['int.service.json'],
  requires: [],
  after: 'all',
  async run(ctx) {
    const exchanges = ctx.exchanges().filter((exchange) => exchange.channel !== 'sandbox' && exchange.operationId !== null && exchange.response !== null);
    if (exchanges.length === 0) ctx.skip('no exchange of this run matched an operation of spec/openapi.yaml');
    return exchanges.flatMap(responseViolations);
  },
};

/** The discovery family, in the order it runs. */
export const discoveryChecks: Check[] = [whoamiShape, whoamiScopes, responsesSchema];
