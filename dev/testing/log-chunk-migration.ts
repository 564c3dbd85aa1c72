/** What both engines' tests of the request log's move to chunks (D85) write before it and expect after it. */
import { expect } from 'vitest';
import type { LogRow } from '../../server/request-log/store.ts';
import type { RequestLogReads } from '../../server/request-log/chunks.ts';

/** Rows of the log as migrations 001–003 kept it: two tenants interleaved, bodies absent, empty, and beyond U+FFFF. */
export const OLD_ROWS: LogRow[] = [
  {
    id: 3, tenant_id: 'ten_a', at: '2026-11-27T14:00:00.100Z', operation: 'orderFeed', method: 'GET', target: '/api/v1/integration/orders?limit=2', status: 200,
    problem_type: null, field_errors: null, latency_ms: 1.25, key_id: 'key_a', request_id: 'req_1', idempotency_key: null, replayed: 0,
    request_content_type: null, request_body: null, request_bytes: 0, response_content_type: 'application/json', response_body: '{"items":[{"note":"𝄞 😀"}]}',
    response_bytes: 30, order_ids: '[]', trip_ids: '[]', fault: null, feed_page: '["c1",[["ord_1","2026-11-27T13:00:00.000Z","Assigned"]]]',
  },
  {
    id: 4, tenant_id: 'ten_b', at: '2026-11-27T14:00:00.200Z', operation: 'cancelOrder', method: 'POST', target: '/api/v1/integration/orders/X-1/cancel', status: 400,
    problem_type: 'https://waybill.dev/problems/api.malformed_request', field_errors: '[{"field":"reason"}]', latency_ms: 2, key_id: 'key_b', request_id: 'req_2',
    idempotency_key: 'k-1', replayed: 1, request_content_type: 'application/json', request_body: '', request_bytes: 0, response_content_type: 'application/problem+json',
    response_body: '{"type":"x","détail":"é"}', response_bytes: 27, order_ids: '["ord_2"]', trip_ids: '["trp_2"]', fault: '{"fault":"reset"}', feed_page: null,
  },
  {
    id: 7, tenant_id: 'ten_a', at: '2026-11-27T14:00:00.300Z', operation: 'whoami', method: 'GET', target: '/api/v1/integration/whoami', status: 200,
    problem_type: null, field_errors: null, latency_ms: 0.5, key_id: 'key_a', request_id: 'req_3', idempotency_key: null, replayed: 0,
    request_content_type: 'text/plain', request_body: '😀x😀', request_bytes: 9, response_content_type: null, response_body: null, response_bytes: 0,
    order_ids: '[]', trip_ids: '[]', fault: null, feed_page: null,
  },
  // Pruned before the migration: the last id given, never to be given again.
  {
    id: 9, tenant_id: 'ten_a', at: '2026-11-27T14:00:00.400Z', operation: 'whoami', method: 'GET', target: '/api/v1/integration/whoami', status: 200,
    problem_type: null, field_errors: null, latency_ms: 0.5, key_id: 'key_a', request_id: 'req_4', idempotency_key: null, replayed: 0,
    request_content_type: null, request_body: null, request_bytes: 0, response_content_type: null, response_body: null, response_bytes: 0,
    order_ids: '[]', trip_ids: '[]', fault: null, feed_page: null,
  },
];

/** Expects the reads to show the rows kept before the migration exactly, and the entry written after it numbered `newFirstId`, past them all. */
export async function expectMigrated(reads: RequestLogReads, newFirstId: number | undefined): Promise<void> {
  const kept = OLD_ROWS.slice(0, -1);
  for (const row of kept) expect(await reads.get(row.tenant_id, row.id)).toEqual(row);
  const summary = ({ request_content_type, request_body, request_bytes, response_content_type, response_body, response_bytes, feed_page, ...rest }: LogRow) => rest;
  expect(await reads.page('ten_a', {}, 10, 10)).toEqual(kept.filter((row) => row.tenant_id === 'ten_a').map(summary).reverse());
  expect(await reads.after('ten_b', 0, 10)).toEqual(kept.filter((row) => row.tenant_id === 'ten_b').map(summary));
  expect(newFirstId).toBe(10);
  expect((await reads.page('ten_a', {}, Number.MAX_SAFE_INTEGER, 10)).map((row) => row.id)).toEqual([10, 7, 3]);
}
