/** Payment (D10), cancel (D11), archive (D12), and what the feed shows of them (D7). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statement } from '../store/sql.ts';
import { call, memoryStore, type RunningServer, type SeededTestTenant, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';

const ORDERS = '/api/v1/integration/orders';
const order = (externalId: string) => `${ORDERS}/externalid/${encodeURIComponent(externalId)}`;
const PAYMENT = { paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 12.5, currency: 'EUR' };

let server: RunningServer;
let keys: SeededTestTenant['keys'];
let other: SeededTestTenant['keys'];
// tinyDataset cycles statuses: i % 9 → New, InPlanning, Planned, InProgress, FullyDelivered, Cancelled, Returned, Refused, Closed.
const withStatus = (status: number, nth = 0) => `EXT-${status + 9 * nth}`;

beforeAll(async () => {
  const store = await memoryStore();
  ({ keys } = await seedTenant(store, tinyDataset({ orders: 90 })));
  ({ keys: other } = await seedTenant(store, tinyDataset({ orders: 9 })));
  server = await startServer(store);
});
afterAll(() => server.close());

const pay = (externalId: string, json: unknown, key = keys.full) => call(server.url, 'attachPayment', `${order(externalId)}/payment`, { method: 'POST', key, json });
const cancel = (externalId: string, json?: unknown, key = keys.full) => call(server.url, 'cancelOrder', `${order(externalId)}/cancel`, { method: 'POST', key, ...(json === undefined ? {} : { json }) });
const archive = (externalId: string, key = keys.full) => call(server.url, 'archiveOrder', order(externalId), { method: 'DELETE', key });
const feed = async (key = keys.full) => {
  const items: { externalId: string; status: string; updatedAtUtc: string }[] = [];
  let cursor: string | null = null;
  do {
    const page = await call(server.url, 'orderFeed', `${ORDERS}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
    items.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return items;
};

describe('attach a payment', () => {
  it('records it and answers the order, with updatedAtUtc moved past every other stamp (D7, D10)', async () => {
    const before = await feed();
    const answer = await pay(withStatus(4), PAYMENT);
    expect(answer.status).toBe(200);
    expect(answer.body.externalId).toBe(withStatus(4));
    expect(before.every((o) => o.updatedAtUtc < answer.body.updatedAtUtc)).toBe(true);
    expect((await feed()).at(-1)).toEqual(answer.body);
  });

  it('answers a repeated paymentId 200 without recording it again or moving the order (D10)', async () => {
    const payment = { ...PAYMENT, paymentId: '6b0d7c61-1111-4a2b-9c3d-000000000001' };
    const first = await pay(withStatus(0, 1), payment);
    const again = await pay(withStatus(0, 1), { ...payment, amount: 99 });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const rows = await server.store.sql.all(statement('SELECT amount FROM order_payments WHERE payment_id = ?'), [payment.paymentId]);
    expect(rows).toEqual([{ amount: 12.5 }]);
  });

  it.each([
    ['amount 0', { amount: 0 }, 'amount', 'payments.amount.invalid'],
    ['amount -1', { amount: -1 }, 'amount', 'payments.amount.invalid'],
    ['amount as text', { amount: '12' }, 'amount', 'payments.amount.invalid'],
    ['amount null', { amount: null }, 'amount', 'payments.amount.invalid'],
    ['currency lower case', { currency: 'eur' }, 'currency', 'payments.currency.invalid'],
    ['currency of two letters', { currency: 'EU' }, 'currency', 'payments.currency.invalid'],
    ['currency of four letters', { currency: 'EURO' }, 'currency', 'payments.currency.invalid'],
    ['currency not in ISO 4217', { currency: 'ABC' }, 'currency', 'payments.currency.invalid'],
    ['paymentId not a uuid', { paymentId: 'p-1' }, 'paymentId', 'api.malformed_request'],
  ])('refuses %s with 400 %s', async (_name, change, field, code) => {
    const answer = await pay(withStatus(0), { ...PAYMENT, ...change });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe(code);
    expect(answer.body.errors).toEqual([expect.objectContaining({ field, code })]);
  });

  it('refuses an amount that overflows to Infinity', async () => {
    const answer = await call(server.url, 'attachPayment', `${order(withStatus(0))}/payment`, {
      method: 'POST', key: keys.full, headers: { 'Content-Type': 'application/json' },
      body: `{"paymentId":"${PAYMENT.paymentId}","amount":1e999,"currency":"EUR"}`,
    });
    expect(answer.body.type).toBe('payments.amount.invalid');
  });

  it.each(['paymentId', 'amount', 'currency'])('refuses a body without %s, naming it', async (field) => {
    const { [field as keyof typeof PAYMENT]: _dropped, ...rest } = PAYMENT;
    const answer = await pay(withStatus(0), rest);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe(field);
  });

  it('ignores unknown fields (D19) and refuses a body that is not an object', async () => {
    expect((await pay(withStatus(0), { ...PAYMENT, paymentId: '6b0d7c61-1111-4a2b-9c3d-000000000002', note: 'x' })).status).toBe(200);
    const list = await pay(withStatus(0), [PAYMENT]);
    expect(list.status).toBe(400);
    expect(list.body.type).toBe('api.malformed_request');
  });

  it('answers 404 orders.notFound for an unknown external id and for another tenant\'s order', async () => {
    expect((await pay('NOPE-1', PAYMENT)).body.type).toBe('orders.notFound');
    const theirs = await pay(withStatus(0), PAYMENT, other.full);
    expect(theirs.status).toBe(200);
    const unknownToThem = await pay(withStatus(0, 5), PAYMENT, other.full);
    expect(unknownToThem.status).toBe(404);
  });
});

describe('cancel', () => {
  it.each([[0, 'New'], [1, 'InPlanning'], [2, 'Planned']])('is legal from %s (%s) and makes the order Cancelled (D11)', async (status) => {
    const answer = await cancel(withStatus(status, 2), { reason: 'customer called' });
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('Cancelled');
    const history = await server.store.sql.all<{ data: string }>(statement("SELECT data FROM order_history h JOIN orders o ON o.id = h.order_id WHERE o.external_id = ? AND h.kind = 'cancel'"), [withStatus(status, 2)]);
    expect(history.map((row) => JSON.parse(row.data).reason)).toEqual(['customer called']);
  });

  it('takes no body at all, and an empty JSON object', async () => {
    expect((await cancel(withStatus(0, 3))).status).toBe(200);
    expect((await cancel(withStatus(1, 3), {})).status).toBe(200);
  });

  it.each([3, 4, 5, 6, 7, 8])('is 409 orders.status.illegal from status #%i', async (status) => {
    const answer = await cancel(withStatus(status, 2));
    expect(answer.status).toBe(409);
    expect(answer.body.type).toBe('orders.status.illegal');
  });

  it('refuses a wrongly typed reason, naming it (D19)', async () => {
    const answer = await cancel(withStatus(0, 4), { reason: 42 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'reason', code: 'api.malformed_request', value: '42' });
  });
});

describe('archive', () => {
  it('answers 204 with no body, then 404 for payment, cancel and archive, and the feed no longer shows it (D12)', async () => {
    const externalId = withStatus(0, 6);
    const answer = await archive(externalId);
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    for (const again of [await pay(externalId, PAYMENT), await cancel(externalId), await archive(externalId)]) {
      expect(again.status).toBe(404);
      expect(again.body.type).toBe('orders.notFound');
    }
    expect((await feed()).some((o) => o.externalId === externalId)).toBe(false);
  });

  it.each([[2, 'Planned'], [3, 'InProgress']])('is 409 from %s (%s)', async (status) => {
    expect((await archive(withStatus(status, 6))).body.type).toBe('orders.status.illegal');
  });

  it.each([4, 5, 6, 7, 8, 1])('is legal from status #%i', async (status) => {
    expect((await archive(withStatus(status, 7))).status).toBe(204);
  });
});
