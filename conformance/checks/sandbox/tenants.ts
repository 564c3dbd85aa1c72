/**
 * Sandbox, tenants and keys: the control plane's tenant rules (country, state filter, skills),
 * a tenant's moves and what a locked tenant refuses (D31), its API-key rules, and an archived
 * tenant's integration writes (refused, a catalog rule) and reads (kept, D22). Each check
 * builds its own tenant through the control plane.
 */
import { describeExchange, finding } from '../../engine/findings.ts';
import type { Check, CheckContext } from '../../engine/types/check.ts';
import { type ControlPlane, intake, onControlPlane } from '../support/control-plane.ts';
import { paths, paymentBody, received } from '../support/order-requests.ts';

/** Country required and ISO 3166-1 alpha-2; the lifecycle state filter. */
export const tenantRules: Check = {
  id: 'sandbox.tenants',
  family: 'sandbox',
  title: 'a tenant without country, or with one that is not an ISO alpha-2 code, and an unknown state filter are refused with their tenants.* codes',
  verifies: ['D32'],
  fix: 'refuse a tenant without country, or with one that is not an ISO 3166 alpha-2 code, and an unknown state filter, each with its tenants.* code (D32)',
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
  fix: 'refuse a blank or over-64-character skill, a skill repeated in another case and more than 100 skills, each with its tenants.skills.* code (int.limits.skills)',
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

/** Key name, scopes, a rate limit not positive; revoking an unknown or a revoked key (the maximum's value is D14's: sandbox.apikeys.maximum). */
export const apiKeyRules: Check = {
  id: 'sandbox.apikeys',
  family: 'sandbox',
  title: 'a key without name, with a scope outside the catalog or a rate limit that is not positive is refused; revoking an unknown key is 404 and a revoked one 409',
  verifies: ['int.auth.key-rules', 'cat.apikeys'],
  fix: 'refuse a key without a name, with a scope outside the catalog or a rate limit that is not positive, answer the revoke of an unknown key with 404 and of a revoked key with 409 apikeys.already_revoked (int.auth.key-rules, cat.apikeys)',
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
    const absent = `waybill-absent-${Math.floor(ctx.random() * 2 ** 48).toString(36)}`;
    await plane.expect({ what: 'revoking a key id nobody issued', code: 'apikeys.not_found', request: { method: 'POST', path: `${tenant}/keys/${absent}/revoke` } });
    const keyId = await plane.needId('creating a key without scopes', create({ name: 'waybill revoked twice', scopes: [] }));
    const revoke = { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(keyId)}/revoke` };
    await plane.need('revoking the key', revoke);
    await plane.expect({ what: 'revoking the key a second time', code: 'apikeys.already_revoked', request: revoke });
  }),
};

/** A rate limit above D14's maximum of 6000 per minute: 400 apikeys.rate_limit_above_max. */
export const apiKeyMaximum: Check = {
  id: 'sandbox.apikeys.maximum',
  family: 'sandbox',
  title: 'a key with a rate limit of 6001 per minute, above the maximum of 6000, is refused 400 apikeys.rate_limit_above_max',
  verifies: ['D14', 'D33'],
  fix: 'refuse a rate limit above 6000 a minute with 400 apikeys.rate_limit_above_max (D14, D33)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    await plane.expect({ what: 'a key with rateLimitPerMinute 6001', code: 'apikeys.rate_limit_above_max', field: 'rateLimitPerMinute', request: { method: 'POST', path: `${tenant}/keys`, body: { name: 'waybill', scopes: [], rateLimitPerMinute: 6001 } } });
  }),
};

/**
 * A tenant's moves (D31): created Active; suspend, reactivate and archive, a repeated move
 * answered 200 and changing nothing; a Suspended or Archived tenant's control-plane writes
 * refused with its state's code while revoking a key stays open; an Archived tenant cannot move.
 */
export const tenantLifecycle: Check = {
  id: 'sandbox.tenants.lifecycle',
  family: 'sandbox',
  title: "a tenant is created Active; suspend, reactivate and archive move it, a repeated move answers 200; a locked tenant's writes are refused but a key can be revoked; an archived tenant cannot move",
  verifies: ['D31'],
  fix: "create a tenant Active, move it by suspend, reactivate and archive (a repeated move answering 200), refuse a locked tenant's writes but let its keys be revoked, and move an archived tenant no more (D31)",
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const created = await plane.need('creating a tenant', { method: 'POST', path: '/tenants', body: { name: plane.tenantName, country: 'NL' } });
    const tenant = `/tenants/${encodeURIComponent(String(created['id']))}`;
    const inState = async (what: string, request: { method: string; path: string; body?: unknown }, state: string, body?: Record<string, unknown>) => {
      const answer = body ?? (await plane.need(what, request));
      if (answer['state'] !== state) plane.findings.push(finding(`${what}: the tenant is not ${state}`, `state ${state}`, `state ${JSON.stringify(answer['state'] ?? null)}`));
    };
    await inState('creating a tenant', { method: 'POST', path: '/tenants' }, 'Active', created);
    const move = (to: string) => ({ method: 'POST', path: `${tenant}/${to}` });
    const key = (await plane.needId('creating a key', { method: 'POST', path: `${tenant}/keys`, body: { name: 'waybill lifecycle', scopes: [] } })) as string;
    const tag = (name: string) => ({ method: 'POST', path: `${tenant}/tags`, body: { name, color: '#41EEBA' } });
    await inState('suspending the tenant', move('suspend'), 'Suspended');
    await inState('suspending the suspended tenant again', move('suspend'), 'Suspended');
    await plane.expect({ what: "a tag of the suspended tenant", code: 'tenants.tenant.suspended', request: tag('Fragile') });
    await plane.expect({ what: 'an order of the suspended tenant', code: 'tenants.tenant.suspended', request: { method: 'POST', path: `${tenant}/orders`, body: intake('WAYBILL-LOCKED-1') } });
    await plane.need("revoking a key of the suspended tenant (revoking stays open)", { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(key)}/revoke` });
    await inState('reactivating the tenant', move('reactivate'), 'Active');
    await inState('reactivating the active tenant again', move('reactivate'), 'Active');
    await inState('archiving the tenant', move('archive'), 'Archived');
    for (const to of ['reactivate', 'suspend', 'archive']) await plane.expect({ what: `the move ${to} of the archived tenant`, code: 'tenants.tenant.archived', request: move(to) });
    await plane.expect({ what: 'a tag of the archived tenant', code: 'tenants.tenant.archived', request: tag('Fragile') });
  }),
};

/** A fresh tenant with an order and a key, then archived: the key's secret, id and the order's external id. */
async function archivedTenant(plane: ControlPlane, scopes: string[]): Promise<{ tenant: string; keyId: string; secret: string; externalId: string }> {
  const tenant = await plane.tenant();
  const created = await plane.need('creating a key', { method: 'POST', path: `${tenant}/keys`, body: { name: 'waybill archived tenant', scopes } });
  const { id: keyId, secret } = created;
  if (typeof keyId !== 'string' || typeof secret !== 'string') return plane.stop(finding('creating a key (needed by this check): the answer has no id and secret', 'a CreatedApiKey with id and secret', 'no id or secret'));
  const externalId = 'WAYBILL-ARCHIVED-1';
  await plane.order(tenant, externalId);
  await plane.need('archiving the tenant', { method: 'POST', path: `${tenant}/archive` });
  return { tenant, keyId, secret, externalId };
}

/** Revokes the key a check made: its secret is in the run's records (revocation stays open in an archived tenant, D31). */
async function revokeOwnKey(plane: ControlPlane, tenant: string, keyId: string): Promise<void> {
  await plane.need('revoking the key this check made', { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(keyId)}/revoke` });
}

/** An archived tenant's payment, cancel and archive through the integration API: 409 tenants.tenant.archived. */
export const archivedTenantWrites: Check = {
  id: 'sandbox.tenant.archived',
  family: 'sandbox',
  title: "an archived tenant's payment, cancel and archive answer 409 tenants.tenant.archived",
  verifies: ['cat.tenants.archived', 'int.errors.problem-json'],
  fix: 'refuse every payment, cancel and archive of an archived tenant with 409 tenants.tenant.archived as a problem body (cat.tenants.archived, int.errors.problem-json)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane, ctx) => {
    const { tenant, keyId, secret, externalId } = await archivedTenant(plane, [writeScopeOf(ctx)]);
    const writes = [
      { what: 'a payment on an order of the archived tenant', request: { method: 'POST', path: paths.payment(externalId), body: paymentBody() } },
      { what: 'a cancel of an order of the archived tenant', request: { method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance' } } },
      { what: 'an archive of an order of the archived tenant', request: { method: 'DELETE', path: paths.archive(externalId) } },
    ];
    for (const { what, request } of writes) await plane.expect({ what, code: 'tenants.tenant.archived', via: ctx.http, request: { ...request, key: secret } });
    await revokeOwnKey(plane, tenant, keyId);
  }),
};

/** An archived tenant's key still reads: whoami answers 200 (D22). */
export const archivedTenantReads: Check = {
  id: 'sandbox.tenant.archived.reads',
  family: 'sandbox',
  title: "an archived tenant's key still reads: whoami answers 200",
  verifies: ['D22'],
  fix: "keep answering an archived tenant's keys on reads: whoami answers 200 (D22)",
  requires: ['sandbox'],
  run: onControlPlane(async (plane, ctx) => {
    const { tenant, keyId, secret } = await archivedTenant(plane, []);
    const whoami = await ctx.http.request({ method: 'GET', path: paths.whoami, key: secret });
    if (whoami.status !== 200) plane.findings.push(finding(`whoami with a key of the archived tenant: ${describeExchange(whoami.exchange)}`, '200 (reads keep working)', received(whoami), whoami.exchange));
    await revokeOwnKey(plane, tenant, keyId);
  }),
};

/** The scope the target's writes need (`profile.choices.writeScope`, D2's `orders:write` by default). */
function writeScopeOf(ctx: CheckContext): string {
  return ctx.profile.choices?.writeScope ?? 'orders:write';
}

/** The tenants and keys checks. */
export const sandboxTenantChecks: Check[] = [tenantRules, tenantSkills, tenantLifecycle, apiKeyRules, apiKeyMaximum, archivedTenantWrites, archivedTenantReads];
