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
  const tenantOf = (res: Parameters<Handler>[1]) => store.tenants.get(paramsOf(res)['tenantId']!)!;
  const lifecycle = (move: LifecycleMove): Handler => (_req, res) => {
    const tenant = tenantOf(res);
    store.tenants.setState(tenant.id, nextState(tenant.state, move));
    sendJson(res, 200, tenantOf(res));
  };

  return {
    listTenants(_req, res) {
      const { state } = queryOf<{ state?: TenantState }>(res);
      sendJson(res, 200, { items: store.tenants.list().filter((tenant) => state === undefined || tenant.state === state) });
    },
    // requirement: D32
    createTenant(_req, res) {
      const body = bodyOf<components['schemas']['NewTenant']>(res);
      const skills = normalizeSkills(body.skills ?? []);
      const tenant = store.tenants.create({ name: body.name ?? 'Sandbox tenant', country: body.country });
      if (skills.length > 0) store.tenants.setSkills(tenant.id, skills);
      sendJson(res, 201, store.tenants.get(tenant.id));
    },
    getTenant(_req, res) {
      sendJson(res, 200, tenantOf(res));
    },
    suspendTenant: lifecycle('suspend'),
    reactivateTenant: lifecycle('reactivate'),
    archiveTenant: lifecycle('archive'),
    setTenantSkills(_req, res) {
      const tenant = tenantOf(res);
      store.tenants.setSkills(tenant.id, normalizeSkills(bodyOf<components['schemas']['SkillsRequest']>(res).skills));
      sendJson(res, 200, tenantOf(res));
    },
    listApiKeys(_req, res) {
      sendJson(res, 200, { items: store.keys.list(tenantOf(res).id) });
    },
    // requirement: int.auth.key-rules
    // requirement: D33
    createApiKey(_req, res) {
      const body = bodyOf<components['schemas']['NewApiKey']>(res);
      const created = store.keys.create({
        tenantId: tenantOf(res).id,
        name: body.name,
        scopes: [...new Set(body.scopes)],
        ...(body.rateLimitPerMinute === undefined ? {} : { rateLimit: body.rateLimitPerMinute }),
      });
      sendJson(res, 201, created);
    },
    // requirement: int.auth.key-rules
    // requirement: int.auth.revoked
    // requirement: cat.apikeys
    revokeApiKey(_req, res) {
      const tenantId = tenantOf(res).id;
      const keyId = paramsOf(res)['keyId']!;
      const key = store.keys.get(tenantId, keyId) ?? refuse('apikeys.not_found', `No key ${keyId} in the tenant.`);
      if (key.revokedAtUtc !== null) refuse('apikeys.already_revoked', `Key ${keyId} was revoked at ${key.revokedAtUtc}.`);
      store.keys.revoke(tenantId, keyId);
      sendJson(res, 200, store.keys.get(tenantId, keyId));
    },
  };
}
