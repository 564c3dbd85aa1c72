/** The request log (D48): what is recorded, what never is, isolation, the list, the entry's curl line and the stream (retention: retention.test.ts). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLog, SqliteRequestLog } from './recorder.ts';
import { openRequestLog } from '../start/start-sandbox.ts';
import { statement } from '../store/sql.ts';
import { BODY_LIMIT } from './store.ts';
import { call, memoryStore, type RunningServer, sandboxClient, type SandboxClient, type SeededTestTenant, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from '../../dev/testing/sandbox.ts';

const ORDERS = '/api/v1/integration/orders';
const order = (externalId: string) => `${ORDERS}/externalid/${encodeURIComponent(externalId)}`;
const payment = (n: number) => ({ paymentId: `4c1a7e93-2b5d-4f08-9e6c-${String(n).padStart(12, '0')}`, amount: 5, currency: 'EUR' });
// tinyDataset cycles statuses: i % 9 → New, InPlanning, Planned, InProgress, FullyDelivered, Cancelled, Returned, Refused, Closed.
const withStatus = (status: number, nth = 0) => `EXT-${status + 9 * nth}`;

let server: RunningServer;
let log: RequestLog;
let api: SandboxClient;
let a: SeededTestTenant;
let b: SeededTestTenant;

beforeAll(async () => {
  const store = await memoryStore();
  a = await seedTenant(store, tinyDataset({ orders: 90 }));
  b = await seedTenant(store, tinyDataset({ orders: 18, idSpace: 1 }));
  log = openRequestLog(store);
  server = await startServer(store, { adminToken: TEST_ADMIN_TOKEN, requestLog: log });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

type Summary = { id: number; operation: string; status: number; problemType: string | null; errors: { field: string; code: string }[]; keyId: string; requestId: string; replayed: boolean; idempotencyKey: string | null; orderIds: string[]; tripIds: string[]; path: string; method: string; atUtc: string };

/** Every entry of the tenant, newest first, through the control plane's list. */
async function entries(tenantId: string, query = ''): Promise<Summary[]> {
  const items: Summary[] = [];
  let after: string | null = null;
  do {
    const page = await api('listRequests', `/tenants/${tenantId}/requests?limit=100${query}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`);
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    after = page.body.nextCursor;
  } while (after !== null);
  return items;
}

/** The entry the request with `requestId` made. */
async function entryOf(tenantId: string, requestId: string) {
  const summary = (await entries(tenantId)).find((entry) => entry.requestId === requestId);
  expect(summary, requestId).toBeDefined();
  const answer = await api('getRequest', `/tenants/${tenantId}/requests/${summary!.id}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

const requestIdOf = (answer: { headers: Headers }) => answer.headers.get('x-request-id')!;

/** The log's rows as stored (SQLite: the log's own file; PostgreSQL: the sandbox's database), once every entry recorded so far is written. */
async function stored<T>(text: string): Promise<T[]> {
  await log.settle();
  return 'db' in log ? ((log as SqliteRequestLog).db.prepare(text).all() as T[]) : server.store.sql.all<T>(statement(text));
}

describe('what an entry records', () => {
  it('a success: operation, method, path and query, status, latency, key id, request id, the bodies', async () => {
    const answer = await call(server.url, 'orderFeed', `${ORDERS}?limit=2`, { key: a.keys.full });
    const who = await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: a.keys.full });
    const entry = await entryOf(a.tenantId, requestIdOf(answer));
    expect(entry).toMatchObject({ operation: 'orderFeed', method: 'GET', path: `${ORDERS}?limit=2`, status: 200, problemType: null, errors: [], keyId: who.body.keyId, replayed: false, idempotencyKey: null, orderIds: [], tripIds: [] });
    expect(entry.latencyMs).toBeGreaterThan(0);
    expect(JSON.parse(entry.response.body)).toEqual(answer.body);
    expect(entry.request).toEqual({ contentType: null, body: null, bytes: 0, truncated: false });
  });

  it('a 400 with its problem type and field errors', async () => {
    const answer = await call(server.url, 'attachPayment', `${order(withStatus(0))}/payment`, { method: 'POST', key: a.keys.full, json: { ...payment(1), amount: 0 } });
    expect(answer.status).toBe(400);
    const entry = await entryOf(a.tenantId, requestIdOf(answer));
    expect(entry).toMatchObject({ status: 400, problemType: 'payments.amount.invalid', errors: answer.body.errors, orderIds: [] });
    expect(entry.request.body).toBe(JSON.stringify({ ...payment(1), amount: 0 }));
    expect(entry.request.contentType).toBe('application/json');
  });

  it('an idempotent payment and its replay (replayed true, nothing changed by the replay)', async () => {
    const send = () =>
      call(server.url, 'attachPayment', `${order(withStatus(1))}/payment`, { method: 'POST', key: a.keys.full, json: payment(2), headers: { 'Idempotency-Key': 'log-replay-1' } });
    const first = await send();
    const again = await send();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const firstEntry = await entryOf(a.tenantId, requestIdOf(first));
    const againEntry = await entryOf(a.tenantId, requestIdOf(again));
    expect(firstEntry).toMatchObject({ idempotencyKey: 'log-replay-1', replayed: false, orderIds: [first.body.id] });
    expect(againEntry).toMatchObject({ idempotencyKey: 'log-replay-1', replayed: true, status: 200, orderIds: [] });
    expect(JSON.parse(againEntry.response.body)).toEqual(first.body);
  });

  it('the order each write changed: payment, cancel, archive', async () => {
    const paid = await call(server.url, 'attachPayment', `${order(withStatus(0, 2))}/payment`, { method: 'POST', key: a.keys.full, json: payment(3) });
    const cancelled = await call(server.url, 'cancelOrder', `${order(withStatus(0, 3))}/cancel`, { method: 'POST', key: a.keys.full, json: { reason: 'test' } });
    const closedId = (await call(server.url, 'orderFeed', `${ORDERS}?limit=100&status=Closed`, { key: a.keys.full })).body.items[0];
    const archived = await call(server.url, 'archiveOrder', order(closedId.externalId), { method: 'DELETE', key: a.keys.full });
    expect([paid.status, cancelled.status, archived.status]).toEqual([200, 200, 204]);
    expect((await entryOf(a.tenantId, requestIdOf(paid))).orderIds).toEqual([paid.body.id]);
    expect((await entryOf(a.tenantId, requestIdOf(cancelled))).orderIds).toEqual([cancelled.body.id]);
    const archiveEntry = await entryOf(a.tenantId, requestIdOf(archived));
    expect(archiveEntry).toMatchObject({ orderIds: [closedId.id], status: 204, method: 'DELETE' });
    expect(archiveEntry.response).toEqual({ contentType: null, body: null, bytes: 0, truncated: false });
  });

  it('never stores a key or the admin token, whichever header carried it', async () => {
    await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: a.keys.ordersRead });
    await call(server.url, 'whoami', '/api/v1/integration/whoami', { headers: { Authorization: `Bearer ${a.keys.tripsRead}` } });
    await call(server.url, 'orderFeed', ORDERS, { key: a.keys.tripsRead, headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    // A key where none belongs — the query, a body, an Idempotency-Key — is redacted too.
    await fetch(`${server.url}${ORDERS}?limit=1&key=${b.keys.full}`, { headers: { 'X-Api-Key': a.keys.full } });
    await call(server.url, 'cancelOrder', `${order(withStatus(0, 5))}/cancel`, {
      method: 'POST', key: a.keys.full, json: { reason: `key ${b.keys.ordersRead}` }, headers: { 'Idempotency-Key': b.keys.tripsRead },
    });
    const rows = await stored<{ entries: string; bodies: string }>('SELECT * FROM request_log_chunk');
    expect(rows.reduce((entries, row) => entries + (JSON.parse(row.entries) as unknown[]).length, 0)).toBeGreaterThan(3);
    const text = JSON.stringify(rows);
    for (const secret of [...Object.values(a.keys), ...Object.values(b.keys), TEST_ADMIN_TOKEN]) expect(text).not.toContain(secret);
  });

  it('cuts bodies at 16 KiB and says so', async () => {
    // Unknown body fields are ignored (D19): a long one makes a long request.
    const json = { ...payment(4), note: 'x'.repeat(20_000) };
    const paid = await call(server.url, 'attachPayment', `${order(withStatus(0, 4))}/payment`, { method: 'POST', key: a.keys.full, json });
    const page = await call(server.url, 'orderFeed', `${ORDERS}?limit=100`, { key: a.keys.full });
    const paidEntry = await entryOf(a.tenantId, requestIdOf(paid));
    expect(paidEntry.request).toMatchObject({ bytes: JSON.stringify(json).length, truncated: true });
    expect(Buffer.byteLength(paidEntry.request.body)).toBe(BODY_LIMIT);
    const pageEntry = await entryOf(a.tenantId, requestIdOf(page));
    expect(pageEntry.response.bytes).toBeGreaterThan(BODY_LIMIT);
    expect(pageEntry.response.truncated).toBe(true);
    expect(JSON.stringify(page.body).startsWith(pageEntry.response.body)).toBe(true);
  });

  it("keeps a feed page's nextCursor and each item's id, updatedAtUtc and status, whatever the body's size (D48)", async () => {
    const keysOf = (items: { id: string; updatedAtUtc: string; status: string }[]) => items.map(({ id, updatedAtUtc, status }) => ({ id, updatedAtUtc, status }));
    const first = await call(server.url, 'orderFeed', `${ORDERS}?limit=40`, { key: a.keys.full });
    const whole = await call(server.url, 'orderFeed', `${ORDERS}?limit=100`, { key: a.keys.full });
    const next = await call(server.url, 'orderFeed', `${ORDERS}?limit=40&cursor=${encodeURIComponent(first.body.nextCursor)}`, { key: a.keys.full });
    const trips = await call(server.url, 'tripFeed', '/api/v1/integration/trips?limit=100', { key: a.keys.full });
    const firstEntry = await entryOf(a.tenantId, requestIdOf(first));
    expect(firstEntry.page).toEqual({ nextCursor: first.body.nextCursor, items: keysOf(first.body.items) });
    expect(first.body.nextCursor).not.toBeNull();
    const wholeEntry = await entryOf(a.tenantId, requestIdOf(whole));
    // The tenant's live orders (90 less those archived above): more than the 16 KiB the body keeps, every one in the page.
    expect(wholeEntry.response.truncated).toBe(true);
    expect(wholeEntry.page).toEqual({ nextCursor: null, items: keysOf(whole.body.items) });
    expect(wholeEntry.page.items.length).toBeGreaterThan(80);
    expect((await entryOf(a.tenantId, requestIdOf(next))).page).toEqual({ nextCursor: next.body.nextCursor, items: keysOf(next.body.items) });
    expect((await entryOf(a.tenantId, requestIdOf(trips))).page).toEqual({ nextCursor: trips.body.nextCursor, items: keysOf(trips.body.items) });
    // A page whose body is kept whole is read back from that body, not stored again; a page whose body is cut is stored.
    expect(firstEntry.response.truncated).toBe(false);
    const texts = (await stored<{ bodies: string }>('SELECT bodies FROM request_log_chunk')).map((chunk) => chunk.bodies).join('');
    expect(texts).toContain(first.body.nextCursor);
    expect(texts).not.toContain(`[${JSON.stringify(first.body.nextCursor)},[["`);
    expect(texts).toContain(`[null,[["${whole.body.items[0].id}",`);
  });

  it('keeps no page for an answer that is no feed page, or one the client did not get whole', async () => {
    const who = await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: a.keys.full });
    const refused = await call(server.url, 'orderFeed', `${ORDERS}?limit=0`, { key: a.keys.full });
    const cut = await fetch(`${server.url}${ORDERS}?limit=5`, { headers: { 'X-Api-Key': a.keys.full, Prefer: 'fault=malformed' } });
    await cut.arrayBuffer();
    const slow = await call(server.url, 'orderFeed', `${ORDERS}?limit=5`, { key: a.keys.full, headers: { Prefer: 'latency=5' } });
    expect((await entryOf(a.tenantId, requestIdOf(who))).page).toBeNull();
    expect((await entryOf(a.tenantId, requestIdOf(refused))).page).toBeNull();
    const cutEntry = await entryOf(a.tenantId, cut.headers.get('x-request-id')!);
    expect(cutEntry).toMatchObject({ status: 200, fault: { fault: 'malformed' }, page: null });
    // A wait does not change the page the client got.
    expect((await entryOf(a.tenantId, requestIdOf(slow))).page).toMatchObject({ items: slow.body.items.map(({ id }: { id: string }) => ({ id })) });
  });

  it('logs a revoked key of a tenant under that tenant, with its 401 and the key id (D48)', async () => {
    const revoked = await server.store.keys.create({ tenantId: a.tenantId, name: 'revoked', scopes: ['orders:read'] });
    expect(await server.store.keys.revoke(a.tenantId, revoked.id)).toBe(true);
    const refused = await call(server.url, 'orderFeed', `${ORDERS}?limit=3`, { key: revoked.secret });
    expect(refused.status).toBe(401);
    const entry = await entryOf(a.tenantId, requestIdOf(refused));
    expect(entry).toMatchObject({ operation: 'orderFeed', method: 'GET', path: `${ORDERS}?limit=3`, status: 401, problemType: 'about:blank', keyId: revoked.id });
    expect(JSON.stringify(entry)).not.toContain(revoked.secret.slice(17));
    expect((await entries(b.tenantId)).some((other) => other.requestId === requestIdOf(refused))).toBe(false);
  });

  it('logs nothing for a request without a key, with an unknown key, a wrong secret for a live or revoked key id, or to no operation', async () => {
    const revoked = await server.store.keys.create({ tenantId: a.tenantId, name: 'revoked too', scopes: ['orders:read'] });
    await server.store.keys.revoke(a.tenantId, revoked.id);
    // The id of a key (wbk_<12>_) with another secret of the right shape.
    const wrongSecret = (key: string) => `${key.slice(0, 17)}${'x'.repeat(32)}`;
    const counted = (await stored<{ n: number }>('SELECT CAST(coalesce(sum(last_id - first_id + 1), 0) AS integer) AS n FROM request_log_chunk'))[0]!.n;
    await fetch(`${server.url}${ORDERS}`);
    await fetch(`${server.url}${ORDERS}`, { headers: { 'X-Api-Key': 'wbk_nobody' } });
    for (const key of [wrongSecret(a.keys.full), wrongSecret(revoked.secret)]) {
      expect(key).not.toBe(a.keys.full);
      expect((await fetch(`${server.url}${ORDERS}`, { headers: { 'X-Api-Key': key } })).status).toBe(401);
    }
    await fetch(`${server.url}/api/v1/integration/nothing`, { headers: { 'X-Api-Key': a.keys.full } });
    expect((await stored<{ n: number }>('SELECT CAST(coalesce(sum(last_id - first_id + 1), 0) AS integer) AS n FROM request_log_chunk'))[0]!.n).toBe(counted);
  });
});

describe('the list', () => {
  it('shows a tenant only its own entries, and another tenant’s entry id is 404', async () => {
    const mine = await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: b.keys.full });
    const bEntry = await entryOf(b.tenantId, requestIdOf(mine));
    const aEntries = await entries(a.tenantId);
    expect(aEntries.some((entry) => entry.requestId === requestIdOf(mine))).toBe(false);
    expect(new Set(aEntries.map((entry) => entry.keyId)).has(bEntry.keyId)).toBe(false);
    const crossed = await api('getRequest', `/tenants/${a.tenantId}/requests/${bEntry.id}`);
    expect(crossed.status).toBe(404);
    expect(crossed.body.type).toBe('about:blank');
  });

  it('filters by operation, status class, problem type, key and time, newest first', async () => {
    const all = await entries(a.tenantId);
    expect(all.map((entry) => entry.id)).toEqual([...all.map((entry) => entry.id)].sort((x, y) => y - x));
    const byOperation = await entries(a.tenantId, '&operation=attachPayment');
    expect(byOperation.length).toBeGreaterThan(0);
    expect(byOperation).toEqual(all.filter((entry) => entry.operation === 'attachPayment'));
    expect(await entries(a.tenantId, '&statusClass=4xx')).toEqual(all.filter((entry) => entry.status >= 400 && entry.status < 500));
    expect(await entries(a.tenantId, '&problemType=payments.amount.invalid')).toEqual(all.filter((entry) => entry.problemType === 'payments.amount.invalid'));
    const keyId = all.at(-1)!.keyId;
    expect(await entries(a.tenantId, `&keyId=${keyId}`)).toEqual(all.filter((entry) => entry.keyId === keyId));
    const middle = all[Math.floor(all.length / 2)]!.atUtc;
    expect(await entries(a.tenantId, `&since=${encodeURIComponent(middle)}`)).toEqual(all.filter((entry) => entry.atUtc >= middle));
    expect(await entries(a.tenantId, '&statusClass=4xx&operation=whoami')).toEqual([]);
  });

  it('pages with a cursor bound to the tenant: every entry once, and a foreign or forged cursor is audit.cursor.invalid', async () => {
    const all = await entries(a.tenantId);
    const paged: Summary[] = [];
    let after: string | null = null;
    do {
      const page = await api('listRequests', `/tenants/${a.tenantId}/requests?limit=3${after === null ? '' : `&after=${encodeURIComponent(after)}`}`);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      paged.push(...page.body.items);
      after = page.body.nextCursor;
    } while (after !== null);
    expect(paged).toEqual(all);
    const cursor = (await api('listRequests', `/tenants/${a.tenantId}/requests?limit=1`)).body.nextCursor;
    for (const [tenantId, value] of [[b.tenantId, cursor], [a.tenantId, 'abc.def']]) {
      const refused = await api('listRequests', `/tenants/${tenantId}/requests?after=${encodeURIComponent(value)}`);
      expect(refused.status).toBe(400);
      expect(refused.body.type).toBe('audit.cursor.invalid');
      expect(refused.body.errors[0].field).toBe('after');
    }
    const bad = await api('listRequests', `/tenants/${a.tenantId}/requests?statusClass=4XX`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('statusClass');
  });
});

describe('reset', () => {
  it('empties the log with the sandbox (D38)', async () => {
    const store = await memoryStore();
    const x = await seedTenant(store);
    const own = openRequestLog(store);
    const local = await startServer(store, { adminToken: TEST_ADMIN_TOKEN, requestLog: own });
    try {
      await call(local.url, 'whoami', '/api/v1/integration/whoami', { key: x.keys.full });
      expect(await callList(local.url, x.tenantId)).toHaveLength(1);
      expect((await sandboxClient(local.url)('resetSandbox', '/reset')).status).toBe(204);
      expect(await own.page(x.tenantId, {}, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
    } finally {
      await local.close();
    }
  });
});

describe('the curl line', () => {
  it('replays the request with sh and $WAYBILL_KEY, to the same status', async () => {
    const refused = await call(server.url, 'attachPayment', `${order("it's-%")}/payment`, { method: 'POST', key: a.keys.full, json: { ...payment(5), note: "it's $HOME `x`" }, headers: { 'Idempotency-Key': "k'1" } });
    const who = await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: a.keys.full });
    for (const answer of [refused, who]) {
      const { curl } = await entryOf(a.tenantId, requestIdOf(answer));
      expect(curl).toContain('"X-Api-Key: $WAYBILL_KEY"');
      expect(curl).not.toContain(a.keys.full);
      const { stdout } = await promisify(execFile)('sh', ['-c', `${curl} -o /dev/null -w '%{http_code}'`], { env: { ...process.env, WAYBILL_KEY: a.keys.full } });
      expect(Number(stdout)).toBe(answer.status);
    }
    expect(refused.status).toBe(404);
  });
});

describe('the stream', () => {
  it('delivers a new entry to a connected client within a bounded time, and lets it go', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/sandbox/v1/tenants/${a.tenantId}/requests/stream`, { headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const who = await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: a.keys.full });
    let text = '';
    while (!text.includes(requestIdOf(who))) {
      const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no entry within 2 s: ${text}`)), 2000))]);
      if (chunk.done) break;
      text += Buffer.from(chunk.value).toString();
    }
    const event = text.split('\n\n').find((block) => block.includes(requestIdOf(who)))!;
    expect(event).toMatch(/^id: \d+\nevent: entry\ndata: /);
    expect(JSON.parse(event.split('data: ')[1]!)).toMatchObject({ operation: 'whoami', requestId: requestIdOf(who) });
    controller.abort();
    // The server lets the client go: no listener is left behind.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: a.keys.full });
    log.flush();
  });
});

/** Every entry of the tenant on the server at `url`. */
async function callList(url: string, tenantId: string): Promise<Summary[]> {
  return (await sandboxClient(url)('listRequests', `/tenants/${tenantId}/requests?limit=100`)).body.items;
}
