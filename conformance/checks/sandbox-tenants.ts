/**
 * Sandbox, tenants and keys: the control plane's tenant rules (country, state filter, skills),
 * its API-key rules, and an archived tenant's integration writes (D22). Each check builds its
 * own tenant through the control plane.
 */
import { describeExchange, finding } from '../findings.ts';
import type { Check } from '../types.ts';
import { onControlPlane } from './support/control-plane.ts';
import { paths, paymentBody, received } from './support/order-requests.ts';

/** Country required and ISO 3166-1 alpha-2; the lifecycle state filter. */
export const tenantRules: Check = {
  id: 'sandbox.tenants',
  family: 'sandbox',
  title: 'a tenant without country, or with one that is not an ISO alpha-2 code, and an unknown state filter are refused with their tenants.* codes',
  verifies: ['D32'],
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    await plane.expect({ what: 'a tenant without country', code: 'tenants.country.required', field: 'country', request: { method: 'POST', path: '/tenants', body: { name: 'waybill conformance' } } });
    await plane.expect({ what: 'a tenant with country ""', code: 'tenants.country.required', field: 'country', request: { method: 'POST', path: '/tenants', body: { country: '' } } });
    for (const country of ['NLD', 'nl', 'XX']) {
      await plane.expect({ what: `a tenant with country ${country}`, code: 'tenants.country.invalid', field: 'country', request: { method: 'POST', path: '/tenants', body: { country } } });
    }
    await plane.expect({ what: 'the tenant list filtered on state Deleted', code: 'tenants.lifecycle.state.invalid', field: 'state', request: { method: 'GET', path: '/tenants', query: { state: 'Deleted' } } });
  }),
};

/** Skills: 1 to 64 characters and non-blank, unique case-insensitively, at most 100. */
export const tenantSkills: Check = {
  id: 'sandbox.tenants.skills',
  family: 'sandbox',
  title: 'a blank or 65-character skill, a skill repeated in another case, and 101 skills are refused with their tenants.skills.* codes',
  verifies: ['int.limits.skills'],
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const skills = `${await plane.tenant()}/skills`;
    const put = (list: string[]) => ({ method: 'PUT', path: skills, body: { skills: list } });
    await plane.expect({ what: 'the skills ["Cold chain", "   "]', code: 'tenants.skills.value.invalid', field: 'skills[1]', request: put(['Cold chain', '   ']) });
    await plane.expect({ what: 'a skill of 65 characters', code: 'tenants.skills.value.invalid', field: 'skills[0]', request: put(['x'.repeat(65)]) });
    await plane.expect({ what: 'the skills ["Cold chain", "cold CHAIN"]', code: 'tenants.skills.duplicate', field: 'skills[1]', request: put(['Cold chain', 'cold CHAIN']) });
    await plane.expect({ what: '101 skills', code: 'tenants.skills.too_many', field: 'skills', request: put(Array.from({ length: 101 }, (_, i) => `Skill ${i}`)) });
  }),
};

/** Key name, scopes, rate limit; revoking an unknown or a revoked key. */
export const apiKeyRules: Check = {
  id: 'sandbox.apikeys',
  family: 'sandbox',
  title: 'a key without name, with a scope outside the catalog or a rate limit out of range is refused; revoking an unknown key is 404 and a revoked one 409',
  verifies: ['int.auth.key-rules', 'cat.apikeys'],
  requires: ['sandbox'],
  run: onControlPlane(async (plane, ctx) => {
    const tenant = await plane.tenant();
    const create = (body: Record<string, unknown>) => ({ method: 'POST', path: `${tenant}/keys`, body });
    await plane.expect({ what: 'a key without name', code: 'apikeys.name_required', field: 'name', request: create({ scopes: [] }) });
    await plane.expect({ what: 'a key named "  "', code: 'apikeys.name_required', field: 'name', request: create({ name: '  ', scopes: [] }) });
    await plane.expect({ what: 'a key with the scope orders:delete', code: 'apikeys.invalid_scope', field: 'scopes[1]', request: create({ name: 'waybill', scopes: ['orders:read', 'orders:delete'] }) });
    for (const rateLimitPerMinute of [0, -1]) {
      await plane.expect({ what: `a key with rateLimitPerMinute ${rateLimitPerMinute}`, code: 'apikeys.invalid_rate_limit', field: 'rateLimitPerMinute', request: create({ name: 'waybill', scopes: [], rateLimitPerMinute }) });
    }
    await plane.expect({ what: 'a key with rateLimitPerMinute 6001', code: 'apikeys.rate_limit_above_max', field: 'rateLimitPerMinute', request: create({ name: 'waybill', scopes: [], rateLimitPerMinute: 6001 }) });
    const absent = `waybill-absent-${Math.floor(ctx.random() * 2 ** 48).toString(36)}`;
    await plane.expect({ what: 'revoking a key id nobody issued', code: 'apikeys.not_found', request: { method: 'POST', path: `${tenant}/keys/${absent}/revoke` } });
    const keyId = await plane.needId('creating a key without scopes', create({ name: 'waybill revoked twice', scopes: [] }));
    const revoke = { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(keyId)}/revoke` };
    await plane.need('revoking the key', revoke);
    await plane.expect({ what: 'revoking the key a second time', code: 'apikeys.already_revoked', request: revoke });
  }),
};

/** An archived tenant's payment, cancel and archive through the integration API: 409 tenants.tenant.archived; whoami still 200. */
export const archivedTenant: Check = {
  id: 'sandbox.tenant.archived',
  family: 'sandbox',
  title: "an archived tenant's payment, cancel and archive answer 409 tenants.tenant.archived, and its key still reads (whoami)",
  verifies: ['cat.tenants.archived'],
  requires: ['sandbox'],
  run: onControlPlane(async (plane, ctx) => {
    const tenant = await plane.tenant();
    const created = await plane.need('creating an orders:write key', { method: 'POST', path: `${tenant}/keys`, body: { name: 'waybill archived tenant', scopes: ['orders:write'] } });
    const { id: keyId, secret } = created;
    if (typeof keyId !== 'string' || typeof secret !== 'string') return plane.stop(finding('creating an orders:write key (needed by this check): the answer has no id and secret', 'a CreatedApiKey with id and secret', 'no id or secret'));
    const externalId = 'WAYBILL-ARCHIVED-1';
    await plane.order(tenant, externalId);
    await plane.need('archiving the tenant', { method: 'POST', path: `${tenant}/archive` });
    const writes = [
      { what: 'a payment on an order of the archived tenant', request: { method: 'POST', path: paths.payment(externalId), body: paymentBody() } },
      { what: 'a cancel of an order of the archived tenant', request: { method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance' } } },
      { what: 'an archive of an order of the archived tenant', request: { method: 'DELETE', path: paths.archive(externalId) } },
    ];
    for (const { what, request } of writes) await plane.expect({ what, code: 'tenants.tenant.archived', via: ctx.http, request: { ...request, key: secret } });
    const whoami = await ctx.http.request({ method: 'GET', path: paths.whoami, key: secret });
    if (whoami.status !== 200) plane.findings.push(finding(`whoami with a key of the archived tenant: ${describeExchange(whoami.exchange)}`, '200 (reads keep working)', received(whoami), whoami.exchange));
    // The secret is in the run's records, so the key is revoked before the check ends (revocation stays open, D31).
    await plane.need('revoking the key this check made', { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(keyId)}/revoke` });
  }),
};

/** The tenants and keys checks. */
export const sandboxTenantChecks: Check[] = [tenantRules, tenantSkills, apiKeyRules, archivedTenant];
