/**
 * Fault injection (D51) as a client meets it at the socket: one test per fault kind from a
 * rule, raw sockets against the sandbox on an ephemeral port, and the in-flight 429 staged
 * on a write. (Faults after writes, `Prefer`, draws and tenancy: the other *.test.ts here.)
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { call, conformingBody } from '../../dev/testing/sandbox.ts';
import { asResponse, faultSandbox, FEED, payment, paymentPath, WHOAMI } from '../../dev/testing/fault-sandbox.ts';

const { server, a, wire, rule, rulesOf, feed, paymentsOf } = faultSandbox();

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
