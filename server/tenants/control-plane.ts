/** Tenants (D22, D31, D32) and their API keys (D2, D14, D33). */
import type { components } from '../../spec/sandbox-types.ts';
import type { Store } from '../store/index.ts';
import type { TenantState } from './store.ts';
import { refuse } from '../domain/refusal.ts';
import { normalizeSkills } from './skills.ts';
import { type LifecycleMove, nextState } from './lifecycle.ts';
import { bodyOf, type Handler, paramsOf, queryOf, sendJson } from '../control-plane/respond.ts';

/** Handlers of the tenant and key operations. */
export function makeTenantHandlers(store: Store): Record<string, Handler> {
  // The tenant scope (scope.ts) made sure the tenant exists.
  const tenantOf = async (res: Parameters<Handler>[1]) => (await store.tenants.get(paramsOf(res)['tenantId']!))!;
  const lifecycle = (move: LifecycleMove): Handler => async (_req, res) => {
    const tenant = await tenantOf(res);
    await store.tenants.setState(tenant.id, nextState(tenant.state, move));
    sendJson(res, 200, await tenantOf(res));
  };

  return {
    async listTenants(_req, res) {
      const { state } = queryOf<{ state?: TenantState }>(res);
      sendJson(res, 200, { items: (await store.tenants.list()).filter((tenant) => state === undefined || tenant.state === state) });
    },
    // requirement: D32
    async createTenant(_req, res) {
      const body = bodyOf<components['schemas']['NewTenant']>(res);
      const skills = normalizeSkills(body.skills ?? []);
      const tenant = await store.tenants.create({ name: body.name ?? 'Sandbox tenant', country: body.country });
      if (skills.length > 0) await store.tenants.setSkills(tenant.id, skills);
      sendJson(res, 201, await store.tenants.get(tenant.id));
    },
    async getTenant(_req, res) {
      sendJson(res, 200, await tenantOf(res));
    },
    suspendTenant: lifecycle('suspend'),
    reactivateTenant: lifecycle('reactivate'),
    archiveTenant: lifecycle('archive'),
    async setTenantSkills(_req, res) {
      const tenant = await tenantOf(res);
      await store.tenants.setSkills(tenant.id, normalizeSkills(bodyOf<components['schemas']['SkillsRequest']>(res).skills));
      sendJson(res, 200, await tenantOf(res));
    },
    async listApiKeys(_req, res) {
      sendJson(res, 200, { items: await store.keys.list((await tenantOf(res)).id) });
    },
    // requirement: int.auth.key-rules
    // requirement: D33
    async createApiKey(_req, res) {
      const body = bodyOf<components['schemas']['NewApiKey']>(res);
      const created = await store.keys.create({
        tenantId: (await tenantOf(res)).id,
        name: body.name,
        scopes: [...new Set(body.scopes)],
        ...(body.rateLimitPerMinute === undefined ? {} : { rateLimit: body.rateLimitPerMinute }),
      });
      sendJson(res, 201, created);
    },
    // requirement: int.auth.key-rules
    // requirement: int.auth.revoked
    // requirement: cat.apikeys
    async revokeApiKey(_req, res) {
      const tenantId = (await tenantOf(res)).id;
      const keyId = paramsOf(res)['keyId']!;
      const key = (await store.keys.get(tenantId, keyId)) ?? refuse('apikeys.not_found', `No key ${keyId} in the tenant.`);
      if (key.revokedAtUtc !== null) refuse('apikeys.already_revoked', `Key ${keyId} was revoked at ${key.revokedAtUtc}.`);
      await store.keys.revoke(tenantId, keyId);
      sendJson(res, 200, await store.keys.get(tenantId, keyId));
    },
  };
}
