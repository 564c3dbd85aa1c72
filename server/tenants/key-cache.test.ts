/**
 * The authenticated-key cache is exact: each test first authenticates with a key (so the
 * cache holds it), changes the key or its tenant, and expects the very next request to
 * see the change.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, callSandbox, memoryStore, type RunningServer, type SeededTestTenant, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from '../../dev/testing/sandbox.ts';
import { statement } from '../store/sql.ts';

let server: RunningServer;
let tenant: SeededTestTenant;

beforeEach(async () => {
  const store = await memoryStore();
  tenant = await seedTenant(store, tinyDataset({ orders: 10 }));
  server = await startServer(store, { adminToken: TEST_ADMIN_TOKEN });
});
afterEach(() => server.close());

const feed = (key: string) => call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=1', { key });
const cancel = (key: string, n: number) =>
  call(server.url, 'cancelOrder', `/api/v1/integration/orders/externalid/EXT-${n}/cancel`, { method: 'POST', key, json: {}, headers: { 'Idempotency-Key': `cache-${n}` } });
const control = (operationId: string, path: string) => callSandbox(server.url, operationId, path, { method: 'POST' });

describe('the authenticated-key cache', () => {
  it('refuses a key revoked through the control plane on the very next request', async () => {
    const created = await server.store.keys.create({ tenantId: tenant.tenantId, name: 'cached', scopes: ['orders:read'] });
    expect((await feed(created.secret)).status).toBe(200);
    expect((await control('revokeApiKey', `/tenants/${tenant.tenantId}/keys/${created.id}/revoke`)).status).toBe(200);
    const answer = await feed(created.secret);
    expect(answer.status).toBe(401);
    expect(answer.body.detail).toMatch(/revoked/);
  });

  it('refuses writes on the very next request after suspend and archive, and takes them again after reactivate', async () => {
    const key = tenant.keys.full;
    expect((await feed(key)).status).toBe(200);
    expect((await control('suspendTenant', `/tenants/${tenant.tenantId}/suspend`)).status).toBe(200);
    expect((await cancel(key, 0)).body.type).toBe('tenants.tenant.suspended');
    expect((await control('reactivateTenant', `/tenants/${tenant.tenantId}/reactivate`)).status).toBe(200);
    const accepted = await cancel(key, 1);
    expect(accepted.status, JSON.stringify(accepted.body)).toBeLessThan(300);
    expect((await control('archiveTenant', `/tenants/${tenant.tenantId}/archive`)).status).toBe(200);
    expect((await cancel(key, 2)).body.type).toBe('tenants.tenant.archived');
  });

  it('refuses every key on the very next request after a sandbox reset', async () => {
    expect((await feed(tenant.keys.full)).status).toBe(200);
    expect((await callSandbox(server.url, 'resetSandbox', '/reset', { method: 'POST' })).status).toBe(204);
    expect((await feed(tenant.keys.full)).status).toBe(401);
  });

  // SQLite's TEMP triggers see any statement on the connection; on PostgreSQL any statement gives the tenant a new version, which the next request finds (D81).
  it('sees a change of scopes or rate limit made by any statement on the very next request', async () => {
    const created = await server.store.keys.create({ tenantId: tenant.tenantId, name: 'cached', scopes: ['orders:read'], rateLimit: 100 });
    const before = await feed(created.secret);
    expect(before.status).toBe(200);
    expect(before.headers.get('ratelimit-limit')).toBe('100');
    await server.store.sql.run(statement("UPDATE api_keys SET scopes = 'trips:read', rate_limit = 50 WHERE id = ?"), [created.id]);
    const after = await feed(created.secret);
    expect(after.status).toBe(403);
    expect(after.headers.get('ratelimit-limit')).toBe('50');
  });

  it('sees a change inside a transaction that rolls back as no change', async () => {
    expect((await feed(tenant.keys.full)).status).toBe(200);
    const attempt = server.store.sql.write(tenant.tenantId, function* () {
      yield* server.store.tenants.steps.setState(tenant.tenantId, 'Archived');
      throw new Error('rolled back');
    });
    await expect(attempt).rejects.toThrow('rolled back');
    const accepted = await cancel(tenant.keys.full, 9);
    expect(accepted.status, JSON.stringify(accepted.body)).toBeLessThan(300);
  });

  it('still refuses a wrong secret for a cached key id', async () => {
    expect((await feed(tenant.keys.full)).status).toBe(200);
    const forged = `${tenant.keys.full.slice(0, -4)}AAAA`;
    expect((await feed(forged)).status).toBe(401);
  });
});
