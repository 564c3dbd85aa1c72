/** Fault injection (D51) asked for by the call itself: `Prefer: fault=…` and `latency=…`, and what is refused. */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { call, conformingBody } from '../../dev/testing/sandbox.ts';
import { asResponse, faultSandbox, FEED, payment, paymentPath, WHOAMI, type Wire } from '../../dev/testing/fault-sandbox.ts';

const { server, a, wire, rule, rulesOf, feed, paymentsOf } = faultSandbox();

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
