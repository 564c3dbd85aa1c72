/** Per-key rate limits (D14). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryStore, type RunningServer, type SeededTestTenant, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let now = Date.parse('2026-11-20T10:00:00.000Z');
let limited: SeededTestTenant['keys'];
let roomy: SeededTestTenant['keys'];

beforeAll(async () => {
  const store = await memoryStore(() => now);
  ({ keys: limited } = await seedTenant(store, tinyDataset({ orders: 5 }), { rateLimit: 5 }));
  ({ keys: roomy } = await seedTenant(store, tinyDataset({ orders: 5 })));
  server = await startServer(store);
});
afterAll(() => server.close());

const feed = (key: string) => call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=1', { key });

describe('rate limit', () => {
  it('answers the 6th call of a 5/min key with 429 api.rate_limited and Retry-After; other keys are unaffected', async () => {
    const remaining: number[] = [];
    const resets: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = await feed(limited.full);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBe('5');
      remaining.push(Number(answer.headers.get('ratelimit-remaining')));
      resets.push(Number(answer.headers.get('ratelimit-reset')));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    // Reset is the time until one more request is available (a token every 12 s), not until the bucket is full (D14).
    expect(resets).toEqual([12, 12, 12, 12, 12]);
    const sixth = await feed(limited.full);
    expect(sixth.status).toBe(429);
    expect(sixth.body.type).toBe('api.rate_limited');
    expect(Number(sixth.headers.get('retry-after'))).toBe(12);
    // The same instant as Retry-After (draft-ietf-httpapi-ratelimit-headers).
    expect(Number(sixth.headers.get('ratelimit-reset'))).toBe(12);
    // Another key of the same tenant, and a key of another tenant, still pass.
    expect((await feed(limited.ordersRead)).status).toBe(200);
    expect((await feed(roomy.full)).status).toBe(200);
    expect((await feed(roomy.full)).headers.get('ratelimit-limit')).toBe('600');
  });

  it('counts writes and whoami too, and refills with time', async () => {
    for (let i = 0; i < 5; i += 1) await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: limited.tripsRead });
    const write = await call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/EXT-0/cancel', { method: 'POST', key: limited.tripsRead, json: {} });
    expect(write.status).toBe(429);
    now += 7_000;
    // 7 s of a 12 s refill: 5 s to the next request, whichever way it is read.
    const early = await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: limited.tripsRead });
    expect([early.status, early.headers.get('retry-after'), early.headers.get('ratelimit-reset')]).toEqual([429, '5', '5']);
    now += 5_000;
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: limited.tripsRead })).status).toBe(200);
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: limited.tripsRead })).status).toBe(429);
  });
});
