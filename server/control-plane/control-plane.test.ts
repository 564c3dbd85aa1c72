/** Tenants, keys, the directory, reset and routing of the control plane. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryStore, orderIntake, type RunningServer, sandboxClient, type SandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let api: SandboxClient;

beforeAll(async () => {
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

const ALL_SCOPES = ['orders:read', 'orders:write', 'trips:read'];

async function tenantWithKey(): Promise<{ base: string; tenantId: string; key: string; keyId: string }> {
  const tenantId = (await api('createTenant', '/tenants', { json: { name: 'Acme', country: 'NL', skills: [' Cold chain ', 'Lift'] } })).body.id;
  const base = `/tenants/${tenantId}`;
  const created = await api('createApiKey', `${base}/keys`, { json: { name: 'erp', scopes: [...ALL_SCOPES, 'orders:read'] } });
  return { base, tenantId, key: created.body.secret, keyId: created.body.id };
}

describe('tenants (D22, D31, D32)', () => {
  it('creates an Active tenant with trimmed skills and lists it by state', async () => {
    const { base, tenantId } = await tenantWithKey();
    const tenant = (await api('getTenant', base)).body;
    expect(tenant).toMatchObject({ id: tenantId, name: 'Acme', country: 'NL', state: 'Active', skills: ['Cold chain', 'Lift'] });
    expect((await api('listTenants', '/tenants?state=Active')).body.items.map((t: { id: string }) => t.id)).toContain(tenantId);
    expect((await api('listTenants', '/tenants?state=Suspended')).body.items.map((t: { id: string }) => t.id)).not.toContain(tenantId);
    expect((await api('setTenantSkills', `${base}/skills`, { json: { skills: [] } })).body.skills).toEqual([]);
  });

  it('suspends (idempotently), reactivates and archives, refusing writes while locked and keeping reads', async () => {
    const { base, key } = await tenantWithKey();
    await api('createOrder', `${base}/orders`, { json: orderIntake('SHOP-1') });
    expect((await api('suspendTenant', `${base}/suspend`)).body.state).toBe('Suspended');
    expect((await api('suspendTenant', `${base}/suspend`)).body.state).toBe('Suspended');
    const write = await call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/SHOP-1/cancel', { method: 'POST', key });
    expect(write.body.type).toBe('tenants.tenant.suspended');
    expect((await call(server.url, 'orderFeed', '/api/v1/integration/orders', { key })).body.items).toHaveLength(1);
    for (const refused of [
      await api('createTag', `${base}/tags`, { json: { name: 'A', color: '#000000' } }),
      await api('setTenantSkills', `${base}/skills`, { json: { skills: ['x'] } }),
      await api('createApiKey', `${base}/keys`, { json: { name: 'k', scopes: [] } }),
    ]) {
      expect(refused.status).toBe(409);
      expect(refused.body.type).toBe('tenants.tenant.suspended');
    }
    expect((await api('listTags', `${base}/tags`)).status).toBe(200);
    expect((await api('reactivateTenant', `${base}/reactivate`)).body.state).toBe('Active');
    expect((await call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/SHOP-1/cancel', { method: 'POST', key })).status).toBe(200);
    expect((await api('archiveTenant', `${base}/archive`)).body.state).toBe('Archived');
    expect((await api('archiveTenant', `${base}/archive`)).body.type).toBe('tenants.tenant.archived');
    expect((await api('suspendTenant', `${base}/suspend`)).body.type).toBe('tenants.tenant.archived');
    expect((await api('createOrder', `${base}/orders`, { json: orderIntake('SHOP-2') })).body.type).toBe('tenants.tenant.archived');
  });

  it('answers 404 about:blank for an unknown tenant (D30)', async () => {
    const answer = await api('getTenant', '/tenants/00000000-0000-4000-8000-000000000000');
    expect(answer.status).toBe(404);
    expect(answer.body.type).toBe('about:blank');
  });
});

describe('API keys (D2, D14, D33)', () => {
  it('shows the secret once, lists keys without it, and revokes for good, even on a suspended tenant', async () => {
    const { base, key, keyId, tenantId } = await tenantWithKey();
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key })).body).toEqual({ tenantId, keyId, scopes: ALL_SCOPES });
    const listed = await api('listApiKeys', `${base}/keys`);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: keyId, name: 'erp', scopes: ALL_SCOPES, rateLimitPerMinute: 600, revokedAtUtc: null })]);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    await api('suspendTenant', `${base}/suspend`);
    const revoked = await api('revokeApiKey', `${base}/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAtUtc).not.toBeNull();
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key })).status).toBe(401);
  });

  it('takes a rate limit from 1 to 6000 and applies it', async () => {
    const { base } = await tenantWithKey();
    for (const rateLimitPerMinute of [1, 6000]) {
      expect((await api('createApiKey', `${base}/keys`, { json: { name: 'k', scopes: [], rateLimitPerMinute } })).status).toBe(201);
    }
    const slow = (await api('createApiKey', `${base}/keys`, { json: { name: 'slow', scopes: [], rateLimitPerMinute: 1 } })).body.secret;
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: slow })).status).toBe(200);
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: slow })).body.type).toBe('api.rate_limited');
    expect((await api('createApiKey', `${base}/keys`, { json: { name: 'k', scopes: [], rateLimitPerMinute: 2.5 } })).body.type).toBe('apikeys.invalid_rate_limit');
  });
});

describe('tags and mini-statuses (D34, D35)', () => {
  it('creates, renames and recolours tags, and orders carry only tags of the tenant', async () => {
    const { base } = await tenantWithKey();
    const fragile = (await api('createTag', `${base}/tags`, { json: { name: 'Fragile', color: '#41EEBA' } })).body;
    const express = (await api('createTag', `${base}/tags`, { json: { name: 'Express', color: '#C6BDF8' } })).body;
    expect((await api('updateTag', `${base}/tags/${express.id}`, { json: { name: 'fragile' } })).body.type).toBe('tags.duplicate');
    expect((await api('updateTag', `${base}/tags/${fragile.id}`, { json: { name: 'FRAGILE', color: '#000000' } })).body).toEqual({ ...fragile, name: 'FRAGILE', color: '#000000' });
    expect((await api('listTags', `${base}/tags`)).body.items.map((tag: { name: string }) => tag.name)).toEqual(['Express', 'FRAGILE']);
    const order = await api('createOrder', `${base}/orders`, { json: orderIntake('TAGGED', { tags: [fragile.id] }) });
    expect(order.body.tags).toEqual([fragile.id]);
    const unknown = await api('createOrder', `${base}/orders`, { json: orderIntake('TAGGED-2', { tags: [fragile.id, '00000000-0000-4000-8000-000000000000'] }) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toBe('tags.notFound');
  });

  it('sets a mini-status from the active directory of the order status, and stamps the order', async () => {
    const { base, key } = await tenantWithKey();
    const order = (await api('createOrder', `${base}/orders`, { json: orderIntake('LABEL') })).body;
    const entry = (await api('createMiniStatus', `${base}/ministatuses`, { json: { status: 'New', name: 'Awaiting stock' } })).body;
    await api('createMiniStatus', `${base}/ministatuses`, { json: { status: 'Planned', name: 'Awaiting stock' } });
    const labelled = await api('setOrderMiniStatus', `${base}/orders/${order.id}/mini-status`, { json: { miniStatus: 'awaiting stock' } });
    expect(labelled.body.miniStatus).toBe('Awaiting stock');
    expect(labelled.body.updatedAtUtc > order.updatedAtUtc).toBe(true);
    expect((await call(server.url, 'orderFeed', '/api/v1/integration/orders', { key })).body.items[0].miniStatus).toBe('Awaiting stock');
    expect((await api('deactivateMiniStatus', `${base}/ministatuses/${entry.id}`)).status).toBe(204);
    expect((await api('deactivateMiniStatus', `${base}/ministatuses/${entry.id}`)).body.type).toBe('ministatuses.notFound');
    expect((await api('setOrderMiniStatus', `${base}/orders/${order.id}/mini-status`, { json: { miniStatus: 'Awaiting stock' } })).body.type).toBe('orders.miniStatus.unknown');
    expect((await api('createMiniStatus', `${base}/ministatuses`, { json: { status: 'New', name: 'Awaiting stock' } })).status).toBe(201);
    expect((await api('listMiniStatuses', `${base}/ministatuses`)).body.items.map((e: { status: string; active: boolean }) => `${e.status}:${e.active}`)).toEqual([
      'New:false',
      'New:true',
      'Planned:true',
    ]);
  });
});

describe('reset and routing', () => {
  it('answers 405 with Allow for a known path under another method, and 404 for an unknown one (D21)', async () => {
    const wrong = await fetch(`${server.url}/sandbox/v1/tenants`, { method: 'DELETE', headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST, HEAD');
    expect((await fetch(`${server.url}/sandbox/v1/nothing-here`)).status).toBe(404);
  });

  it('empties the sandbox: tenants, keys and orders are gone', async () => {
    const { base, key } = await tenantWithKey();
    await api('createOrder', `${base}/orders`, { json: orderIntake('GONE') });
    await api('createProfile', '/profiles');
    expect((await api('resetSandbox', '/reset')).status).toBe(204);
    expect((await api('listTenants', '/tenants')).body.items).toEqual([]);
    expect((await api('getTenant', base)).status).toBe(404);
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key })).status).toBe(401);
    expect((await api('createTenant', '/tenants', { json: { country: 'NL' } })).status).toBe(201);
  });
});

describe('hostile input (issue 10)', () => {
  const many = Array.from({ length: 130_000 }, () => 1);

  it.each([
    ['setTenantSkills', 'skills', 'PUT', (): unknown => ({ skills: many }), 'tenants.skills.too_many'],
    ['createApiKey', 'keys', 'POST', (): unknown => ({ name: 'k', scopes: many }), 'apikeys.invalid_scope'],
    ['buildTrip', 'trips', 'POST', (): unknown => ({ orderIds: many }), 'api.malformed_request'],
    ['createOrder', 'orders', 'POST', (): unknown => orderIntake('HUGE-TAGS', { tags: many }), 'api.malformed_request'],
  ] as const)('answers %s with 130,000 invalid items 400 with the field code, not a 500 (stack overflow)', async (operationId, tail, method, body, code) => {
    const { base } = await tenantWithKey();
    const answer = await api(operationId, `${base}/${tail}`, { method, json: body() });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe(code);
    expect(answer.body.errors.length).toBeGreaterThan(0);
    expect(answer.body.errors.length).toBeLessThanOrEqual(50);
  });

  it.each(['\ud800x', 'x\udc00', 'a\u0000b'])('refuses the tag name %j with tags.name.invalid, every time (no 500, nothing stored mangled)', async (name) => {
    const { base } = await tenantWithKey();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await api('createTag', `${base}/tags`, { json: { name, color: '#000000' } });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'tags.name.invalid', errors: [{ field: 'name', code: 'tags.name.invalid' }] });
    }
    expect((await api('listTags', `${base}/tags`)).body.items).toEqual([]);
    // A well-formed pair (an emoji) is text like any other.
    expect((await api('createTag', `${base}/tags`, { json: { name: 'Fragile \ud83d\udce6', color: '#000000' } })).status).toBe(201);
  });

  it('refuses NUL and lone surrogates in tenant names, skills and external ids with each field\'s code', async () => {
    const { base } = await tenantWithKey();
    expect((await api('setTenantSkills', `${base}/skills`, { json: { skills: ['ok', 'b\u0000d'] } })).body).toMatchObject({
      status: 400,
      errors: [{ field: 'skills[1]', code: 'tenants.skills.value.invalid' }],
    });
    const order = await api('createOrder', `${base}/orders`, { json: orderIntake('SHOP-\ud800') });
    expect(order.status).toBe(400);
    expect(order.body.errors[0]).toMatchObject({ field: 'externalId', code: 'orders.externalId.required' });
    const tenant = await api('createTenant', '/tenants', { json: { name: 'Nul\u0000Co', country: 'NL' } });
    expect(tenant.status).toBe(400);
    expect(tenant.body.errors[0].field).toBe('name');
  });
});
