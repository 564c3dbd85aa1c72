/** Order intake, import, restore and history in the control plane (D36, D37, D40, D92), and trips loaded from fixtures. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../fixtures/generate.ts';
import { makeDatasetImport, scopedId } from '../store/dataset.ts';
import { call, memoryStore, orderIntake, type RunningServer, sandboxClient, type SandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let api: SandboxClient;

beforeAll(async () => {
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

async function tenant(): Promise<{ base: string; key: string }> {
  const tenantId = (await api('createTenant', '/tenants', { json: { country: 'NL' } })).body.id;
  const base = `/tenants/${tenantId}`;
  const key = (await api('createApiKey', `${base}/keys`, { json: { name: 'all', scopes: ['orders:read', 'orders:write', 'trips:read'] } })).body.secret;
  return { base, key };
}

describe('order intake (D36)', () => {
  it('creates a New order with its lines, defaults filled, in the feed', async () => {
    const { base, key } = await tenant();
    const line = { warehouseId: '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f', productId: '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d', quantity: 3 };
    const created = await api('createOrder', `${base}/orders`, { json: { externalId: 'SHOP-9', type: 'Rebox', customId: 'PO-1', lines: [line, { ...line, quantity: 1, role: 'PickUp', price: 12.5 }] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ externalId: 'SHOP-9', status: 'New', type: 'Rebox', customId: 'PO-1', miniStatus: null, tags: [], tripId: null, archivedAtUtc: null });
    expect(created.body.shortId).toMatch(/^ORD-[2-9A-Z]{5}$/);
    expect(created.body.lines.map((l: { line: number; role: string; weightKg: number; price: number }) => [l.line, l.role, l.weightKg, l.price])).toEqual([
      [0, 'Delivery', 0, 0],
      [1, 'PickUp', 0, 12.5],
    ]);
    const feed = await call(server.url, 'orderFeed', '/api/v1/integration/orders', { key });
    const { relatedToOrderId: _r, tripId: _t, archivedAtUtc: _a, lines: _l, ...asInFeed } = created.body;
    expect(feed.body.items).toEqual([asInFeed]);
  });

  it('takes a Return only with the order it returns, an order of the tenant', async () => {
    const { base } = await tenant();
    const delivery = (await api('createOrder', `${base}/orders`, { json: orderIntake('D-1') })).body.id;
    const other = await api('createOrder', `${base}/orders`, { json: orderIntake('R-0', { type: 'Return', relatedToOrderId: '00000000-0000-4000-8000-000000000000' }) });
    expect(other.body.errors[0]).toMatchObject({ field: 'relatedToOrderId', code: 'orders.return.relatedRequired' });
    const created = await api('createOrder', `${base}/orders`, { json: orderIntake('R-1', { type: 'Return', relatedToOrderId: delivery }) });
    expect(created.body.relatedToOrderId).toBe(delivery);
  });

  it.each(['.', '..'])('refuses the external id %j, which no URL can carry, 400 api.malformed_request naming externalId, at intake and in an import (D92)', async (externalId) => {
    const { base } = await tenant();
    const created = await api('createOrder', `${base}/orders`, { json: orderIntake(externalId) });
    expect([created.status, created.body.type, created.body.title]).toEqual([400, 'api.malformed_request', 'Malformed request']);
    expect(created.body.errors).toEqual([{ field: 'externalId', code: 'api.malformed_request', value: externalId, message: expect.stringContaining(`externalId ${externalId} cannot be carried in a URL`) }]);
    const imported = await api('importOrders', `${base}/order-imports`, { json: { rows: [orderIntake(externalId), orderIntake(`${externalId}x`), orderIntake(`a${externalId}`)] } });
    expect([imported.body.created, imported.body.failed]).toEqual([2, 1]);
    expect(imported.body.rows[0]).toMatchObject({ row: 0, type: 'import.row.invalid', errors: [{ field: 'externalId', code: 'api.malformed_request' }] });
  });

  it('lets one of two concurrent intakes of the same external id win; the other is orders.duplicate', async () => {
    const { base } = await tenant();
    const answers = await Promise.all([1, 2].map(() => api('createOrder', `${base}/orders`, { json: orderIntake('RACE') })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.type).toBe('orders.duplicate');
  });
});

describe('JSON import (D37)', () => {
  it('creates the good rows and reports each bad one inside a 200', async () => {
    const { base, key } = await tenant();
    const rows = [
      orderIntake('IMP-1'),
      orderIntake('IMP-2', { lines: [] }),
      orderIntake('IMP-1'),
      { type: 'Delivery', lines: [] },
      orderIntake('IMP-3', { type: 'Pickup' }),
      orderIntake('IMP-4', { type: 'Delivery', lines: [{ ...(orderIntake('x')['lines'] as object[])[0], role: 'PickUp' }] }),
    ];
    const answer = await api('importOrders', `${base}/order-imports`, { json: { rows } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ created: 2, failed: 4 });
    const summary = answer.body.rows.map((row: { row: number; type: string | null; orderId: string | null; errors: { field: string; code: string }[] }) => [
      row.row,
      row.type,
      row.orderId === null ? null : 'created',
      row.errors.map((error) => `${error.field}:${error.code}`),
    ]);
    expect(summary).toEqual([
      [0, null, 'created', []],
      [1, 'import.row.invalid', null, ['lines:orders.lines.required']],
      [2, 'import.row.invalid', null, ['externalId:orders.duplicate']],
      [3, 'import.row.invalid', null, ['externalId:orders.externalId.required', 'lines:orders.lines.required']],
      [4, null, 'created', []],
      [5, 'import.row.invalid', null, ['lines[0].role:orders.line.roleNotAllowed']],
    ]);
    const feed = await call(server.url, 'orderFeed', '/api/v1/integration/orders', { key });
    // Rows share a stamp, so the feed orders them by id (D7).
    expect(feed.body.items.map((order: { externalId: string }) => order.externalId).sort()).toEqual(['IMP-1', 'IMP-3']);
    // One transaction, one stamp (D7).
    expect(new Set(feed.body.items.map((order: { updatedAtUtc: string }) => order.updatedAtUtc)).size).toBe(1);
  });

  it('accepts 1000 rows and refuses a body whose rows are not an array', async () => {
    const { base } = await tenant();
    const many = await api('importOrders', `${base}/order-imports`, { json: { rows: Array.from({ length: 1000 }, (_, i) => orderIntake(`BULK-${i}`)) } });
    expect(many.body.created).toBe(1000);
    const notArray = await api('importOrders', `${base}/order-imports`, { json: { rows: { externalId: 'x' } } });
    expect(notArray.body.errors[0]).toMatchObject({ field: 'rows', code: 'import.file.invalid' });
  });

  it('lists at most 50 errors of a row of 40,000 invalid lines, and says there are more (D59)', async () => {
    const { base } = await tenant();
    const rows = [orderIntake('WIDE-1', { lines: Array.from({ length: 40_000 }, () => 1) }), orderIntake('WIDE-2')];
    const response = await fetch(`${server.url}/sandbox/v1${base}/order-imports`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ rows }),
    });
    const text = await response.text();
    // Before D59 the answer listed every line: 4.3 MB.
    expect(text.length).toBeLessThan(20_000);
    const answer = JSON.parse(text) as { created: number; failed: number; rows: { type: string | null; detail: string | null; errors: { field: string }[] }[] };
    expect(response.status).toBe(200);
    expect(answer).toMatchObject({ created: 1, failed: 1 });
    expect(answer.rows[0]!.type).toBe('import.row.invalid');
    expect(answer.rows[0]!.errors.length).toBe(50);
    expect(answer.rows[0]!.errors[0]!.field).toBe('lines');
    expect(answer.rows[0]!.detail).toMatch(/…and more field errors that were not counted/);
  });

  it('lists at most 1,000 field errors in one answer, the first error of every refused row among them (D59)', async () => {
    const { base } = await tenant();
    const badLines = Array.from({ length: 30 }, () => ({}));
    const rows = Array.from({ length: 400 }, (_, i) => orderIntake(`MANY-${i}`, { lines: badLines }));
    const answer = await api('importOrders', `${base}/order-imports`, { json: { rows } });
    const listed = answer.body.rows.map((row: { errors: unknown[] }) => row.errors.length) as number[];
    expect(listed.every((count) => count >= 1 && count <= 50)).toBe(true);
    expect(listed.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000);
    // The first rows list what the budget allows; each says how many fields failed in all.
    expect(listed[0]).toBe(50);
    expect(answer.body.rows[0].detail).toBe('90 fields are invalid: the first 50 are listed, …and 40 more field errors.');
    expect(answer.body.rows[399].detail).toMatch(/^Each line requires/);
  });
});

describe('restore and history (D36, D40)', () => {
  it('restores an archived order into the feed, unless its external id was taken meanwhile', async () => {
    const { base, key } = await tenant();
    const archive = (externalId: string) => call(server.url, 'archiveOrder', `/api/v1/integration/orders/externalid/${externalId}`, { method: 'DELETE', key });
    const order = (await api('createOrder', `${base}/orders`, { json: orderIntake('BACK') })).body;
    expect((await archive('BACK')).status).toBe(204);
    expect((await api('getOrder', `${base}/orders/${order.id}`)).body.archivedAtUtc).not.toBeNull();
    const restored = await api('restoreOrder', `${base}/orders/${order.id}/restore`);
    expect(restored.body).toMatchObject({ archivedAtUtc: null, status: 'New' });
    expect((await call(server.url, 'orderFeed', '/api/v1/integration/orders', { key })).body.items.map((o: { id: string }) => o.id)).toEqual([order.id]);
    await archive('BACK');
    await api('createOrder', `${base}/orders`, { json: orderIntake('BACK') });
    expect((await api('restoreOrder', `${base}/orders/${order.id}/restore`)).body.type).toBe('orders.duplicate');
  });

  it('pages the history with server-issued cursors bound to the order', async () => {
    const { base, key } = await tenant();
    const order = (await api('createOrder', `${base}/orders`, { json: orderIntake('HIST') })).body;
    const other = (await api('createOrder', `${base}/orders`, { json: orderIntake('OTHER') })).body;
    for (const paymentId of ['4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', '5d2b8fa4-3c6e-4a19-8f7d-4b9e2c8a6f31']) {
      await call(server.url, 'attachPayment', '/api/v1/integration/orders/externalid/HIST/payment', { method: 'POST', key, json: { paymentId, amount: 10, currency: 'EUR' } });
    }
    await call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/HIST/cancel', { method: 'POST', key, json: { reason: 'Customer changed mind' } });
    const kinds: string[] = [];
    let query = '?limit=2';
    let pages = 0;
    for (;;) {
      const page = await api('orderHistory', `${base}/orders/${order.id}/history${query}`);
      kinds.push(...page.body.items.map((entry: { kind: string }) => entry.kind));
      pages += 1;
      if (page.body.nextCursor === null) break;
      const foreign = await api('orderHistory', `${base}/orders/${other.id}/history?after=${encodeURIComponent(page.body.nextCursor)}`);
      expect(foreign.body.type).toBe('audit.cursor.invalid');
      query = `?limit=2&after=${encodeURIComponent(page.body.nextCursor)}`;
    }
    expect(kinds).toEqual(['created', 'payment', 'payment', 'cancel']);
    expect(pages).toBe(2);
    const cancel = (await api('orderHistory', `${base}/orders/${order.id}/history?limit=100`)).body.items[3];
    expect(cancel.data).toEqual({ from: 'New', to: 'Cancelled', reason: 'Customer changed mind' });
  });
});

describe('trips loaded from a fixture dataset', () => {
  it('has a stop per order, open while its trip is Confirmed, and drives like a trip the control plane built', async () => {
    const tenantId = (await api('createTenant', '/tenants', { json: { country: 'NL' } })).body.id;
    const dataset = generateDataset({ seed: 11, orders: 60, trips: 20 });
    makeDatasetImport(server.store)(tenantId, dataset);
    const confirmed = dataset.trips.find((trip) => trip.status === 'Confirmed' && trip.orderIds.length > 0)!;
    const path = `/tenants/${tenantId}/trips/${scopedId(tenantId, confirmed.id)}`;
    const before = await api('getTrip', path);
    expect(before.body.stops.map((stop: { status: string }) => stop.status)).toEqual(confirmed.orderIds.map(() => 'Open'));
    const started = await api('startTrip', `${path}/start`);
    expect(started.body.status).toBe('InProgress');
    for (const orderId of confirmed.orderIds) {
      expect((await api('getOrder', `/tenants/${tenantId}/orders/${scopedId(tenantId, orderId)}`)).body.status).toBe('InProgress');
    }
    const completedTrip = dataset.trips.find((trip) => trip.status === 'Completed')!;
    const done = await api('recordStopOutcome', `/tenants/${tenantId}/trips/${scopedId(tenantId, completedTrip.id)}/stops/0/outcome`, { json: { status: 'Failed', reasonCode: 'x' } });
    expect(done.body.type).toBe('trips.stop.tripNotActive');
  });
});
