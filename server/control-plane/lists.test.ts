/** The control plane's order and trip lists (D87): newest-changed first or oldest first, by status, paged with cursors bound to tenant, list and sort. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memoryStore, orderIntake, type RunningServer, sandboxClient, type SandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let api: SandboxClient;

beforeAll(async () => {
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

interface Item {
  id: string;
  status: string;
  updatedAtUtc: string;
}

/** A fresh tenant's path. */
async function tenant(): Promise<string> {
  return `/tenants/${(await api('createTenant', '/tenants', { json: { country: 'NL' } })).body.id}`;
}

/** An order of the tenant at `base`; its id. */
async function order(base: string, externalId: string): Promise<string> {
  const created = await api('createOrder', `${base}/orders`, { json: orderIntake(externalId) });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** A trip of one new order; its id. */
async function trip(base: string, externalId: string): Promise<string> {
  const built = await api('buildTrip', `${base}/trips`, { json: { orderIds: [await order(base, externalId)] } });
  expect(built.status).toBe(201);
  return built.body.id;
}

/** Every item of a list, read `limit` at a time by following `nextCursor`, and how many pages it took. */
async function readAll(operationId: string, path: string, query: Record<string, string> = {}, limit = 2): Promise<{ ids: string[]; items: Item[]; pages: number }> {
  const items: Item[] = [];
  let after: string | null = null;
  let pages = 0;
  do {
    const search = new URLSearchParams({ ...query, limit: String(limit), ...(after === null ? {} : { after }) });
    const page = await api(operationId, `${path}?${search}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    items.push(...(page.body.items as Item[]));
    after = page.body.nextCursor;
    pages += 1;
  } while (after !== null);
  return { ids: items.map((item) => item.id), items, pages };
}

/** Whether `items` are newest first by `(updatedAtUtc, id)`. */
const newestFirst = (items: Item[]) => items.every((item, i) => i === 0 || [items[i - 1]!.updatedAtUtc, items[i - 1]!.id].join(' ') > [item.updatedAtUtc, item.id].join(' '));

describe('the trip list (D87)', () => {
  it('lists the trips newest-changed first, page by page, oldest first when asked, and by status', async () => {
    const base = await tenant();
    const [first, second, third] = [await trip(base, 'T-1'), await trip(base, 'T-2'), await trip(base, 'T-3')];
    // Starting the first trip changes it last: it leads the list.
    expect((await api('startTrip', `${base}/trips/${first}/start`)).status).toBe(200);
    const newest = await readAll('listTrips', `${base}/trips`);
    expect(newest.ids).toEqual([first, third, second]);
    expect(newest.pages).toBe(2);
    expect(newestFirst(newest.items)).toBe(true);
    expect(newest.items[0]).toMatchObject({ id: first, status: 'InProgress', stopCount: 1 });
    expect((await readAll('listTrips', `${base}/trips`, { sort: 'oldest' })).ids).toEqual([second, third, first]);
    expect((await readAll('listTrips', `${base}/trips`, { status: 'Confirmed' })).ids).toEqual([third, second]);
    // As the feed has them: the same items, the same JSON.
    const key = (await api('createApiKey', `${base}/keys`, { json: { name: 'trips', scopes: ['trips:read'] } })).body.secret;
    const feed = await call(server.url, 'tripFeed', '/api/v1/integration/trips', { key });
    expect((await api('listTrips', `${base}/trips?sort=oldest`)).body.items).toEqual(feed.body.items);
  });

  it('lists no trip of another tenant, and none for a tenant without trips', async () => {
    const [base, other] = [await tenant(), await tenant()];
    await trip(other, 'OTHER-1');
    expect((await api('listTrips', `${base}/trips`)).body).toEqual({ items: [], nextCursor: null });
    expect((await api('listTrips', `/tenants/00000000-0000-4000-8000-000000000000/trips`)).status).toBe(404);
  });

  it('refuses a cursor it did not issue for this tenant, list and sort, an unknown status and a bad limit', async () => {
    const [base, other] = [await tenant(), await tenant()];
    for (const [at, name] of [[base, 'A'], [other, 'B']] as const) for (const n of [1, 2]) await trip(at, `${name}-${n}`);
    await order(base, 'A-3');
    const cursorOf = async (operationId: string, path: string) => (await api(operationId, `${path}?limit=1`)).body.nextCursor as string;
    const newest = await cursorOf('listTrips', `${base}/trips`);
    expect((await api('listTrips', `${base}/trips?limit=1&after=${encodeURIComponent(newest)}`)).status).toBe(200);
    const refusedAfter = [
      ['a cursor of the newest-first list sent with sort=oldest', `${base}/trips?sort=oldest&after=${encodeURIComponent(newest)}`],
      ["another tenant's cursor", `${base}/trips?after=${encodeURIComponent(await cursorOf('listTrips', `${other}/trips`))}`],
      ["the order list's cursor", `${base}/trips?after=${encodeURIComponent(await cursorOf('listOrders', `${base}/orders`))}`],
      ['a made-up cursor', `${base}/trips?after=bm90LWlzc3VlZA.AAAA`],
    ] as const;
    for (const [what, path] of refusedAfter) {
      const refused = await api('listTrips', path);
      expect([refused.status, refused.body.type, refused.body.errors[0].field], what).toEqual([400, 'audit.cursor.invalid', 'after']);
    }
    for (const [query, field] of [['status=Done', 'status'], ['limit=0', 'limit'], ['sort=latest', 'sort']] as const) {
      const refused = await api('listTrips', `${base}/trips?${query}`);
      expect([refused.status, refused.body.type, refused.body.errors[0].field], query).toEqual([400, 'api.malformed_request', field]);
    }
  });
});

describe('the order list (D87)', () => {
  it('lists the live orders newest-changed first, oldest first when asked, by status, leaving out an archived one', async () => {
    const base = await tenant();
    const ids = [];
    for (const n of [1, 2, 3, 4]) ids.push(await order(base, `O-${n}`));
    const [one, two, three, four] = ids as [string, string, string, string];
    // Planned onto a trip, the first order is the one changed last.
    await api('buildTrip', `${base}/trips`, { json: { orderIds: [one] } });
    const key = (await api('createApiKey', `${base}/keys`, { json: { name: 'write', scopes: ['orders:read', 'orders:write'] } })).body.secret;
    expect((await call(server.url, 'archiveOrder', '/api/v1/integration/orders/externalid/O-3', { method: 'DELETE', key })).status).toBe(204);
    const newest = await readAll('listOrders', `${base}/orders`, {}, 2);
    expect(newest.ids).toEqual([one, four, two]);
    expect(newest.ids).not.toContain(three);
    expect(newestFirst(newest.items)).toBe(true);
    expect((await readAll('listOrders', `${base}/orders`, { sort: 'oldest' }, 100)).ids).toEqual([two, four, one]);
    expect((await readAll('listOrders', `${base}/orders`, { status: 'New' })).ids).toEqual([four, two]);
    const both = await api('listOrders', `${base}/orders?status=New&status=Planned&limit=100`);
    expect(both.body.items.map((item: Item) => item.id)).toEqual([one, four, two]);
    const feed = await call(server.url, 'orderFeed', '/api/v1/integration/orders', { key });
    expect((await api('listOrders', `${base}/orders?sort=oldest`)).body.items).toEqual(feed.body.items);
  });

  it('caps the page at 100 and answers 50 without a limit', async () => {
    const base = await tenant();
    const rows = Array.from({ length: 101 }, (_, n) => orderIntake(`BULK-${n}`));
    expect((await api('importOrders', `${base}/order-imports`, { json: { rows } })).body.created).toBe(101);
    expect((await api('listOrders', `${base}/orders`)).body.items).toHaveLength(50);
    const capped = await api('listOrders', `${base}/orders?limit=500`);
    expect(capped.body.items).toHaveLength(100);
    expect(capped.body.nextCursor).not.toBeNull();
  });
});
