import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../engine/types/exchange.ts';
import type { Profile } from '../../engine/types/profile.ts';
import { decidedResponseViolations, isRetryAfter, responseViolations, seedContractErrors, seedResponseViolations } from './response-contract.ts';

const rateLimit = { 'ratelimit-limit': '600', 'ratelimit-remaining': '599', 'ratelimit-reset': '1' };

/** A recorded exchange of `operationId` answered `status` with `body`, with X-Request-Id and RateLimit-* unless `headers` change them. */
function exchange(operationId: string | null, status: number, body: string | null, headers: Record<string, string> = {}): ExchangeRecord {
  return {
    id: 1,
    checkId: 't.t',
    channel: 'api',
    operationId,
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 1,
    request: { method: 'GET', url: 'http://x/api/v1/integration/orders', headers: {}, body: null, bodyBytes: 0 },
    response: { status, headers: { 'x-request-id': 'r', ...rateLimit, ...headers }, body, bodyBytes: body?.length ?? 0 },
    replay: '',
  };
}

const json = { 'content-type': 'application/json; charset=utf-8' };
const problemJson = { 'content-type': 'application/problem+json' };
const waybill: Profile = { keys: { full: 'k' } };

const order = {
  id: '0b7e5a52-3c1f-4b8e-9f6a-2d4c8e1a7b30',
  externalId: 'SHOP-1',
  shortId: 'ORD-1',
  status: 'Planned',
  miniStatus: null,
  type: 'Delivery',
  customId: null,
  createdAtUtc: '2026-11-02T08:14:03.117Z',
  updatedAtUtc: '2026-11-20T09:30:11.482Z',
  tags: [],
};

const trip = {
  id: '9d3b2c1e-5f4a-4e6b-8a7c-1d2e3f4a5b6c',
  shortId: 'TRP-1',
  status: 'InProgress',
  warehouseId: '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f',
  driverId: null,
  vehicleId: null,
  stopCount: 3,
  plannedAtUtc: '2026-11-19T17:45:00.000Z',
  updatedAtUtc: '2026-11-20T07:58:31.204Z',
};

/** `trip` with its members named as a target might name them. */
const renamedTrip = { tripId: 'T-1', code: 'TRP-1', status: 'Confirmed', depot: 'W-1', driver: null, vehicle: 'V-1', stops: 0, planned: '2026-11-19T17:45:00Z', changed: '2026-11-20T07:58:31+00:00' };
const renaming: Profile = { keys: { full: 'k' }, choices: { tripFields: { id: 'tripId', shortCode: 'code', warehouse: 'depot', driver: 'driver', vehicle: 'vehicle', stopCount: 'stops', plannedAt: 'planned', updatedAt: 'changed' } } };

describe('responseViolations (the decided view)', () => {
  it('accepts a declared answer with its media type (parameters allowed), schema and headers', () => {
    expect(responseViolations(exchange('orderFeed', 200, '{"items":[],"nextCursor":null}', json))).toEqual([]);
  });

  it('ignores exchanges that match no operation or got no answer', () => {
    expect(responseViolations(exchange(null, 418, 'x'))).toEqual([]);
    expect(responseViolations({ ...exchange('orderFeed', 200, null), response: null })).toEqual([]);
  });

  it('finds a body on a 204, a body that is not JSON, and a schema violation', () => {
    expect(responseViolations(exchange('archiveOrder', 204, 'surprise'))[0]?.message).toContain('a 204 answer carries no body');
    expect(responseViolations(exchange('orderFeed', 200, '{"items":', json))[0]?.message).toContain('the body is not JSON');
    const [violation] = responseViolations(exchange('orderFeed', 200, '{"items":[],"nextCursor":""}', json));
    expect(violation?.message).toContain('the body does not match OrderPage');
    expect(violation?.received).toBe('/nextCursor must NOT have fewer than 1 characters');
    const [many] = responseViolations(exchange('orderFeed', 200, '{"items":[{"id":"nope"}],"nextCursor":null}', json));
    expect(many?.received).toMatch(/^\/items\/0 must have required property 'externalId'; .*; and \d+ more$/);
  });

  it('wants problem+json on a failure and Retry-After on a 429', () => {
    const problem = '{"type":"api.rate_limited","title":"Rate limit exceeded","status":429}';
    const findings = responseViolations(exchange('orderFeed', 429, problem, json)).map((finding) => finding.message);
    expect(findings).toEqual([expect.stringContaining('required header Retry-After missing'), expect.stringContaining('wrong Content-Type')]);
  });
});

describe('seedContractErrors', () => {
  it("accepts waybill's shapes", () => {
    expect(seedContractErrors('Order', order, waybill)).toEqual([]);
    expect(seedContractErrors('TripPage', { items: [trip], nextCursor: null }, waybill)).toEqual([]);
    expect(seedContractErrors('KeyIdentity', { tenantId: 't', keyId: 'k', scopes: ['orders:read'] }, waybill)).toEqual([]);
  });

  it('accepts what only decisions refuse: timestamps without milliseconds or with an offset, an empty cursor, an unknown order status, trip ids that are not uuids', () => {
    expect(seedContractErrors('Order', { ...order, createdAtUtc: '2026-11-02T08:14:03Z', updatedAtUtc: '2026-11-20T09:30:11+00:00', status: 'OnHold' }, waybill)).toEqual([]);
    expect(seedContractErrors('OrderPage', { items: [], nextCursor: '' }, waybill)).toEqual([]);
    expect(seedContractErrors('Trip', { ...trip, id: 'T-1', warehouseId: 'W-1', driverId: 'D-1' }, waybill)).toEqual([]);
  });

  it('refuses what the seeds fix: member types, presence, the order type and trip status enums, date-times, 100 items a page', () => {
    expect(seedContractErrors('Order', { ...order, shortId: 7 }, waybill)).toEqual(['/shortId must be string']);
    const { tags: _tags, ...untagged } = order;
    expect(seedContractErrors('Order', untagged, waybill)).toEqual(["/ must have required property 'tags'"]);
    expect(seedContractErrors('Order', { ...order, type: 'Courier' }, waybill)).toEqual(['/type must be equal to one of the allowed values']);
    expect(seedContractErrors('Order', { ...order, status: 3 }, waybill)).toEqual(['/status must be string']);
    expect(seedContractErrors('Order', { ...order, createdAtUtc: '2026-11-02 08:14' }, waybill)).toEqual(['/createdAtUtc must match format "date-time"']);
    expect(seedContractErrors('Trip', { ...trip, status: 'Paused' }, waybill)).toEqual(['/status must be equal to one of the allowed values']);
    expect(seedContractErrors('Trip', { ...trip, stopCount: -1 }, waybill)).toEqual(['/stopCount must be >= 0']);
    expect(seedContractErrors('OrderPage', { items: Array.from({ length: 101 }, () => order), nextCursor: null }, waybill)).toEqual(['/items must NOT have more than 100 items']);
  });

  it("reads trips with the profile's names, and wants the seeds' member order", () => {
    expect(seedContractErrors('TripPage', { items: [renamedTrip], nextCursor: null }, renaming)).toEqual([]);
    expect(seedContractErrors('Trip', trip, renaming)).toContain("/ must have required property 'tripId'");
    const { status, ...rest } = trip;
    expect(seedContractErrors('TripPage', { items: [{ status, ...rest }], nextCursor: null }, waybill)).toEqual([
      "/items/0 members are not in the seeds' order (id, shortId, status, warehouseId, driverId, vehicleId, stopCount, plannedAtUtc, updatedAtUtc): status, id, shortId, warehouseId, driverId, vehicleId, stopCount, plannedAtUtc, updatedAtUtc",
    ]);
  });

  it('refuses overridable on a 400 and a field error without value; wants type on other problems', () => {
    const problem = { type: 'api.malformed_request', title: 'Malformed request', status: 400, detail: null };
    expect(seedContractErrors('ValidationProblem', problem, waybill)).toEqual([]);
    expect(seedContractErrors('ValidationProblem', { ...problem, overridable: null }, waybill)).toEqual(['/overridable boolean schema is false']);
    expect(seedContractErrors('ValidationProblem', { ...problem, errors: [{ field: 'amount', code: 'c', message: 'm' }] }, waybill)).toEqual(["/errors/0 must have required property 'value'"]);
    expect(seedContractErrors('Problem', { title: 'Not found', status: 404, detail: null, instance: null }, waybill)).toEqual(["/ must have required property 'type'"]);
  });
});

describe('isRetryAfter', () => {
  it.each(['0', '12', 'Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'])('accepts %s', (value) => {
    expect(isRetryAfter(value)).toBe(true);
  });
  it.each(['', '1.5', '-1', 'soon', '2026-11-20T09:30:11Z', 'Sun, 6 Nov 1994 08:49:37 GMT'])('refuses %s', (value) => {
    expect(isRetryAfter(value)).toBe(false);
  });
});

describe('seedResponseViolations and decidedResponseViolations', () => {
  const rateLimited = '{"type":"api.rate_limited","title":"Rate limit exceeded","status":429,"detail":null,"instance":null}';

  it('lets every endpoint answer the statuses the seeds list, and refuses others', () => {
    const notFound = '{"type":"orders.notFound","title":"Not found","status":404,"detail":null,"instance":null}';
    expect(seedResponseViolations(exchange('whoami', 404, notFound, problemJson), waybill)).toEqual([]);
    expect(decidedResponseViolations(exchange('whoami', 404, notFound, problemJson), waybill).map((finding) => finding.message)).toEqual([expect.stringContaining('status not declared for whoami')]);
    const teapot = exchange('whoami', 418, '{}', problemJson);
    expect(seedResponseViolations(teapot, waybill).map((finding) => [finding.message, finding.expected])).toEqual([
      [expect.stringContaining('a status the seeds do not list for whoami'), 'one of 200, 400, 401, 403, 404, 408, 409, 413, 415, 429, 500, 503, 417'],
    ]);
    // 417 is HTTP's answer to an unmet Expect, which the seeds never mention (D60): no departure from them.
    expect(seedResponseViolations(exchange('whoami', 417, '{"type":"about:blank","title":"Expectation Failed","status":417,"detail":null,"instance":null}', problemJson), waybill)).toEqual([]);
    expect(decidedResponseViolations(teapot, waybill)).toEqual([]);
  });

  it('takes any Retry-After HTTP defines at seed level; the whole seconds are D14', () => {
    const dated = exchange('orderFeed', 429, rateLimited, { ...problemJson, 'retry-after': 'Sun, 06 Nov 1994 08:49:37 GMT' });
    expect(seedResponseViolations(dated, waybill)).toEqual([]);
    expect(decidedResponseViolations(dated, waybill).map((finding) => finding.message)).toEqual([expect.stringContaining('header Retry-After does not match its schema')]);
    const missing = exchange('orderFeed', 429, rateLimited, problemJson);
    expect(seedResponseViolations(missing, waybill).map((finding) => finding.message)).toEqual([expect.stringContaining('required header Retry-After missing')]);
    expect(decidedResponseViolations(missing, waybill)).toEqual([]);
    const garbled = exchange('orderFeed', 429, rateLimited, { ...problemJson, 'retry-after': 'soon' });
    expect(seedResponseViolations(garbled, waybill)[0]).toMatchObject({ expected: 'Retry-After as delay-seconds or an HTTP-date', received: 'Retry-After: soon (neither delay-seconds nor an HTTP-date)' });
    expect(decidedResponseViolations(garbled, waybill)).toEqual([]);
  });

  it('leaves 401 and 403 bodies to D3, but not their media type', () => {
    const bare = exchange('orderFeed', 401, '{"error":"no key"}', { ...problemJson, 'www-authenticate': 'ApiKey' });
    expect(seedResponseViolations(bare, waybill)).toEqual([]);
    expect(decidedResponseViolations(bare, waybill)[0]?.received).toBe("/ must have required property 'type'; / must have required property 'title'; / must have required property 'status'");
    const plain = exchange('orderFeed', 403, '{"type":"about:blank","title":"Forbidden","status":403}', json);
    expect(seedResponseViolations(plain, waybill).map((finding) => finding.message)).toEqual([expect.stringContaining('wrong Content-Type')]);
    expect(decidedResponseViolations(plain, waybill)).toEqual([]);
  });

  it("leaves a problem's type to the problems checks and the operation's own, whatever its response's type enum (D91) lists", () => {
    const conflict = (type: string, title = 'Conflict') => exchange('attachPayment', 409, JSON.stringify({ type, title, status: 409, detail: null, instance: null }), problemJson);
    // D10: a payment is taken in any status of a live order, so attachPayment lists no orders.status.illegal:
    // writes.payment.anyStatus and writes.payment.repeat judge that code, pointing at D10, not this view.
    for (const type of ['tenants.tenant.suspended', 'orders.status.illegal', 'order_conflict', 'orders.notFound']) {
      expect(decidedResponseViolations(conflict(type), waybill), type).toEqual([]);
      expect(seedResponseViolations(conflict(type), waybill), type).toEqual([]);
    }
  });

  it('reports in the decided view only what the seed view does not: X-Request-Id, milliseconds, trip names', () => {
    const page = JSON.stringify({ items: [{ ...order, createdAtUtc: '2026-11-02T08:14:03Z', shortId: 7 }], nextCursor: null });
    const answer = exchange('orderFeed', 200, page, json);
    delete answer.response!.headers['x-request-id'];
    expect(seedResponseViolations(answer, waybill).map((finding) => [finding.message, finding.received])).toEqual([[expect.stringContaining("the body does not match the seeds' OrderPage"), '/items/0/shortId must be string']]);
    expect(decidedResponseViolations(answer, waybill).map((finding) => [finding.message, finding.received])).toEqual([
      [expect.stringContaining('required header X-Request-Id missing'), 'no such header'],
      [expect.stringContaining('the body does not match OrderPage'), '/items/0/createdAtUtc must match pattern "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$"'],
    ]);
    const trips = exchange('tripFeed', 200, JSON.stringify({ items: [renamedTrip], nextCursor: null }), json);
    expect(seedResponseViolations(trips, renaming)).toEqual([]);
    expect(decidedResponseViolations(trips, renaming)[0]?.received).toMatch(/^\/items\/0 must have required property 'id'; /);
  });
});
