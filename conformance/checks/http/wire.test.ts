/**
 * The checks of a body's depth (D58) and of what comes before any operation (D60), against
 * targets that decide them otherwise: the suite-proof alternatives' own changes, and a few more that
 * only a small server or a proxy can show. That the reference passes them is http.test.ts's.
 */
import type { Server } from 'node:http';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { tooDeep } from '../../../server/http/json-depth.ts';
import { httpAlternatives } from '../../../dev/suite-proof/alternatives-http.ts';
import { startByteProxy } from '../../../dev/testing/conformance/byte-proxy.ts';
import { contextFor } from '../../../dev/testing/conformance/check-context.ts';
import { type ProxyRewrite, startProxy } from '../../../dev/testing/conformance/proxy.ts';
import { runChecks, provisionReference, startReference, type ReferenceTarget } from '../../../dev/testing/conformance/reference.ts';
import type { Check } from '../../engine/types/check.ts';
import type { Profile } from '../../engine/types/profile.ts';
import type { CheckResult } from '../../engine/types/report.ts';
import { bodyDepth } from './depth.ts';
import { expectUnmet, headUnreadable, pipelineOrder, wireChecks } from './wire.ts';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

/** The reference, its Node server changed by `change` (as a suite-proof alternative changes it). */
async function reference(change: (server: Server) => void = () => undefined): Promise<ReferenceTarget> {
  const target = await startReference();
  open.push(target.close);
  change(target.server.server);
  return target;
}

/** The server change of the suite-proof alternative `name`. */
const alternativeServer = (name: string) => httpAlternatives[name]!.server!;

/** Runs `check` against `profile`; its result. */
async function resultOf(check: Check, profile: Profile): Promise<CheckResult> {
  return (await runChecks([check], profile)).byId.get(check.id)!;
}

describe('http.body.depth (D58)', () => {
  /** The provisioned reference behind a proxy applying `rewrite`: the profile to run with. */
  async function behindProxy(rewrite: (profile: Profile) => ProxyRewrite): Promise<Profile> {
    const target = await provisionReference();
    open.push(target.close);
    const proxy = await startProxy(target.server.url, rewrite(target.profile));
    open.push(proxy.close);
    return { ...target.profile, target: proxy.url };
  }

  it('fails a target that reads bodies up to 1,000 levels deep: both bodies of 65 levels were taken', async () => {
    const result = await resultOf(bodyDepth, await behindProxy(httpAlternatives['nesting refused only deeper than 1000 levels']!.proxy!));
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((found) => [found.message.replace(/ of \S+ whose/, ' of … whose').replace(/: POST .*$/, ''), found.received.slice(0, 3)])).toEqual([
      ['a payment of … whose waybillNesting nests arrays to 65 levels in all', '200'],
      ['a cancel of … whose waybillNesting nests objects to 65 levels in all', '409'],
    ]);
  });

  it('fails a target that refuses bodies deeper than 32 levels: the bodies of 64 levels were refused', async () => {
    const refuseDeep: ProxyRewrite = {
      answer: async (answer, _request, _resend, requestBody) => {
        if (answer.status === 400 || tooDeep(await requestBody(), 32) === null) return answer;
        const error = { field: 'waybillNesting', code: 'api.malformed_request', value: null, message: 'too deep' };
        return { status: 400, headers: { 'content-type': 'application/problem+json' }, body: Buffer.from(JSON.stringify({ type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: 'too deep', errors: [error] })) };
      },
    };
    const result = await resultOf(bodyDepth, await behindProxy(() => refuseDeep));
    expect(result.findings.map((found) => [found.expected, found.received.slice(0, 3)])).toEqual([
      ['read (any answer but 400; 409 orders.status.illegal here, as the order cannot be cancelled)', '400'],
      ['read (any answer but 400; 409 orders.status.illegal here, as the order cannot be cancelled)', '400'],
    ]);
  });

  it('skips, naming the pool, when the profile has no orders that cannot be cancelled', async () => {
    const target = await reference();
    const { notCancellable: _none, ...orders } = target.profile.orders!;
    expect(await resultOf(bodyDepth, { ...target.profile, orders })).toMatchObject({ outcome: 'skip', reason: 'profile has no orders.notCancellable' });
  });
});

describe('http.expect.unmet (D60)', () => {
  it('fails a target that ignores an Expect it does not know, on each of the six operations', async () => {
    const target = await reference(alternativeServer('an Expect it cannot meet ignored'));
    const result = await resultOf(expectUnmet, target.profile);
    expect(result.findings.map((found) => [found.message.split(':')[0], found.received.slice(0, 3)])).toEqual([
      ['orderFeed with Expect', '200'],
      ['tripFeed with Expect', '200'],
      ['attachPayment with Expect', '404'],
      ['cancelOrder with Expect', '404'],
      ['archiveOrder with Expect', '404'],
      ['whoami with Expect', '200'],
    ]);
  });

  it('fails a target that answers 417 to 100-continue too', async () => {
    const target = await reference((server) =>
      server.on('checkContinue', (_request, response) => {
        response.writeHead(417, { 'content-type': 'application/problem+json' });
        response.end(JSON.stringify({ type: 'about:blank', title: 'Expectation Failed', status: 417 }));
      }),
    );
    const result = await resultOf(expectUnmet, target.profile);
    expect(result.findings.map((found) => [found.message.replace(/: GET .*$/, ''), found.received.slice(0, 3)])).toEqual([['whoami with Expect: 100-continue', '417']]);
  });
});

/** A server that answers the pipeline's three requests, once the client half-closed, with `answers` as written. */
async function rawServer(answers: string[]): Promise<string> {
  const server = createServer({ allowHalfOpen: true }, (socket: Socket) => {
    socket.on('data', () => undefined);
    socket.on('end', () => socket.end(answers.join('')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An HTTP/1.1 answer with a JSON body. */
const jsonAnswer = (status: string, body: unknown, contentType = 'application/json') => `HTTP/1.1 ${status}\r\nContent-Type: ${contentType}\r\nContent-Length: ${JSON.stringify(body).length}\r\n\r\n${JSON.stringify(body)}`;

describe('http.pipeline.order (D60)', () => {
  const whoami = jsonAnswer('200 OK', { tenantId: 't', keyId: 'k', scopes: [] });
  const page = jsonAnswer('200 OK', { items: [], nextCursor: null });
  const refused = jsonAnswer('400 Bad Request', { type: 'api.malformed_request', title: 'Bad Request', status: 400 }, 'application/problem+json');

  it('fails a target that closes the connection without the 400 of a bad request behind others', async () => {
    const target = await reference(alternativeServer('a request that cannot be read, behind others, closes the connection without its 400'));
    const result = await resultOf(pipelineOrder, target.profile);
    expect(result.findings.map((found) => [found.message, found.received])).toEqual([['3 requests pipelined, then a half-close: 2 answered before the connection closed', 'answers 200, 200; the connection closed']]);
    expect(result.findings[0]?.exchange).toMatchObject({ request: { method: 'this' }, response: null, error: 'the connection closed without an answer' });
  });

  it('fails a target that answers out of order, and passes one that answers in order', async () => {
    const target = await reference();
    const outOfOrder = await resultOf(pipelineOrder, { ...target.profile, target: await rawServer([page, whoami, refused]) });
    expect(outOfOrder.findings.map((found) => found.expected.split(' (')[0])).toEqual(['whoami: 200 with keyId', 'the order feed: 200 with items']);
    expect(await resultOf(pipelineOrder, { ...target.profile, target: await rawServer([whoami, page, refused]) })).toMatchObject({ outcome: 'pass' });
  });

  it('skips when a read is answered 429: whose answer is whose cannot be told', async () => {
    const target = await reference();
    const limited = jsonAnswer('429 Too Many Requests', { type: 'api.rate_limited', title: 'Too Many Requests', status: 429 }, 'application/problem+json');
    expect(await resultOf(pipelineOrder, { ...target.profile, target: await rawServer([whoami, limited, refused]) })).toMatchObject({ outcome: 'skip', reason: expect.stringMatching(/^a read of the pipeline was answered 429/) });
  });

  it('fails a target that keeps the connection open after the 400', async () => {
    const sockets = new Set<Socket>();
    const server = createServer({ allowHalfOpen: true }, (socket: Socket) => {
      sockets.add(socket);
      socket.on('data', () => undefined);
      socket.on('end', () => socket.write([whoami, page, refused].join('')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push(() => new Promise((resolve) => server.close(() => resolve())));
    open.push(async () => sockets.forEach((socket) => socket.destroy()));
    const target = await reference();
    const { ctx } = contextFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { profile: target.profile, timeoutMs: 300, checkId: pipelineOrder.id });
    const findings = (await pipelineOrder.run(ctx)) ?? [];
    expect(findings.map((found) => [found.message, found.received])).toEqual([['after the 400 to the unreadable request: the connection stayed open', 'still open after 300 ms']]);
  });
});

describe('behind a byte proxy that closes every connection after its first answer', () => {
  it('http.expect.unmet and http.head.unreadable pass (a head cut short is passed on as it came); http.pipeline.order skips', async () => {
    const target = await reference();
    const proxy = await startByteProxy(target.server.url, { refuse: () => undefined });
    open.push(proxy.close);
    const { report } = await runChecks(wireChecks, { ...target.profile, target: proxy.url });
    expect(report.results.map((result) => [result.id, result.outcome, result.reason])).toEqual([
      ['http.expect.unmet', 'pass', undefined],
      ['http.pipeline.order', 'skip', 'the target closes the connection after answer 1 (Connection: close), so no pipeline could be judged'],
      ['http.head.unreadable', 'pass', undefined],
    ]);
  });
});

describe('http.head.unreadable (D60)', () => {
  it('fails a target that closes a connection whose head was cut short without an answer', async () => {
    const target = await reference(alternativeServer('a head cut short closed without an answer'));
    const result = await resultOf(headUnreadable, target.profile);
    expect(result.findings.map((found) => [found.message, found.received.replace(/http:\/\/\S+?\/:/, 'URL:')])).toEqual([['whoami whose head stops before its end, then a half-close: no answer', 'raw ? URL: the connection closed without an answer']]);
  });

  it('fails a target whose 400 and 408 keep the connection', async () => {
    const target = await reference();
    const proxy = await startByteProxy(target.server.url, { answer: (text) => text.replace(/\r\nConnection: close\r\n/i, '\r\nConnection: keep-alive\r\n') });
    open.push(proxy.close);
    const result = await resultOf(headUnreadable, { ...target.profile, target: proxy.url });
    expect(result.findings.map((found) => found.received)).toEqual(['Connection: keep-alive', 'Connection: keep-alive']);
  });
});
