/**
 * Fault injection (D51) as a client meets it: raw sockets against the sandbox on an
 * ephemeral port, one test per fault kind from a rule and from `Prefer`, `after` faults on
 * writes (effect committed, answer lost, replayed for the same Idempotency-Key), seeded
 * draws, tenancy and key narrowing, and the request log's marks.
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeRequestLog, type RequestLog } from '../request-log/recorder.ts';
import { call, conformingBody, memoryStore, type RunningServer, sandboxClient, type SandboxClient, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from '../../dev/testing/sandbox.ts';

const FEED = '/api/v1/integration/orders?limit=5';
const WHOAMI = '/api/v1/integration/whoami';
const paymentPath = (externalId: string) => `/api/v1/integration/orders/externalid/${externalId}/payment`;
const payment = (n: number) => ({ paymentId: `4c1a7e93-2b5d-4f08-9e6c-${String(n).padStart(12, '0')}`, amount: 5, currency: 'EUR' });

let server: RunningServer;
let log: RequestLog;
let api: SandboxClient;
let a: ReturnType<typeof seedTenant>;
let b: ReturnType<typeof seedTenant>;

beforeAll(async () => {
  const store = memoryStore();
  a = seedTenant(store, tinyDataset({ orders: 60 }), { rateLimit: 6000 });
  b = seedTenant(store, tinyDataset({ orders: 60, idSpace: 1 }), { rateLimit: 6000 });
  log = makeRequestLog(store.db);
  server = await startServer(store, { adminToken: TEST_ADMIN_TOKEN, requestLog: log });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());
afterEach(async () => {
  for (const tenant of [a, b]) await api('deleteFaults', `/tenants/${tenant.tenantId}/faults`);
});

/** What a client saw on the wire: the head, the body as received, how it arrived, and how the connection ended. */
interface Wire {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The data events that carried body bytes. */
  bodyChunks: number;
  headAt: number;
  firstBodyAt: number;
  lastBodyAt: number;
  /** Every byte received. */
  bytes: number;
  /** The socket error (ECONNRESET), or null for a close. */
  error: string | null;
}

/** Sends one request on a fresh connection (`Connection: close`) and records everything until the server closes it. */
function wire(method: string, path: string, options: { key: string; headers?: Record<string, string>; json?: unknown; stopAfterHead?: boolean }): Promise<Wire> {
  const { hostname, port, host } = new URL(server.url);
  const body = options.json === undefined ? '' : JSON.stringify(options.json);
  const headers = { Host: host, 'X-Api-Key': options.key, Connection: 'close', ...(body === '' ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }), ...options.headers };
  const text = `${method} ${path} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    const seen: Wire = { status: 0, headers: {}, body: Buffer.alloc(0), bodyChunks: 0, headAt: 0, firstBodyAt: 0, lastBodyAt: 0, bytes: 0, error: null };
    let headLength = -1;
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end within 10 s: ${Buffer.concat(received).toString('latin1')}`));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => {
      const at = performance.now();
      received.push(chunk);
      const all = Buffer.concat(received);
      seen.bytes = all.length;
      if (headLength < 0) {
        const end = all.indexOf('\r\n\r\n');
        if (end < 0) return;
        headLength = end + 4;
        seen.headAt = at;
        const [statusLine = '', ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
        seen.status = Number(statusLine.split(' ')[1]);
        for (const line of lines) seen.headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
        if (options.stopAfterHead) socket.destroy();
      }
      if (all.length > headLength && (seen.bodyChunks === 0 || chunk.length > 0)) {
        if (seen.bodyChunks === 0) seen.firstBodyAt = at;
        seen.bodyChunks += 1;
        seen.lastBodyAt = at;
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (seen.error = error.code ?? error.message));
    socket.on('close', () => {
      clearTimeout(timer);
      seen.body = headLength < 0 ? Buffer.alloc(0) : Buffer.concat(received).subarray(headLength);
      resolve(seen);
    });
  });
}

/** Adds a rule to `tenant`; the answer is checked against the contract. */
async function rule(tenant: { tenantId: string }, json: Record<string, unknown>): Promise<{ id: string }> {
  const answer = await api('createFault', `/tenants/${tenant.tenantId}/faults`, { json });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

const rulesOf = async (tenant: { tenantId: string }) => (await api('listFaults', `/tenants/${tenant.tenantId}/faults`)).body.items;
const feed = (key: string, headers: Record<string, string> = {}) => call(server.url, 'orderFeed', FEED, { key, headers });
/** The order with `externalId` as the tenant's feed shows it (undefined once archived). */
async function orderOf(key: string, externalId: string): Promise<{ id: string; status: string } | undefined> {
  const page = await call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=100', { key });
  return page.body.items.find((order: { externalId: string }) => order.externalId === externalId);
}
/** The payments recorded on tenant A's order `externalId`, as the control plane's order history shows them. */
async function paymentsOf(externalId: string): Promise<unknown[]> {
  const order = await orderOf(a.keys.full, externalId);
  const history = await api('orderHistory', `/tenants/${a.tenantId}/orders/${order!.id}/history`);
  return history.body.items.filter((entry: { kind: string }) => entry.kind === 'payment');
}
/** A fetch-style view of a wire answer, for the contract checks. */
const asResponse = (seen: Wire) => new Response(seen.body, { status: seen.status, headers: seen.headers });

describe('each fault kind at the socket, from a rule', () => {
  it('reset: the connection is reset (ECONNRESET) with no byte of an answer; the next call is served', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'reset' });
    const seen = await wire('GET', FEED, { key: a.keys.full });
    expect(seen.error).toBe('ECONNRESET');
    expect(seen.bytes).toBe(0);
    expect((await feed(a.keys.full)).status).toBe(200);
    expect((await rulesOf(a))[0]).toMatchObject({ times: 1, remaining: 0, matched: 2, fired: 1 });
  });

  it('empty: the connection closes cleanly (a FIN, no error) before any byte', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'empty' });
    const seen = await wire('GET', FEED, { key: a.keys.full });
    expect(seen.error).toBeNull();
    expect(seen.bytes).toBe(0);
  });

  it('malformed: the real status and headers, then the first half of the body, Content-Length saying so; JSON.parse refuses it', async () => {
    const whole = JSON.stringify((await feed(a.keys.full)).body);
    await rule(a, { operation: 'orderFeed', fault: 'malformed' });
    const seen = await wire('GET', FEED, { key: a.keys.full });
    expect(seen.status).toBe(200);
    expect(seen.headers['content-type']).toMatch(/^application\/json/);
    const half = Math.floor(Buffer.byteLength(whole) / 2);
    expect(Number(seen.headers['content-length'])).toBe(half);
    expect(seen.body.length).toBe(half);
    expect(seen.body.toString()).toBe(whole.slice(0, half));
    expect(() => JSON.parse(seen.body.toString())).toThrow(SyntaxError);
    expect(seen.error).toBeNull();
  });

  it('stall: status and headers at once with the whole Content-Length, then the body in parts spread out', async () => {
    const whole = JSON.stringify((await feed(a.keys.full)).body);
    await rule(a, { operation: 'orderFeed', fault: 'stall', durationMs: 1500 });
    const seen = await wire('GET', FEED, { key: a.keys.full });
    expect(seen.status).toBe(200);
    expect(Number(seen.headers['content-length'])).toBe(Buffer.byteLength(whole));
    expect(seen.body.toString()).toBe(whole);
    // Ten parts, at least some of them apart; the head comes before the last of the body.
    expect(seen.bodyChunks).toBeGreaterThanOrEqual(3);
    expect(seen.headAt).toBeLessThan(seen.lastBodyAt);
    expect(seen.firstBodyAt).toBeLessThan(seen.lastBodyAt);
  });

  it('stall: a client that leaves after the head stops the dribble without an error', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'stall', durationMs: 300 });
    const seen = await wire('GET', FEED, { key: a.keys.full, stopAfterHead: true });
    expect(seen.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.log.lines.filter((line) => / failed:/.test(line))).toEqual([]);
    expect((await feed(a.keys.full)).status).toBe(200);
  });

  it('latency: the answer waits, then is the usual one', async () => {
    const usual = (await feed(a.keys.full)).body;
    await rule(a, { operation: 'orderFeed', fault: 'latency', latencyMs: 300 });
    const start = performance.now();
    const slow = await feed(a.keys.full);
    expect(performance.now() - start).toBeGreaterThanOrEqual(290);
    expect(slow.status).toBe(200);
    expect(slow.body).toEqual(usual);
  });

  it('429: api.rate_limited with Retry-After and the RateLimit-* headers, as the contract gives it', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'status', status: 429, retryAfterSeconds: 2 });
    const answer = await feed(a.keys.full);
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ type: 'api.rate_limited', status: 429 });
    expect(answer.headers.get('retry-after')).toBe('2');
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(answer.headers.get(name), name).toMatch(/^\d+$/);
  });

  it('500: about:blank exactly as the contract\'s InternalError, quoting the request id', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'status', status: 500 });
    const seen = await wire('GET', FEED, { key: a.keys.full });
    const body = (await conformingBody('orderFeed', asResponse(seen))) as Record<string, unknown>;
    const requestId = seen.headers['x-request-id']!;
    expect(body).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: `Unexpected error; quote the request id ${requestId}.`, instance: `/api/v1/integration/orders#${requestId}` });
  });

  it('503: about:blank, with Retry-After only when the rule gives it', async () => {
    await rule(a, { operation: 'whoami', fault: 'status', status: 503, retryAfterSeconds: 7 });
    await rule(a, { operation: 'whoami', fault: 'status', status: 503 });
    const first = await call(server.url, 'whoami', WHOAMI, { key: a.keys.full });
    const second = await call(server.url, 'whoami', WHOAMI, { key: a.keys.full });
    expect([first.status, second.status]).toEqual([503, 503]);
    expect(first.body).toMatchObject({ type: 'about:blank', title: 'Service Unavailable', status: 503 });
    expect(first.headers.get('retry-after')).toBe('7');
    expect(second.headers.get('retry-after')).toBeNull();
    expect((await call(server.url, 'whoami', WHOAMI, { key: a.keys.full })).status).toBe(200);
  });
});

describe('an in-flight 429 staged on a write (problemType idempotency.inFlight)', () => {
  it('answers what the server answers for a key in flight: 429 idempotency.inFlight, Retry-After, RateLimit-*; the retry after it pays once', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'status', status: 429, problemType: 'idempotency.inFlight', retryAfterSeconds: 2 });
    const send = () => wire('POST', paymentPath('EXT-10'), { key: a.keys.full, json: payment(10), headers: { 'Idempotency-Key': 'in-flight-10' } });
    const seen = await send();
    expect(seen.status).toBe(429);
    const body = (await conformingBody('attachPayment', asResponse(seen))) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'idempotency.inFlight', status: 429 });
    expect(seen.headers['retry-after']).toBe('2');
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(seen.headers[name], name).toMatch(/^\d+$/);
    expect(await paymentsOf('EXT-10')).toHaveLength(0);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await paymentsOf('EXT-10')).toHaveLength(1);
  });
});

describe('after faults on writes: the effect commits, the answer is lost, a retry gets it replayed', () => {
  it('reset after a payment: the payment is there once, and the retry with the same key is replayed', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'reset', when: 'after' });
    const seen = await wire('POST', paymentPath('EXT-1'), { key: a.keys.full, json: payment(1), headers: { 'Idempotency-Key': 'lost-1' } });
    expect(seen.error).toBe('ECONNRESET');
    expect(seen.bytes).toBe(0);
    expect(await paymentsOf('EXT-1')).toHaveLength(1);
    const retry = await call(server.url, 'attachPayment', paymentPath('EXT-1'), { method: 'POST', key: a.keys.full, json: payment(1), headers: { 'Idempotency-Key': 'lost-1' } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await paymentsOf('EXT-1')).toHaveLength(1);
  });

  it('reset before a payment: nothing is written, and the retry runs for the first time', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'reset' });
    const seen = await wire('POST', paymentPath('EXT-2'), { key: a.keys.full, json: payment(2), headers: { 'Idempotency-Key': 'early-2' } });
    expect(seen.error).toBe('ECONNRESET');
    expect(await paymentsOf('EXT-2')).toHaveLength(0);
    const retry = await call(server.url, 'attachPayment', paymentPath('EXT-2'), { method: 'POST', key: a.keys.full, json: payment(2), headers: { 'Idempotency-Key': 'early-2' } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('500 after a cancel: the order is cancelled, the 500 is answered, the retry replays the stored 200', async () => {
    // tinyDataset cycles statuses: EXT-9 is New.
    await rule(a, { operation: 'cancelOrder', fault: 'status', status: 500, when: 'after' });
    const cancel = () => call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/EXT-9/cancel', { method: 'POST', key: a.keys.full, json: {}, headers: { 'Idempotency-Key': 'cancel-9' } });
    const first = await cancel();
    expect(first.status).toBe(500);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await orderOf(a.keys.full, 'EXT-9'))!.status).toBe('Cancelled');
    const retry = await cancel();
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.status).toBe('Cancelled');
  });

  it('empty after an archive: the order is archived though the client got nothing', async () => {
    await rule(a, { operation: 'archiveOrder', fault: 'empty', when: 'after' });
    const seen = await wire('DELETE', '/api/v1/integration/orders/externalid/EXT-18', { key: a.keys.full });
    expect(seen.bytes).toBe(0);
    expect(await orderOf(a.keys.full, 'EXT-18')).toBeUndefined();
  });

  it('latency after a payment: the effect is in before the answer, which comes late and whole', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'latency', latencyMs: 2000, when: 'after' });
    let answered = false;
    const answer = call(server.url, 'attachPayment', paymentPath('EXT-7'), { method: 'POST', key: a.keys.full, json: payment(7) }).finally(() => (answered = true));
    while ((await paymentsOf('EXT-7')).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    expect((await answer).status).toBe(200);
  });

  it('stall after a payment: the stored answer dribbles in whole', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'stall', durationMs: 300 });
    const seen = await wire('POST', paymentPath('EXT-8'), { key: a.keys.full, json: payment(8) });
    expect(seen.status).toBe(200);
    expect(JSON.parse(seen.body.toString())).toMatchObject({ externalId: 'EXT-8' });
    expect(seen.bodyChunks).toBeGreaterThan(1);
  });

  it('an after rule fires only on an answer whose write committed: a payment refused 400 is answered whole and leaves the rule unspent', async () => {
    const { id } = await rule(a, { operation: 'attachPayment', fault: 'reset', when: 'after' });
    await rule(a, { operation: 'attachPayment', fault: 'latency', latencyMs: 1, when: 'after' });
    const refused = await call(server.url, 'attachPayment', paymentPath('EXT-11'), { method: 'POST', key: a.keys.full, json: { ...payment(11), paymentId: 'not-a-uuid' }, headers: { 'Idempotency-Key': 'invalid-11' } });
    expect(refused.status).toBe(400);
    const missing = await call(server.url, 'attachPayment', paymentPath('NO-SUCH-ORDER'), { method: 'POST', key: a.keys.full, json: payment(11) });
    expect(missing.status).toBe(404);
    expect((await rulesOf(a)).map((r: { matched: number; fired: number; remaining: number }) => [r.matched, r.fired, r.remaining])).toEqual([[2, 0, 1], [2, 0, 1]]);
    const committed = await wire('POST', paymentPath('EXT-11'), { key: a.keys.full, json: payment(11), headers: { 'Idempotency-Key': 'invalid-11' } });
    expect(committed.error).toBe('ECONNRESET');
    expect(await paymentsOf('EXT-11')).toHaveLength(1);
    expect((await rulesOf(a)).find((r: { id: string }) => r.id === id)).toMatchObject({ matched: 3, fired: 1, remaining: 0 });
  });

  it('a rule firing on the retry too: the replayed answer is faulted again', async () => {
    await rule(a, { operation: 'attachPayment', fault: 'malformed', times: 2 });
    const send = () => wire('POST', paymentPath('EXT-3'), { key: a.keys.full, json: payment(3), headers: { 'Idempotency-Key': 'cut-3' } });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(() => JSON.parse(second.body.toString())).toThrow(SyntaxError);
    expect(second.body.toString()).toBe(first.body.toString());
  });
});

describe('Prefer: fault=… and latency=… for one call', () => {
  it.each([
    ['reset', (seen: Wire) => expect([seen.error, seen.bytes]).toEqual(['ECONNRESET', 0])],
    ['empty', (seen: Wire) => expect([seen.error, seen.bytes]).toEqual([null, 0])],
    ['malformed', (seen: Wire) => expect([seen.status, seen.body.length]).toEqual([200, Number(seen.headers['content-length'])])],
    ['429', (seen: Wire) => expect([seen.status, seen.headers['retry-after']]).toEqual([429, '1'])],
    ['500', (seen: Wire) => expect(seen.status).toBe(500)],
    ['503', (seen: Wire) => expect(seen.status).toBe(503)],
  ])('Prefer: fault=%s', async (fault, expectation) => {
    const seen = await wire('GET', FEED, { key: a.keys.full, headers: { Prefer: `respond-async, fault=${fault}` } });
    expectation(seen);
    if (fault === 'malformed') expect(() => JSON.parse(seen.body.toString())).toThrow(SyntaxError);
    if (seen.status >= 500 || seen.status === 429) await conformingBody('orderFeed', asResponse(seen));
  });

  it('Prefer: fault=stall dribbles the body over the default 10 s; the client may leave', async () => {
    const seen = await wire('GET', FEED, { key: a.keys.full, headers: { Prefer: 'fault=stall' }, stopAfterHead: true });
    expect(seen.status).toBe(200);
    expect(Number(seen.headers['content-length'])).toBeGreaterThan(0);
  });

  it('Prefer: latency=200 and latency=100-150 wait, then answer as usual', async () => {
    for (const [value, least] of [['200', 190], ['100-150', 90]] as const) {
      const start = performance.now();
      const answer = await feed(a.keys.full, { Prefer: `latency=${value}` });
      expect(performance.now() - start).toBeGreaterThanOrEqual(least);
      expect(answer.status).toBe(200);
    }
  });

  it('Prefer: fault=reset; when=after on a payment commits it, then resets', async () => {
    const seen = await wire('POST', paymentPath('EXT-4'), { key: a.keys.full, json: payment(4), headers: { Prefer: 'fault=reset; when=after' } });
    expect(seen.error).toBe('ECONNRESET');
    expect(await paymentsOf('EXT-4')).toHaveLength(1);
  });

  it('Prefer replaces the rules for that call: the rule neither counts it nor fires', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'status', status: 503 });
    expect((await feed(a.keys.full, { Prefer: 'latency=1' })).status).toBe(200);
    expect((await rulesOf(a))[0]).toMatchObject({ matched: 0, fired: 0, remaining: 1 });
    expect((await feed(a.keys.full)).status).toBe(503);
  });

  it('an unknown preference is ignored', async () => {
    expect((await feed(a.keys.full, { Prefer: 'return=minimal, wait=10' })).status).toBe(200);
  });

  it.each(['fault=bogus', 'fault', 'latency=abc', 'latency=900-100', 'latency=60001', 'fault=reset; when=after', 'latency=5; when=soon'])('Prefer: %s on a feed is 400 naming Prefer', async (value) => {
    const answer = await feed(a.keys.full, { Prefer: value });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('api.malformed_request');
    expect(answer.body.errors.map((error: { field: string }) => error.field)).toEqual(['Prefer']);
  });

  it('Prefer: fault=malformed; when=before on a write is 400 naming Prefer, and writes nothing', async () => {
    const answer = await call(server.url, 'attachPayment', paymentPath('EXT-5'), { method: 'POST', key: a.keys.full, json: payment(5), headers: { Prefer: 'fault=malformed; when=before' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].field).toBe('Prefer');
    expect(await paymentsOf('EXT-5')).toHaveLength(0);
  });

  it('whoami, which reads no input of its own, ignores a malformed Prefer', async () => {
    expect((await call(server.url, 'whoami', WHOAMI, { key: a.keys.full, headers: { Prefer: 'fault=bogus' } })).status).toBe(200);
  });
});

describe('seeded draws', () => {
  /** Which of 200 whoami calls of `tenant` a 30 % rule seeded `seed` fired on. */
  async function firedSequence(tenant: typeof a, seed: number): Promise<number[]> {
    await api('deleteFaults', `/tenants/${tenant.tenantId}/faults`);
    await rule(tenant, { operation: 'whoami', fault: 'status', status: 503, probability: 0.3, seed });
    const fired: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const answer = await call(server.url, 'whoami', WHOAMI, { key: tenant.keys.full });
      if (answer.status === 503) fired.push(i);
    }
    const [counted] = await rulesOf(tenant);
    expect(counted).toMatchObject({ matched: 200, fired: fired.length, times: null, remaining: null, probability: 0.3, seed });
    return fired;
  }

  it('the same seed fires on the same calls, on any tenant; another seed on others', async () => {
    const first = await firedSequence(a, 7);
    expect(await firedSequence(b, 7)).toEqual(first);
    expect(first.length).toBeGreaterThan(30);
    expect(first.length).toBeLessThan(90);
    expect(await firedSequence(a, 8)).not.toEqual(first);
  });
});

describe('tenancy and keys', () => {
  it('a rule of tenant A never fires for tenant B', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'status', status: 503, times: 5 });
    for (let i = 0; i < 3; i += 1) expect((await feed(b.keys.full)).status).toBe(200);
    expect((await rulesOf(a))[0]).toMatchObject({ matched: 0, remaining: 5 });
    expect((await feed(a.keys.full)).status).toBe(503);
  });

  it('keyId narrows a rule to one key of the tenant', async () => {
    const keyId = (await call(server.url, 'whoami', WHOAMI, { key: a.keys.ordersRead })).body.keyId;
    await rule(a, { operation: 'orderFeed', keyId, fault: 'status', status: 503 });
    expect((await feed(a.keys.full)).status).toBe(200);
    expect((await feed(a.keys.ordersRead)).status).toBe(503);
  });

  it('a call refused before the faults (no key, wrong scope) is not faulted', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'reset' });
    expect((await feed(a.keys.tripsRead)).status).toBe(403);
    expect((await rulesOf(a))[0]).toMatchObject({ matched: 0, remaining: 1 });
  });
});

describe('the request log marks faulted calls', () => {
  type Entry = { requestId: string; status: number; fault: unknown; problemType: string | null; orderIds: string[]; latencyMs: number };
  async function entries(tenantId: string): Promise<Entry[]> {
    await log.settle();
    return (await api('listRequests', `/tenants/${tenantId}/requests?limit=100`)).body.items;
  }

  it('leaves unmarked a write whose after fault did not fire (the request was refused), and marks only the wait before it', async () => {
    await rule(a, { operation: 'cancelOrder', fault: 'status', status: 503, when: 'after' });
    const { id: waitId } = await rule(a, { operation: 'cancelOrder', fault: 'latency', latencyMs: 5 });
    const refused = await call(server.url, 'cancelOrder', '/api/v1/integration/orders/externalid/NO-SUCH/cancel', { method: 'POST', key: a.keys.full, json: {} });
    expect(refused.status).toBe(404);
    const entry = (await entries(a.tenantId)).find((item) => item.requestId === refused.headers.get('x-request-id'))!;
    expect(entry).toMatchObject({ status: 404, problemType: 'orders.notFound', fault: { fault: 'latency', source: 'rule', ruleId: waitId, when: 'before', latencyMs: 5 } });
  });

  it('with the fault, its source and rule, and the status the client got (0 for none)', async () => {
    const { id } = await rule(a, { operation: 'attachPayment', fault: 'reset', when: 'after' });
    await wire('POST', paymentPath('EXT-6'), { key: a.keys.full, json: payment(6) });
    const plain = await feed(a.keys.full);
    const preferred = await feed(a.keys.full, { Prefer: 'fault=429, latency=20' });
    await wire('GET', FEED, { key: a.keys.full, headers: { Prefer: 'fault=malformed' } });
    const listed = await entries(a.tenantId);
    const [malformed, throttled, unfaulted] = listed;
    const reset = listed.find((entry) => entry.fault !== null && (entry.fault as { ruleId: string }).ruleId === id)!;
    expect(reset).toMatchObject({ status: 0, fault: { fault: 'reset', source: 'rule', ruleId: id, when: 'after' } });
    expect(reset.orderIds).toHaveLength(1);
    expect(unfaulted).toMatchObject({ requestId: plain.headers.get('x-request-id'), fault: null, status: 200 });
    expect(throttled).toMatchObject({ requestId: preferred.headers.get('x-request-id'), status: 429, problemType: 'api.rate_limited', fault: { fault: 'status', source: 'prefer', ruleId: null, when: null, latencyMs: 20 } });
    expect(malformed).toMatchObject({ status: 200, fault: { fault: 'malformed', source: 'prefer', ruleId: null, when: null } });
  });
});
