/** Authentication (D1, D3), scopes (D2), tenant isolation and lifecycle (D22). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statement } from '../store/sql.ts';
import { operations } from '../../spec/load.ts';
import { call, memoryStore, type RunningServer, type SeededTestTenant, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let tenant: SeededTestTenant;

beforeAll(async () => {
  const store = await memoryStore();
  tenant = await seedTenant(store, tinyDataset({ orders: 20, trips: 3 }));
  server = await startServer(store);
});
afterAll(() => server.close());

const PAYMENT = { paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 5, currency: 'EUR' };
/** A request of every operation, with a body where it takes one. */
const requests: Record<string, { path: string; method: string; json?: unknown }> = {
  orderFeed: { path: '/api/v1/integration/orders', method: 'GET' },
  tripFeed: { path: '/api/v1/integration/trips', method: 'GET' },
  attachPayment: { path: '/api/v1/integration/orders/externalid/EXT-0/payment', method: 'POST', json: PAYMENT },
  cancelOrder: { path: '/api/v1/integration/orders/externalid/EXT-9/cancel', method: 'POST', json: {} },
  archiveOrder: { path: '/api/v1/integration/orders/externalid/EXT-18', method: 'DELETE' },
  whoami: { path: '/api/v1/integration/whoami', method: 'GET' },
};
const send = (operationId: string, init: { key?: string; headers?: Record<string, string> }) => {
  const { path, method, json } = requests[operationId]!;
  return call(server.url, operationId, path, { method, ...init, ...(json === undefined ? {} : { json }) });
};

describe('authentication', () => {
  it('covers every operation of the spec in these tests', () => {
    expect(Object.keys(requests).sort()).toEqual([...operations.keys()].sort());
  });

  it.each(Object.keys(requests))('%s: no key, an unknown key and a malformed key are 401 about:blank with WWW-Authenticate (D3)', async (operationId) => {
    const forged = tenant.keys.full.slice(0, -4) + 'AAAA';
    for (const init of [{}, { key: forged }, { key: 'nonsense' }, { headers: { Authorization: 'Basic dXNlcjpwYXNz' } }]) {
      const answer = await send(operationId, init);
      expect(answer.status).toBe(401);
      expect(answer.body.type).toBe('about:blank');
      expect(answer.headers.get('www-authenticate')).toMatch(/X-Api-Key/);
    }
  });

  it('accepts the key as Authorization: Bearer too (D1)', async () => {
    const answer = await send('whoami', { headers: { Authorization: `Bearer ${tenant.keys.full}` } });
    expect(answer.status).toBe(200);
    expect(answer.body.tenantId).toBe(tenant.tenantId);
  });

  it('refuses a revoked key with 401 (D22)', async () => {
    const { id, secret } = await server.store.keys.create({ tenantId: tenant.tenantId, name: 'to revoke', scopes: ['orders:read'] });
    expect((await send('orderFeed', { key: secret })).status).toBe(200);
    await server.store.keys.revoke(tenant.tenantId, id);
    expect((await send('orderFeed', { key: secret })).status).toBe(401);
  });

  it('never writes a key to the log', async () => {
    await send('whoami', { key: tenant.keys.full });
    await send('whoami', { headers: { Authorization: `Bearer ${tenant.keys.ordersRead}` } });
    const log = server.log.lines.join('\n');
    for (const key of Object.values(tenant.keys)) expect(log).not.toContain(key.slice(-20));
    expect(log).toContain('/api/v1/integration/whoami 200');
  });

  it('stores only the SHA-256 of keys', async () => {
    const stored = await server.store.sql.all(statement('SELECT * FROM api_keys'));
    const text = JSON.stringify(stored);
    // A key is wbk_<12-character id>_<secret>; the secret part must appear nowhere.
    for (const key of Object.values(tenant.keys)) expect(text).not.toContain(key.slice('wbk_'.length + 13));
    expect((stored[0] as { secret_hash: Buffer }).secret_hash).toHaveLength(32);
  });
});

describe('scopes (D2)', () => {
  const scopeOf: Record<string, keyof typeof tenant.keys | null> = {
    orderFeed: 'ordersRead', tripFeed: 'tripsRead', attachPayment: 'ordersWrite', cancelOrder: 'ordersWrite', archiveOrder: 'ordersWrite', whoami: null,
  };

  it.each(Object.keys(requests).filter((op) => op !== 'whoami'))('%s is 403 about:blank for every key without its scope', async (operationId) => {
    for (const [name, key] of Object.entries(tenant.keys)) {
      if (name === 'full' || name === scopeOf[operationId]) continue;
      const answer = await send(operationId, { key });
      expect(answer.status, name).toBe(403);
      expect(answer.body.type).toBe('about:blank');
    }
  });

  it('whoami needs no scope and tells each key its scopes', async () => {
    const answer = await send('whoami', { key: tenant.keys.noScopes });
    expect(answer.body).toMatchObject({ tenantId: tenant.tenantId, scopes: [] });
    expect((await send('whoami', { key: tenant.keys.tripsRead })).body.scopes).toEqual(['trips:read']);
  });
});

describe('tenant lifecycle (D22)', () => {
  it('refuses writes of a suspended tenant with 409 and keeps reads working; archived likewise', async () => {
    const store = server.store;
    const paused = await seedTenant(store, tinyDataset({ orders: 20 }));
    for (const [state, code] of [['Suspended', 'tenants.tenant.suspended'], ['Archived', 'tenants.tenant.archived']] as const) {
      await store.tenants.setState(paused.tenantId, state);
      for (const operationId of ['attachPayment', 'cancelOrder', 'archiveOrder']) {
        const answer = await send(operationId, { key: paused.keys.full });
        expect(answer.status, `${state} ${operationId}`).toBe(409);
        expect(answer.body.type).toBe(code);
      }
      expect((await send('orderFeed', { key: paused.keys.full })).status).toBe(200);
      expect((await send('tripFeed', { key: paused.keys.full })).status).toBe(200);
    }
  });
});
