/**
 * A client's half-close ends nothing (D60), also when the request's handling awaits the
 * database before it reaches the body: on PostgreSQL every authenticated request does (the
 * rate limit's statement, D81), and the client's FIN is read meanwhile. The body sent before
 * it is read: complete, it is the request's; cut short, the answer is 408 (D18).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { memoryStore, rawRequest, type RunningServer, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';

const body = JSON.stringify({ paymentId: '4c1a7e93-2b5d-4f08-9e6c-000000000001', amount: 5, currency: 'EUR' });

describe.skipIf(skipWithoutPostgres('half-close'))('a payment whose client half-closes after sending it, on PostgreSQL', () => {
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    const store = await memoryStore();
    key = (await seedTenant(store, tinyDataset({ orders: 3 }))).keys.full;
    server = await startServer(store, { requestLog: null });
  });
  afterAll(() => server?.close());

  const payment = (sent: string, length: number, connection: string) =>
    rawRequest(server.url, [
      'POST /api/v1/integration/orders/externalid/EXT-1/payment HTTP/1.1', `Host: ${new URL(server.url).host}`, `X-Api-Key: ${key}`,
      'Content-Type: application/json', `Content-Length: ${length}`, `Connection: ${connection}`, '', sent,
    ].join('\r\n'), { halfClose: true });

  it('is recorded from the whole body it sent', async () => {
    for (let n = 0; n < 3; n += 1) {
      const answer = await payment(body, Buffer.byteLength(body), 'keep-alive');
      expect([answer.status, JSON.parse(answer.body).externalId]).toEqual([200, 'EXT-1']);
    }
  });

  it('is answered 408 with Connection: close when the body stops short of its Content-Length', async () => {
    for (let n = 0; n < 3; n += 1) {
      const answer = await payment(body.slice(0, 20), Buffer.byteLength(body), 'keep-alive');
      expect([answer.status, JSON.parse(answer.body).type]).toEqual([408, 'api.request_body_incomplete']);
      expect(answer.head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    }
  });
});
