/** The order and trip feeds: keyset paging, cursors, limits, filters, `since` (D4–D9), parameters they do not define (D86). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryStore, type RunningServer, type SeededTestTenant, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';

const ORDERS = '/api/v1/integration/orders';
const TRIPS = '/api/v1/integration/trips';

let server: RunningServer;
let keys: SeededTestTenant['keys'];
let other: SeededTestTenant['keys'];

beforeAll(async () => {
  const store = await memoryStore();
  ({ keys } = await seedTenant(store, tinyDataset({ orders: 237, trips: 150 })));
  ({ keys: other } = await seedTenant(store, tinyDataset({ orders: 30, trips: 5, start: Date.parse('2026-10-02T00:00:00.000Z') })));
  server = await startServer(store);
});
afterAll(() => server.close());

type Item = { id: string; updatedAtUtc: string; status: string; externalId?: string | null };

/** Walks a feed to its end with `query`, returning every item and the pages' sizes. */
async function walk(path: string, operationId: string, query: string, key = keys.full) {
  const items: Item[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page += 1) {
    const sep = query === '' ? '' : '&';
    const answer = await call(server.url, operationId, `${path}?${query}${cursor === null ? '' : `${sep}cursor=${encodeURIComponent(cursor)}`}`, { key });
    expect(answer.status).toBe(200);
    items.push(...answer.body.items);
    sizes.push(answer.body.items.length);
    cursor = answer.body.nextCursor;
    if (cursor === null) return { items, sizes };
  }
  throw new Error('feed did not end');
}

const byFeedOrder = (a: Item, b: Item) => (a.updatedAtUtc === b.updatedAtUtc ? (a.id < b.id ? -1 : 1) : a.updatedAtUtc < b.updatedAtUtc ? -1 : 1);

describe('order feed paging', () => {
  it.each([1, 7, 1000])('with limit=%i visits every order exactly once, in (updatedAtUtc, id) order', async (limit) => {
    const { items, sizes } = await walk(ORDERS, 'orderFeed', `limit=${limit}`);
    expect(items).toHaveLength(237);
    expect(new Set(items.map((o) => o.id)).size).toBe(237);
    expect([...items].sort(byFeedOrder)).toEqual(items);
    const cap = Math.min(limit, 100);
    expect(sizes.slice(0, -1).every((n) => n === cap)).toBe(true);
    // nextCursor is null exactly on the page holding the last item (D6): no empty last page.
    expect(sizes.at(-1)).toBeGreaterThan(0);
  });

  it('serves 50 items by default and caps limit at 100 (D8)', async () => {
    expect((await call(server.url, 'orderFeed', ORDERS, { key: keys.full })).body.items).toHaveLength(50);
    for (const limit of [101, 100000]) {
      expect((await call(server.url, 'orderFeed', `${ORDERS}?limit=${limit}`, { key: keys.full })).body.items, String(limit)).toHaveLength(100);
    }
  });

  it.each(['0', '-1', 'abc', '1.5', '', '99999999999'])('refuses limit=%j with 400 naming the field (D8)', async (limit) => {
    const answer = await call(server.url, 'orderFeed', `${ORDERS}?limit=${limit}`, { key: keys.full });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('api.malformed_request');
    expect(answer.body.errors[0].field).toBe('limit');
  });

  it('returns a null nextCursor when the last page is exactly full', async () => {
    const first = await call(server.url, 'orderFeed', `${ORDERS}?limit=200`, { key: keys.full });
    expect(first.body.nextCursor).not.toBeNull();
    const rest = await call(server.url, 'orderFeed', `${ORDERS}?limit=37&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: keys.full });
    // 100 (capped) + 37 = 137 of 237: more follow.
    expect(rest.body.items).toHaveLength(37);
    const all = await walk(ORDERS, 'orderFeed', 'limit=100');
    expect(all.sizes).toEqual([100, 100, 37]);
  });
});

describe('order feed cursors (D5)', () => {
  let cursor: string;
  beforeAll(async () => {
    cursor = (await call(server.url, 'orderFeed', `${ORDERS}?limit=5`, { key: keys.full })).body.nextCursor;
  });

  const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
  const forged = () => {
    const [payload] = cursor.split('.');
    const position = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as [string, string];
    const moved = Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000Z', position[1]])).toString('base64url');
    return `${moved}.${cursor.split('.')[1]}`;
  };

  it.each([
    ['garbage', () => 'not-a-cursor'],
    ['truncated', () => cursor.slice(0, -3)],
    ['tampered signature (last character)', () => flip(cursor, cursor.length - 1)],
    ['tampered position', () => flip(cursor, 3)],
    ['forged position with the old signature', forged],
    ['re-signed by another key', () => `${cursor.split('.')[0]}.${Buffer.alloc(32, 7).toString('base64url')}`],
    ['with a trailing segment', () => `${cursor}.x`],
  ])('refuses a %s cursor with 400, errors[0].field = cursor', async (_name, make) => {
    const answer = await call(server.url, 'orderFeed', `${ORDERS}?cursor=${encodeURIComponent(make())}`, { key: keys.full });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('api.malformed_request');
    expect(answer.body.errors[0].field).toBe('cursor');
  });

  it('refuses a cursor of the trip feed on the order feed, and one of another tenant', async () => {
    const tripCursor = (await call(server.url, 'tripFeed', `${TRIPS}?limit=1`, { key: keys.full })).body.nextCursor;
    const onOrders = await call(server.url, 'orderFeed', `${ORDERS}?cursor=${encodeURIComponent(tripCursor)}`, { key: keys.full });
    expect(onOrders.body.errors[0].field).toBe('cursor');
    const otherTenant = await call(server.url, 'orderFeed', `${ORDERS}?cursor=${encodeURIComponent(cursor)}`, { key: other.full });
    expect(otherTenant.status).toBe(400);
    expect(otherTenant.body.errors[0].field).toBe('cursor');
  });

  it('ignores since when a cursor is sent (D5)', async () => {
    const plain = await call(server.url, 'orderFeed', `${ORDERS}?limit=3&cursor=${encodeURIComponent(cursor)}`, { key: keys.full });
    const withSince = await call(server.url, 'orderFeed', `${ORDERS}?limit=3&since=2030-01-01T00:00:00Z&cursor=${encodeURIComponent(cursor)}`, { key: keys.full });
    expect(withSince.body.items).toEqual(plain.body.items);
    expect(plain.body.items).toHaveLength(3);
  });
});

describe('order feed filters', () => {
  it('keeps only the statuses asked for, single and repeated (D9)', async () => {
    const single = await walk(ORDERS, 'orderFeed', 'status=Planned&limit=100');
    expect(single.items.length).toBeGreaterThan(10);
    expect(new Set(single.items.map((o) => o.status))).toEqual(new Set(['Planned']));
    const repeated = await walk(ORDERS, 'orderFeed', 'status=New&status=Cancelled&limit=9');
    expect(new Set(repeated.items.map((o) => o.status))).toEqual(new Set(['New', 'Cancelled']));
    const all = await walk(ORDERS, 'orderFeed', 'limit=100');
    expect(repeated.items.length).toBe(all.items.filter((o) => o.status === 'New' || o.status === 'Cancelled').length);
  });

  it.each(['Shipped', 'new', ''])('refuses an unknown status %j with 400, field status (D9)', async (status) => {
    const answer = await call(server.url, 'orderFeed', `${ORDERS}?status=New&status=${status}`, { key: keys.full });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe('status');
  });

  it('returns items with updatedAtUtc >= since, boundary included (D4)', async () => {
    const all = (await walk(ORDERS, 'orderFeed', 'limit=100')).items;
    const boundary = all[100]!.updatedAtUtc;
    const since = (await walk(ORDERS, 'orderFeed', `limit=100&since=${boundary}`)).items;
    expect(since).toEqual(all.filter((o) => o.updatedAtUtc >= boundary));
    expect(since[0]!.updatedAtUtc).toBe(boundary);
    // The same instant written with an offset selects the same items.
    const offset = new Date(Date.parse(boundary)).toISOString().replace('Z', '+00:00');
    expect((await walk(ORDERS, 'orderFeed', `limit=100&since=${encodeURIComponent(offset)}`)).items).toEqual(since);
  });

  it.each(['yesterday', '2026-10-01', '2026-10-01T00:00:00', '2026-13-01T00:00:00Z', '2026-10-01 00:00:00Z'])('refuses since=%j with 400, field since (D9)', async (since) => {
    const answer = await call(server.url, 'orderFeed', `${ORDERS}?since=${encodeURIComponent(since)}`, { key: keys.full });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe('since');
  });

  it('never shows another tenant its orders', async () => {
    const mine = (await walk(ORDERS, 'orderFeed', 'limit=100')).items.map((o) => o.id);
    const theirs = (await walk(ORDERS, 'orderFeed', 'limit=100', other.full)).items.map((o) => o.id);
    expect(theirs).toHaveLength(30);
    expect(mine.filter((id) => theirs.includes(id))).toEqual([]);
  });
});

describe('trip feed', () => {
  it.each([1, 7, 1000])('with limit=%i visits every trip exactly once, in order', async (limit) => {
    const { items } = await walk(TRIPS, 'tripFeed', `limit=${limit}`);
    expect(items).toHaveLength(150);
    expect(new Set(items.map((t) => t.id)).size).toBe(150);
    expect([...items].sort(byFeedOrder)).toEqual(items);
  });

  it('filters by trip status and refuses unknown ones (D9, D16)', async () => {
    const { items } = await walk(TRIPS, 'tripFeed', 'status=Completed&status=Cancelled&limit=100');
    expect(new Set(items.map((t) => t.status))).toEqual(new Set(['Completed', 'Cancelled']));
    const unknown = await call(server.url, 'tripFeed', `${TRIPS}?status=Planned`, { key: keys.full });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('status');
  });

  it('applies limit, since and cursor rules as the order feed does', async () => {
    expect((await call(server.url, 'tripFeed', TRIPS, { key: keys.full })).body.items).toHaveLength(50);
    expect((await call(server.url, 'tripFeed', `${TRIPS}?limit=100000`, { key: keys.full })).body.items).toHaveLength(100);
    expect((await call(server.url, 'tripFeed', `${TRIPS}?limit=0`, { key: keys.full })).body.errors[0].field).toBe('limit');
    expect((await call(server.url, 'tripFeed', `${TRIPS}?cursor=abc.def`, { key: keys.full })).body.errors[0].field).toBe('cursor');
    const all = (await walk(TRIPS, 'tripFeed', 'limit=100')).items;
    const boundary = all[77]!.updatedAtUtc;
    expect((await walk(TRIPS, 'tripFeed', `limit=100&since=${boundary}`)).items).toEqual(all.filter((t) => t.updatedAtUtc >= boundary));
  });
});

describe('query parameters a feed does not define (D86)', () => {
  it.each([
    [ORDERS, 'orderFeed', 'status[]=Cancelled', 'status[]', 'Cancelled', 'status[] is not a parameter of this operation: send status once per value, without brackets (status=A&status=B; axios: paramsSerializer: { indexes: null })'],
    [TRIPS, 'tripFeed', 'status[0]=Completed&status[1]=Cancelled', 'status[0]', 'Completed', 'status[0] is not a parameter of this operation: send status once per value, without brackets (status=A&status=B; axios: paramsSerializer: { indexes: null })'],
    [ORDERS, 'orderFeed', 'Status=New', 'Status', 'New', 'Status is not a parameter of this operation: parameter names are case-sensitive, send status'],
    [TRIPS, 'tripFeed', 'limit=5&statuses=Completed', 'statuses', 'Completed', 'statuses is not a parameter of this operation; it takes since, cursor, limit, status'],
  ])('%s?%s is refused 400 api.malformed_request naming %s, with a hint', async (path, operationId, query, field, value, message) => {
    const answer = await call(server.url, operationId, `${path}?${query}`, { key: keys.full });
    expect([answer.status, answer.body.type, answer.body.title]).toEqual([400, 'api.malformed_request', 'Malformed request']);
    expect(answer.body.errors[0]).toEqual({ field, code: 'api.malformed_request', value, message });
    expect(answer.body.detail).toBe(query.includes('&status[1]') ? '2 fields are invalid.' : message);
  });

  it('names each parameter it does not define, after the defined ones the request got wrong', async () => {
    const answer = await call(server.url, 'orderFeed', `${ORDERS}?trace=1&limit=0&status[]=New&status[]=Planned`, { key: keys.full });
    expect(answer.body.errors.map((error: { field: string; value: string | null }) => [error.field, error.value])).toEqual([['limit', '0'], ['trace', '1'], ['status[]', 'New,Planned']]);
  });

  it('never echoes a key sent as a parameter, to its sender or to the request log', async () => {
    const answer = await call(server.url, 'orderFeed', `${ORDERS}?key=${keys.ordersRead}`, { key: keys.full });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'key', value: null });
    expect(JSON.stringify(answer.body)).not.toContain(keys.ordersRead);
  });

  it('leaves whoami and the writes, which define no query parameter, ignoring any', async () => {
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami?trace=1', { key: keys.full })).status).toBe(200);
    const payment = { paymentId: '9d3e1b27-4c6a-4f80-8b2d-5e7a1c9f3b64', amount: 1, currency: 'EUR' };
    expect((await call(server.url, 'attachPayment', '/api/v1/integration/orders/externalid/EXT-4/payment?trace=1', { method: 'POST', key: keys.full, json: payment })).status).toBe(200);
  });
});
