/** Fault injection (D51) `after` a write: the effect is committed, the answer is lost, and a retry with the same Idempotency-Key gets it replayed. */
import { describe, expect, it } from 'vitest';
import { call } from '../../dev/testing/sandbox.ts';
import { faultSandbox, payment, paymentPath } from '../../dev/testing/fault-sandbox.ts';

const { server, a, wire, rule, rulesOf, orderOf, paymentsOf } = faultSandbox();

describe('after faults on writes: the effect commits, the answer is lost, a retry gets it replayed', () => {
  it('reset after a payment: the payment is there once, and the retry with the same key is replayed', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'reset', when: 'after' });
    const seen = await wire('POST', paymentPath('EXT-1'), { key: a.keys.full, json: payment(1), headers: { 'Idempotency-Key': 'lost-1' } });
    expect(seen.error).toBe('ECONNRESET');
    expect(seen.bytes).toBe(0);
    expect(await paymentsOf('EXT-1')).toHaveLength(1);
    const retry = await call(server.url, 'attachPayment', paymentPath('EXT-1'), { method: 'POST', key: a.keys.full, json: payment(1), headers: { 'Idempotency-Key': 'lost-1' } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await paymentsOf('EXT-1')).toHaveLength(1);
  });

  it('reset before a payment: nothing is written, and the retry runs for the first time', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'reset' });
    const seen = await wire('POST', paymentPath('EXT-2'), { key: a.keys.full, json: payment(2), headers: { 'Idempotency-Key': 'early-2' } });
    expect(seen.error).toBe('ECONNRESET');
    expect(await paymentsOf('EXT-2')).toHaveLength(0);
    const retry = await call(server.url, 'attachPayment', paymentPath('EXT-2'), { method: 'POST', key: a.keys.full, json: payment(2), headers: { 'Idempotency-Key': 'early-2' } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('500 after a cancel: the order is cancelled, the 500 is answered, the retry replays the stored 200', async () => {
    // tinyDataset cycles statuses: EXT-9 is New.
    await rule(a, { operation: 'cancelOrder', fault: 'status', status: 500, when: 'after' });
    const cancel = () => call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/EXT-9/cancel', { method: 'POST', key: a.keys.full, json: {}, headers: { 'Idempotency-Key': 'cancel-9' } });
    const first = await cancel();
    expect(first.status).toBe(500);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await orderOf(a.keys.full, 'EXT-9'))!.status).toBe('Cancelled');
    const retry = await cancel();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.status).toBe('Cancelled');
  });

  it('empty after an archive: the order is archived though the client got nothing', async () => {
    await rule(a, { operation: 'archiveOrder', fault: 'empty', when: 'after' });
    const seen = await wire('DELETE', '/api/v1/integration/orders/externalid/EXT-18', { key: a.keys.full });
    expect(seen.bytes).toBe(0);
    expect(await orderOf(a.keys.full, 'EXT-18')).toBeUndefined();
  });

  it('latency after a payment: the effect is in before the answer, which comes late and whole', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'latency', latencyMs: 2000, when: 'after' });
    let answered = false;
    const answer = call(server.url, 'attachPayment', paymentPath('EXT-7'), { method: 'POST', key: a.keys.full, json: payment(7) }).finally(() => (answered = true));
    while ((await paymentsOf('EXT-7')).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    expect((await answer).status).toBe(200);
  });

  it('stall after a payment: the stored answer dribbles in whole', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'stall', durationMs: 300 });
    const seen = await wire('POST', paymentPath('EXT-8'), { key: a.keys.full, json: payment(8) });
    expect(seen.status).toBe(200);
    expect(JSON.parse(seen.body.toString())).toMatchObject({ externalId: 'EXT-8' });
    expect(seen.bodyChunks).toBeGreaterThan(1);
  });

  it('an after rule fires only on an answer whose write committed: a payment refused 400 is answered whole and leaves the rule unspent', async () => {
    const { id } = await rule(a, { operation: 'attachPayment', fault: 'reset', when: 'after' });
    await rule(a, { operation: 'attachPayment', fault: 'latency', latencyMs: 1, when: 'after' });
    const refused = await call(server.url, 'attachPayment', paymentPath('EXT-11'), { method: 'POST', key: a.keys.full, json: { ...payment(11), paymentId: 'not-a-uuid' }, headers: { 'Idempotency-Key': 'invalid-11' } });
    expect(refused.status).toBe(400);
    const missing = await call(server.url, 'attachPayment', paymentPath('NO-SUCH-ORDER'), { method: 'POST', key: a.keys.full, json: payment(11) });
    expect(missing.status).toBe(404);
    expect((await rulesOf(a)).map((r: { matched: number; fired: number; remaining: number }) => [r.matched, r.fired, r.remaining])).toEqual([[2, 0, 1], [2, 0, 1]]);
    const committed = await wire('POST', paymentPath('EXT-11'), { key: a.keys.full, json: payment(11), headers: { 'Idempotency-Key': 'invalid-11' } });
    expect(committed.error).toBe('ECONNRESET');
    expect(await paymentsOf('EXT-11')).toHaveLength(1);
    expect((await rulesOf(a)).find((r: { id: string }) => r.id === id)).toMatchObject({ matched: 3, fired: 1, remaining: 0 });
  });

  it('a rule firing on the retry too: the replayed answer is faulted again', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'malformed', times: 2 });
    const send = () => wire('POST', paymentPath('EXT-3'), { key: a.keys.full, json: payment(3), headers: { 'Idempotency-Key': 'cut-3' } });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(() => JSON.parse(second.body.toString())).toThrow(SyntaxError);
    expect(second.body.toString()).toBe(first.body.toString());
  });
});
