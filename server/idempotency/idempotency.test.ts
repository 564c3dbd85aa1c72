/** Idempotency-Key (D13, D26). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryStore, rawRequest, type RunningServer, type SeededTestTenant, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let keys: SeededTestTenant['keys'];
let other: SeededTestTenant['keys'];
const payment = (n: number) => ({ paymentId: `4c1a7e93-2b5d-4f08-9e6c-${String(n).padStart(12, '0')}`, amount: 5, currency: 'EUR' });
const PATH = (externalId: string) => `/api/v1/integration/orders/externalid/${externalId}/payment`;

beforeAll(async () => {
  const store = await memoryStore();
  ({ keys } = await seedTenant(store, tinyDataset({ orders: 40 })));
  ({ keys: other } = await seedTenant(store, tinyDataset({ orders: 40 })));
  server = await startServer(store, { bodyIdleTimeoutMs: 5000 });
});
afterAll(() => server.close());

const pay = (externalId: string, body: unknown, idempotencyKey?: string, key = keys.full) =>
  call(server.url, 'attachPayment', PATH(externalId), { method: 'POST', key, json: body, headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey } });

describe('Idempotency-Key', () => {
  it('replays a completed request with the same status, the same body and Idempotent-Replayed: true', async () => {
    const first = await pay('EXT-1', payment(1), 'k-replay');
    const second = await pay('EXT-1', payment(1), 'k-replay');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });

  it('replays a 4xx answer too (D26), and a 204', async () => {
    const first = await pay('NOPE', payment(2), 'k-404');
    const again = await pay('NOPE', payment(2), 'k-404');
    expect([first.status, again.status]).toEqual([404, 404]);
    expect(again.body).toEqual(first.body);
    const archive = (k: string) => call(server.url, 'archiveOrder', '/api/v1/integration/orders/externalid/EXT-4', { method: 'DELETE', key: keys.full, headers: { 'Idempotency-Key': k } });
    expect((await archive('k-204')).status).toBe(204);
    const replay = await archive('k-204');
    expect(replay.status).toBe(204);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await archive('k-other')).status).toBe(404);
  });

  it('refuses the same key with another body, path or method with 400 naming Idempotency-Key', async () => {
    await pay('EXT-10', payment(3), 'k-reuse');
    for (const answer of [
      await pay('EXT-10', { ...payment(3), amount: 6 }, 'k-reuse'),
      await pay('EXT-11', payment(3), 'k-reuse'),
      await call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/EXT-10/cancel', { method: 'POST', key: keys.full, json: {}, headers: { 'Idempotency-Key': 'k-reuse' } }),
    ]) {
      expect(answer.status).toBe(400);
      expect(answer.body.type).toBe('api.malformed_request');
      expect(answer.body.errors[0].field).toBe('Idempotency-Key');
    }
  });

  it.each(['', 'has space', 'x'.repeat(256), 'naïve'])('refuses the key %j with 400 naming Idempotency-Key', async (key) => {
    const answer = await call(server.url, 'attachPayment', PATH('EXT-1'), {
      method: 'POST', key: keys.full, json: payment(4), headers: { 'Idempotency-Key': Buffer.from(key).toString('latin1') },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe('Idempotency-Key');
  });

  it('scopes keys to the tenant', async () => {
    const mine = await pay('EXT-19', payment(5), 'k-tenant');
    const theirs = await pay('EXT-19', payment(5), 'k-tenant', other.full);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('answers 429 idempotency.inFlight with Retry-After while the first request is still sending its body', async () => {
    const body = JSON.stringify(payment(6));
    const head = `POST ${PATH('EXT-28')} HTTP/1.1\r\nHost: test\r\nX-Api-Key: ${keys.full}\r\nIdempotency-Key: k-slow\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // The first request sends its headers and half its body, then holds.
    const { connect } = await import('node:net');
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let firstAnswer = '';
    socket.on('data', (chunk) => (firstAnswer += chunk));
    await new Promise<void>((resolve) => socket.write(head + body.slice(0, 10), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const concurrent = await Promise.all([1, 2, 3].map(() => pay('EXT-28', payment(6), 'k-slow')));
    for (const answer of concurrent) {
      expect(answer.status).toBe(429);
      expect(answer.body.type).toBe('idempotency.inFlight');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    socket.write(body.slice(10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    expect(firstAnswer).toMatch(/^HTTP\/1\.1 200/);
    // Once the first is done, the key replays it.
    const replay = await pay('EXT-28', payment(6), 'k-slow');
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
  });

  it('gives exactly one 2xx among concurrent requests with one key', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => pay('EXT-37', payment(7), 'k-race')));
    const statuses = answers.map((a) => a.status);
    const fresh = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) expect(answer.body.type).toBe('idempotency.inFlight');
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('does not store a request that failed validation: the retry is judged again, and the corrected request may use the key (D13)', async () => {
    const invalid = { ...payment(9), paymentId: 'not-a-uuid' };
    const first = await pay('EXT-3', invalid, 'k-invalid');
    const again = await pay('EXT-3', invalid, 'k-invalid');
    expect([first.status, again.status]).toEqual([400, 400]);
    expect(first.body.errors[0].field).toBe('paymentId');
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const corrected = await pay('EXT-3', payment(9), 'k-invalid');
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('idempotent-replayed')).toBeNull();
    expect((await pay('EXT-3', payment(9), 'k-invalid')).headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not store a request refused before its body was read, nor a 429', async () => {
    await rawRequest(server.url, `POST ${PATH('EXT-2')} HTTP/1.1\r\nHost: t\r\nX-Api-Key: ${keys.full}\r\nIdempotency-Key: k-cut\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{`, { halfClose: true });
    const after = await pay('EXT-2', payment(8), 'k-cut');
    expect(after.status).toBe(200);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
  });
});
