/** Which calls fault rules (D51) strike: seeded draws, tenancy and key narrowing, and the request log's marks of faulted calls. */
import { describe, expect, it } from 'vitest';
import { call } from '../../dev/testing/sandbox.ts';
import { faultSandbox, FEED, payment, paymentPath, WHOAMI, type Tenant } from '../../dev/testing/fault-sandbox.ts';

const { server, a, b, api, wire, rule, rulesOf, feed, settleLog } = faultSandbox();

describe('seeded draws', () => {
  /** Which of 200 whoami calls of `tenant` a 30 % rule seeded `seed` fired on. */
  async function firedSequence(tenant: Tenant, seed: number): Promise<number[]> {
    await api('deleteFaults', `/tenants/${tenant.tenantId}/faults`);
    await rule(tenant, { operation: 'whoami', fault: 'status', status: 503, probability: 0.3, seed });
    const fired: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const answer = await call(server.url, 'whoami', WHOAMI, { key: tenant.keys.full });
      if (answer.status === 503) fired.push(i);
    }
    const [counted] = await rulesOf(tenant);
    expect(counted).toMatchObject({ matched: 200, fired: fired.length, times: null, remaining: null, probability: 0.3, seed });
    return fired;
  }

  it('the same seed fires on the same calls, on any tenant; another seed on others', async () => {
    const first = await firedSequence(a, 7);
    expect(await firedSequence(b, 7)).toEqual(first);
    expect(first.length).toBeGreaterThan(30);
    expect(first.length).toBeLessThan(90);
    expect(await firedSequence(a, 8)).not.toEqual(first);
  });
});

describe('tenancy and keys', () => {
  it('a rule of tenant A never fires for tenant B', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'status', status: 503, times: 5 });
    for (let i = 0; i < 3; i += 1) expect((await feed(b.keys.full)).status).toBe(200);
    expect((await rulesOf(a))[0]).toMatchObject({ matched: 0, remaining: 5 });
    expect((await feed(a.keys.full)).status).toBe(503);
  });

  it('keyId narrows a rule to one key of the tenant', async () => {
    const keyId = (await call(server.url, 'whoami', WHOAMI, { key: a.keys.ordersRead })).body.keyId;
    await rule(a, { operation: 'orderFeed', keyId, fault: 'status', status: 503 });
    expect((await feed(a.keys.full)).status).toBe(200);
    expect((await feed(a.keys.ordersRead)).status).toBe(503);
  });

  it('a call refused before the faults (no key, wrong scope) is not faulted', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'reset' });
    expect((await feed(a.keys.tripsRead)).status).toBe(403);
    expect((await rulesOf(a))[0]).toMatchObject({ matched: 0, remaining: 1 });
  });
});

describe('the request log marks faulted calls', () => {
  type Entry = { requestId: string; status: number; fault: unknown; problemType: string | null; orderIds: string[]; latencyMs: number };
  async function entries(tenantId: string): Promise<Entry[]> {
    await settleLog();
    return (await api('listRequests', `/tenants/${tenantId}/requests?limit=100`)).body.items;
  }

  it('leaves unmarked a write whose after fault did not fire (the request was refused), and marks only the wait before it', async () => {
    await rule(a, { operation: 'cancelOrder', fault: 'status', status: 503, when: 'after' });
    const { id: waitId } = await rule(a, { operation: 'cancelOrder', fault: 'latency', latencyMs: 5 });
    const refused = await call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/NO-SUCH/cancel', { method: 'POST', key: a.keys.full, json: {} });
    expect(refused.status).toBe(404);
    const entry = (await entries(a.tenantId)).find((item) => item.requestId === refused.headers.get('x-request-id'))!;
    expect(entry).toMatchObject({ status: 404, problemType: 'orders.notFound', fault: { fault: 'latency', source: 'rule', ruleId: waitId, when: 'before', latencyMs: 5 } });
  });

  it('with the fault, its source and rule, and the status the client got (0 for none)', async () => {
    const { id } = await rule(a, { operation: 'attachPayment', fault: 'reset', when: 'after' });
    await wire('POST', paymentPath('EXT-6'), { key: a.keys.full, json: payment(6) });
    const plain = await feed(a.keys.full);
    const preferred = await feed(a.keys.full, { Prefer: 'fault=429, latency=20' });
    await wire('GET', FEED, { key: a.keys.full, headers: { Prefer: 'fault=malformed' } });
    const listed = await entries(a.tenantId);
    const [malformed, throttled, unfaulted] = listed;
    const reset = listed.find((entry) => entry.fault !== null && (entry.fault as { ruleId: string }).ruleId === id)!;
    expect(reset).toMatchObject({ status: 0, fault: { fault: 'reset', source: 'rule', ruleId: id, when: 'after' } });
    expect(reset.orderIds).toHaveLength(1);
    expect(unfaulted).toMatchObject({ requestId: plain.headers.get('x-request-id'), fault: null, status: 200 });
    expect(throttled).toMatchObject({ requestId: preferred.headers.get('x-request-id'), status: 429, problemType: 'api.rate_limited', fault: { fault: 'status', source: 'prefer', ruleId: null, when: null, latencyMs: 20 } });
    expect(malformed).toMatchObject({ status: 200, fault: { fault: 'malformed', source: 'prefer', ruleId: null, when: null } });
  });
});
