/** The request log's SQLite statements (D48): a plain entry's shorter insert stores what the whole one would, and pruning deletes exactly a tenant's oldest. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../store/db.ts';
import { isPlain, type LogRow, makeRequestLogTable, type NewLogEntry } from './store.ts';

/** A caught-up poll's entry: every column `isPlain` looks at holds its default. */
const plain: NewLogEntry = {
  tenantId: 'ten_a', at: '2026-11-27T14:00:00.123Z', operation: 'orderFeed', method: 'GET', target: '/api/v1/integration/orders?limit=50', status: 200,
  problemType: null, fieldErrors: null, latencyMs: 1.25, keyId: 'key_a', requestId: 'req_1', idempotencyKey: null, replayed: false,
  requestContentType: null, requestBody: null, requestBytes: 0, responseContentType: 'application/json; charset=utf-8',
  responseBody: '{"items":[],"nextCursor":null}', responseBytes: 30, orderIds: '[]', tripIds: '[]', fault: null, feedPage: '[null,[]]',
};

/** Each column the plain insert leaves out, with a value other than its default. */
const unplain: Partial<NewLogEntry>[] = [
  { problemType: 'https://waybill.dev/problems/api.malformed_request' }, { fieldErrors: '[{"field":"limit"}]' }, { idempotencyKey: 'k-1' },
  { replayed: true }, { requestContentType: 'application/json' }, { requestBody: '{"a":1}' }, { requestBytes: 7 },
  { orderIds: '["ord_1"]' }, { tripIds: '["trp_1"]' }, { fault: '{"fault":"reset"}' },
];

/** The row `entry` should read back as. */
function rowOf(id: number, e: NewLogEntry): LogRow {
  return {
    id, tenant_id: e.tenantId, at: e.at, operation: e.operation, method: e.method, target: e.target, status: e.status, problem_type: e.problemType,
    field_errors: e.fieldErrors, latency_ms: e.latencyMs, key_id: e.keyId, request_id: e.requestId, idempotency_key: e.idempotencyKey,
    replayed: e.replayed ? 1 : 0, request_content_type: e.requestContentType, request_body: e.requestBody, request_bytes: e.requestBytes,
    response_content_type: e.responseContentType, response_body: e.responseBody, response_bytes: e.responseBytes, order_ids: e.orderIds,
    trip_ids: e.tripIds, fault: e.fault, feed_page: e.feedPage,
  };
}

describe('the request log table', () => {
  it('stores a plain entry and one with each left-out column set exactly as given', () => {
    const table = makeRequestLogTable(openDatabase(':memory:', 'request-log'));
    const entries = [plain, ...unplain.map((change) => ({ ...plain, ...change }))];
    // Both inserts are met: the first entry takes the plain one, each of the others the whole one.
    expect(entries.map(isPlain)).toEqual([true, ...unplain.map(() => false)]);
    const ids = table.insert(entries);
    expect(ids.map((id) => table.get('ten_a', id))).toEqual(entries.map((entry, i) => rowOf(ids[i]!, entry)));
  });

  it('deletes the tenant’s oldest entries up to the limit, all of them when it has fewer, and none of another tenant', () => {
    const table = makeRequestLogTable(openDatabase(':memory:', 'request-log'));
    const entry = (tenantId: string, requestId: string): NewLogEntry => ({ ...plain, tenantId, requestId });
    table.insert(['a1', 'b1', 'a2', 'b2', 'a3', 'a4'].map((id) => entry(id[0] === 'a' ? 'A' : 'B', id)));
    const left = (tenantId: string) => table.page(tenantId, {}, Number.MAX_SAFE_INTEGER, 10).map((row) => row.request_id).reverse();
    expect(table.deleteStep('A', 0)).toBe(0);
    expect(table.deleteStep('A', 2)).toBe(2);
    expect(left('A')).toEqual(['a3', 'a4']);
    expect(table.deleteStep('A', 5)).toBe(2);
    expect(left('A')).toEqual([]);
    expect(left('B')).toEqual(['b1', 'b2']);
  });
});
