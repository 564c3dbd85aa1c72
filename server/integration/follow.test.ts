/** A follower of the feed never misses a change (D7): stamps strictly increase per tenant. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statement } from '../store/sql.ts';
import { call, memoryStore, type RunningServer, type SeededTestTenant, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let keys: SeededTestTenant['keys'];
let tenantId: string;
// A clock the test moves, backwards included; the seeded stamps lie in October 2026.
let now = Date.parse('2026-11-01T00:00:00.000Z');

beforeAll(async () => {
  const store = await memoryStore(() => now);
  ({ keys, tenantId } = await seedTenant(store, tinyDataset({ orders: 60 })));
  server = await startServer(store);
});
afterAll(() => server.close());

const ORDERS = '/api/v1/integration/orders';
const page = (cursor: string | null, limit = 10) =>
  call(server.url, 'orderFeed', `${ORDERS}?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { key: keys.full });
const pay = (externalId: string, n: number) =>
  call(server.url, 'attachPayment', `${ORDERS}/externalid/${externalId}/payment`, {
    method: 'POST', key: keys.full, json: { paymentId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, amount: 1, currency: 'EUR' },
  });

describe('following the order feed', () => {
  it('sees an order that changes behind its position again, after its position, and misses none', async () => {
    const seen: { externalId: string; updatedAtUtc: string }[] = [];
    let cursor: string | null = null;
    const first = await page(cursor);
    seen.push(...first.body.items);
    cursor = first.body.nextCursor;
    // Change an order already seen, and one not yet seen, while the follower is mid-feed;
    // the clock stands still, so both writes fall in the same millisecond.
    const behind = seen[3]!.externalId;
    const ahead = 'EXT-55';
    await pay(behind, 1);
    await pay(ahead, 2);
    while (cursor !== null) {
      const next = await page(cursor);
      seen.push(...next.body.items);
      cursor = next.body.nextCursor;
    }
    const sightings = (externalId: string) => seen.filter((o) => o.externalId === externalId).length;
    expect(sightings(behind)).toBe(2);
    expect(sightings(ahead)).toBe(1);
    expect(seen.slice(-2).map((o) => o.externalId)).toEqual([behind, ahead]);
    expect(new Set(seen.map((o) => o.externalId)).size).toBe(60);
  });

  it('stamps each write strictly after the newest stamp, even when the clock goes backwards', async () => {
    const stamps: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      now -= 60_000;
      stamps.push((await pay(`EXT-${10 + i}`, 100 + i)).body.updatedAtUtc);
    }
    for (let i = 1; i < stamps.length; i += 1) expect(Date.parse(stamps[i]!) - Date.parse(stamps[i - 1]!)).toBe(1);
  });

  it('misses no write made in the same millisecond as the follower\'s position, whatever its id', async () => {
    const tail = await page(null, 100);
    let cursor: string | null = tail.body.nextCursor;
    let last = tail.body.items.at(-1);
    while (cursor !== null) {
      const next = await page(cursor, 100);
      last = next.body.items.at(-1) ?? last;
      cursor = next.body.nextCursor;
    }
    // Caught up: every order left is older than the follower's position. Write to the order
    // with the smallest id, at a clock that has not moved.
    const follower = { since: last.updatedAtUtc };
    const smallest = (await server.store.sql.one<{ external_id: string }>(statement('SELECT external_id FROM orders WHERE tenant_id = ? ORDER BY id LIMIT 1'), [tenantId]))!.external_id;
    await pay(smallest, 200);
    const after = await call(server.url, 'orderFeed', `${ORDERS}?since=${follower.since}`, { key: keys.full });
    const fresh = after.body.items.filter((o: { updatedAtUtc: string }) => o.updatedAtUtc > follower.since);
    expect(fresh.map((o: { externalId: string }) => o.externalId)).toEqual([smallest]);
  });
});
