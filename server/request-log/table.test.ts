/** The request log's SQLite table (D48, D85): a chunk keeps each entry exactly as given, each tenant keeps exactly its last N, and pruning deletes only chunks it no longer keeps. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../store/db.ts';
import { sqliteSql } from '../store/sqlite-sql.ts';
import { CHUNK_CHARS } from './chunks.ts';
import { PAGE_IN_BODY } from './page-text.ts';
import { type LogRow, makeRequestLogReads, makeRequestLogTable, type NewLogEntry } from './store.ts';

/** A caught-up poll's entry. */
const plain: NewLogEntry = {
  tenantId: 'ten_a', at: '2026-11-27T14:00:00.123Z', operation: 'orderFeed', method: 'GET', target: '/api/v1/integration/orders?limit=50', status: 200,
  problemType: null, fieldErrors: null, latencyMs: 1.25, keyId: 'key_a', requestId: 'req_1', idempotencyKey: null, replayed: false,
  requestContentType: null, requestBody: null, requestBytes: 0, responseContentType: 'application/json; charset=utf-8',
  responseBody: '{"items":[],"nextCursor":null}', responseBytes: 30, orderIds: '[]', tripIds: '[]', fault: null, feedPage: '[null,[]]',
};

/** Entries that differ from the plain one in each field, bodies of characters beyond U+FFFF, empty and absent bodies among them. */
const changes: Partial<NewLogEntry>[] = [
  { problemType: 'https://waybill.dev/problems/api.malformed_request', status: 400 }, { fieldErrors: '[{"field":"limit"}]' }, { idempotencyKey: 'k-1' },
  { replayed: true }, { requestContentType: 'application/json', requestBody: '{"a":"𝄞 é \\" \u0000"}', requestBytes: 17 }, { requestBody: '' },
  { responseBody: null, responseContentType: null, responseBytes: 0 }, { responseBody: '😀'.repeat(3) }, { feedPage: null }, { feedPage: '["c",[["o","t","𝄞"]]]' },
  { orderIds: '["ord_1"]' }, { tripIds: '["trp_1"]' }, { fault: '{"fault":"reset"}' }, { latencyMs: 0.001 }, { at: '2026-11-27T14:00:01.000Z', method: 'POST' },
];

/** A feed page's body that holds its page (`PAGE_IN_BODY`), with members the page does not keep, and the page's text. */
const pageBody = '{"items":[{"id":"ord_1","shortId":"A1","status":"New","updatedAtUtc":"2026-11-27T14:00:00.000Z"},'
  + '{"id":"ord_2","status":"OnHold","tags":["𝄞"],"updatedAtUtc":"2026-11-27T14:00:00.001Z"}],"nextCursor":"eyJ.abc_-"}';
const pageOfBody = '["eyJ.abc_-",[["ord_1","2026-11-27T14:00:00.000Z","New"],["ord_2","2026-11-27T14:00:00.001Z","OnHold"]]]';
/** Entries whose page their body holds: after a page of its own, twice in a row, and with the body of the entry before. */
const inBody: Partial<NewLogEntry>[] = [
  { feedPage: '["c",[["o","t","s"]]]' }, { responseBody: pageBody, feedPage: PAGE_IN_BODY }, { responseBody: pageBody, feedPage: PAGE_IN_BODY },
  { feedPage: PAGE_IN_BODY }, { feedPage: '[null,[]]' },
];

/** The row `entry` should read back as. */
function rowOf(id: number, e: NewLogEntry): LogRow {
  return {
    id, tenant_id: e.tenantId, at: e.at, operation: e.operation, method: e.method, target: e.target, status: e.status, problem_type: e.problemType,
    field_errors: e.fieldErrors, latency_ms: e.latencyMs, key_id: e.keyId, request_id: e.requestId, idempotency_key: e.idempotencyKey,
    replayed: e.replayed ? 1 : 0, request_content_type: e.requestContentType, request_body: e.requestBody, request_bytes: e.requestBytes,
    response_content_type: e.responseContentType, response_body: e.responseBody, response_bytes: e.responseBytes, order_ids: e.orderIds,
    trip_ids: e.tripIds, fault: e.fault,
    feed_page: e.feedPage !== PAGE_IN_BODY ? e.feedPage : e.responseBody === pageBody ? pageOfBody : '[null,[]]',
  };
}

const open = (retention: number) => {
  const db = openDatabase(':memory:', 'request-log');
  return { db, table: makeRequestLogTable(db, retention), reads: makeRequestLogReads(sqliteSql(db)) };
};
const entry = (tenantId: string, requestId: string): NewLogEntry => ({ ...plain, tenantId, requestId });
const chunks = (db: ReturnType<typeof open>['db']) => db.prepare('SELECT tenant_id, first_id, last_id, first_seq, last_seq FROM request_log_chunk ORDER BY first_id').all();

describe('the request log table', () => {
  it('reads back every entry of a chunk exactly as given, bodies and all', async () => {
    const { table, reads } = open(100);
    const entries = [plain, ...[...changes, ...inBody].map((change, n) => ({ ...plain, requestId: `req_${n + 2}`, ...change }))];
    const { firstIds } = table.insert(entries);
    const first = firstIds.get('ten_a')!;
    const expected = entries.map((e, i) => rowOf(first + i, e));
    expect(await Promise.all(entries.map((_, i) => reads.get('ten_a', first + i)))).toEqual(expected);
    // The list and the stream's summaries are the rows without their bodies.
    const summary = ({ request_content_type, request_body, request_bytes, response_content_type, response_body, response_bytes, feed_page, ...rest }: LogRow) => rest;
    expect(await reads.page('ten_a', {}, Number.MAX_SAFE_INTEGER, 100)).toEqual(expected.map(summary).reverse());
    expect(await reads.after('ten_a', first + 3, 100)).toEqual(expected.slice(4).map(summary));
    expect(await reads.get('ten_b', first)).toBeUndefined();
    expect(await reads.get('ten_a', first + entries.length)).toBeUndefined();
  });

  it('numbers each tenant’s entries on from the last id given, in a chunk of its own, never reusing an id after a clear', async () => {
    const { db, table, reads } = open(100);
    const { firstIds } = table.insert(['a1', 'b1', 'a2'].map((id) => entry(id[0] === 'a' ? 'A' : 'B', id)));
    expect(Object.fromEntries(firstIds)).toEqual({ A: 1, B: 3 });
    expect(chunks(db)).toEqual([
      { tenant_id: 'A', first_id: 1, last_id: 2, first_seq: 0, last_seq: 1 },
      { tenant_id: 'B', first_id: 3, last_id: 3, first_seq: 0, last_seq: 0 },
    ]);
    expect((await reads.page('A', {}, Number.MAX_SAFE_INTEGER, 10)).map((row) => [row.id, row.request_id])).toEqual([[2, 'a2'], [1, 'a1']]);
    table.clear();
    expect(await reads.page('A', {}, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    expect(Object.fromEntries(table.insert([entry('A', 'a3')]).firstIds)).toEqual({ A: 4 });
    expect(await reads.latest('A')).toBe(4);
    expect(await reads.latest('C')).toBe(0);
  });

  it('keeps exactly each tenant’s last N, and deletes only chunks all of whose entries it dropped, oldest first, a bounded step at a time', async () => {
    const { db, table, reads } = open(5);
    const ids = async (tenantId: string) => (await reads.page(tenantId, {}, Number.MAX_SAFE_INTEGER, 100)).map((row) => row.request_id).reverse();
    const after = async (tenantId: string) => (await reads.after(tenantId, 0, 100)).map((row) => row.request_id);
    // The tenants with entries to prune: A once it has more than 5.
    const over = [['a0', 'a1', 'a2'], ['a3', 'a4'], ['a5', 'b0'], ['a6', 'a7', 'a8']].map((batch) => table.insert(batch.map((id) => entry(id[0] === 'a' ? 'A' : 'B', id))).over);
    expect(over).toEqual([[], [], ['A'], ['A']]);
    // 9 of A over a retention of 5: a0–a3 are no longer shown, before any chunk is deleted.
    expect([await ids('A'), await after('A'), table.count('A')]).toEqual([['a4', 'a5', 'a6', 'a7', 'a8'], ['a4', 'a5', 'a6', 'a7', 'a8'], 5]);
    expect(await reads.get('A', 1)).toBeUndefined();
    expect((await reads.get('A', 5))?.request_id).toBe('a4');
    // a0–a2's chunk is dropped whole; a3–a4's is kept for a4. A step deletes at least one chunk, and no more than `limit` entries past it.
    expect(table.deleteStep('A', 1)).toBe(3);
    expect(table.deleteStep('A', 5)).toBe(0);
    expect(chunks(db).map((chunk) => (chunk as { first_seq: number }).first_seq)).toEqual([3, 5, 0, 6]);
    expect(await ids('A')).toEqual(['a4', 'a5', 'a6', 'a7', 'a8']);
    expect([await ids('B'), table.count('B'), table.deleteStep('B', 5)]).toEqual([['b0'], 1, 0]);
    // A filtered list walks the chunks for what passes, newest first, up to its limit.
    table.insert([{ ...entry('A', 'a9'), status: 404, problemType: 'about:blank' }, entry('A', 'a10')]);
    expect((await reads.page('A', { statusFrom: 400 }, Number.MAX_SAFE_INTEGER, 10)).map((row) => row.request_id)).toEqual(['a9']);
    expect((await reads.page('A', { problemType: 'about:blank' }, Number.MAX_SAFE_INTEGER, 10)).map((row) => row.request_id)).toEqual(['a9']);
    expect((await reads.page('A', {}, 11, 2)).map((row) => row.request_id)).toEqual(['a8', 'a7']);
  });

  it('starts another chunk where a batch’s texts pass CHUNK_CHARS, each entry read back whole', async () => {
    const { db, table, reads } = open(100);
    const big = (n: number, chars: number): NewLogEntry => ({ ...entry('A', `a${n}`), responseBody: String(n).repeat(chars), responseBytes: chars, feedPage: null });
    const entries = [big(1, 10), big(2, CHUNK_CHARS - 20), big(3, 15), big(4, CHUNK_CHARS + 7), big(5, 1), big(6, 1)];
    const first = table.insert(entries).firstIds.get('A')!;
    // [1, 2] fill one chunk; 3 would pass it; 4 alone passes it; 5 and 6 follow it.
    expect(chunks(db).map((chunk) => [(chunk as { first_id: number }).first_id - first, (chunk as { last_id: number }).last_id - first])).toEqual([[0, 1], [2, 2], [3, 3], [4, 5]]);
    for (const [i, e] of entries.entries()) expect((await reads.get('A', first + i))?.response_body).toBe(e.responseBody);
  });

  it('walks a tenant of many small chunks across reads, newest first and oldest first', async () => {
    const { table, reads } = open(1000);
    for (let n = 0; n < 70; n++) table.insert([entry('A', `a${n}`)]);
    expect((await reads.page('A', {}, Number.MAX_SAFE_INTEGER, 60)).map((row) => row.request_id)).toEqual(Array.from({ length: 60 }, (_, n) => `a${69 - n}`));
    expect((await reads.after('A', 3, 1000)).map((row) => row.request_id)).toEqual(Array.from({ length: 67 }, (_, n) => `a${n + 3}`));
  });
});
