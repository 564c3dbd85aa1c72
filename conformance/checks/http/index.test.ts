import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answer as fakeAnswer, startFakeTarget } from '../../../dev/testing/conformance/fake-target.ts';
import { startByteProxy } from '../../../dev/testing/conformance/byte-proxy.ts';
import { answerJson, type ProxiedAnswer, type ProxyRewrite, startProxy } from '../../../dev/testing/conformance/proxy.ts';
import { runChecks, startReference, type ReferenceTarget } from '../../../dev/testing/conformance/reference.ts';
import type { Check } from '../../engine/types/check.ts';
import type { Profile } from '../../engine/types/profile.ts';
import { bodyLimit, bodyTooLarge, httpChecks } from './index.ts';
import { wireChecks } from './wire.ts';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

async function reference(): Promise<ReferenceTarget> {
  const target = await startReference();
  open.push(target.close);
  return target;
}

/**
 * The checks a run behind the shared HTTP proxy can judge. The proxy answers a cut-off body
 * itself (Node's bare 400), and loses the answer to a body the reference refuses before
 * reading it (413), so the body-size and cut-off checks are tested without it, below; it is an
 * HTTP server of its own, which answers an unmet Expect, a pipeline and a bad head itself, so
 * the checks of what comes before any operation are tested in wire.test.ts.
 */
const proxiable: Check[] = httpChecks.filter((check) => !['http.body.limit', 'http.body.tooLarge', 'http.body.incomplete', 'http.body.incomplete.close', ...wireChecks.map((wire) => wire.id)].includes(check.id));

/** The profile of `target`, pointed at the shared proxy in front of it applying `rewrite`. */
async function behindProxy(target: ReferenceTarget, rewrite: ProxyRewrite): Promise<Profile> {
  const proxy = await startProxy(target.server.url, rewrite);
  open.push(proxy.close);
  return { ...target.profile, target: proxy.url };
}

/** Runs `checks`; returns the ids of the failed ones, and fails the test on any error or skip. */
async function failedChecks(profile: Profile, checks: readonly Check[] = proxiable): Promise<string[]> {
  const { report } = await runChecks(checks, profile);
  expect(report.results.filter((result) => result.outcome === 'error' || result.outcome === 'skip').map((result) => [result.id, result.reason ?? result.error?.message])).toEqual([]);
  return report.results.filter((result) => result.outcome === 'fail').map((result) => result.id);
}

/** A problem answer written by a proxy. */
function problemAnswer(status: number, body: Record<string, unknown>): ProxiedAnswer {
  return { status, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req_proxy' }, body: Buffer.from(JSON.stringify({ title: 'Broken', status, detail: null, ...body })) };
}

/** `answer` with its problem body's members changed. */
function withProblem(answer: ProxiedAnswer, changes: Record<string, unknown>): ProxiedAnswer {
  return { ...answer, body: Buffer.from(JSON.stringify({ ...(answerJson(answer) as object), ...changes })) };
}

/** A byte-level proxy to `targetUrl`, closed after the test (see dev/testing/conformance/byte-proxy.ts). */
async function byteProxy(targetUrl: string, options: Parameters<typeof startByteProxy>[1] = {}): Promise<string> {
  const proxy = await startByteProxy(targetUrl, options);
  open.push(proxy.close);
  return proxy.url;
}

describe('http checks against the reference', () => {
  it('pass, every one', async () => {
    const target = await reference();
    const { report } = await runChecks(httpChecks, target.profile);
    expect(report.results.map((result) => [result.id, result.outcome, result.reason ?? result.findings[0]?.message])).toEqual(httpChecks.map((check) => [check.id, 'pass', undefined]));
  });

  it('pass behind the shared proxy when it rewrites nothing', async () => {
    const target = await reference();
    expect(await failedChecks(await behindProxy(target, {}))).toEqual([]);
  });
});

describe('http checks against broken targets', () => {
  it('fail http.mediaType.wrong when any media type is read as JSON', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      request: (request) => (/^(text\/plain|application\/x-www-form-urlencoded)/.test(request.headers['content-type'] ?? '') ? { ...request, headers: { ...request.headers, 'content-type': 'application/json' } } : request),
    });
    expect(await failedChecks(profile)).toEqual(['http.mediaType.wrong']);
  });

  it('fail http.mediaType.missing when a body without Content-Type is read as JSON', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      request: (request) => (request.headers['content-type'] === undefined && Number(request.headers['content-length'] ?? 0) > 0 ? { ...request, headers: { ...request.headers, 'content-type': 'application/json' } } : request),
    });
    expect(await failedChecks(profile)).toEqual(['http.mediaType.missing']);
  });

  it('fail http.body.malformed (and http.body.depth, whose bodies are refused as malformed) when malformed JSON is answered 422', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      answer: (answer, request) =>
        answer.status === 400 && (answerJson(answer) as { type?: string }).type === 'api.malformed_request' && Number(request.headers['content-length'] ?? 0) > 0 ? problemAnswer(422, { type: 'api.malformed_request' }) : answer,
    });
    expect(await failedChecks(profile)).toEqual(['http.body.malformed', 'http.body.depth']);
  });

  it('fail http.body.missing when an empty body is answered 422', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      answer: (answer, request) => (answer.status === 400 && request.headers['content-length'] === '0' ? problemAnswer(422, { type: 'api.malformed_request' }) : answer),
    });
    expect(await failedChecks(profile)).toEqual(['http.body.missing', 'http.body.none']);
  });

  it('fail only http.body.none when a request without a body is judged by its Content-Type (415, as the sandbox did before D90)', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      answer: (answer, request) =>
        request.headers['content-length'] === '0' && request.headers['content-type'] !== undefined && !request.headers['content-type'].startsWith('application/json') ? problemAnswer(415, { type: 'api.unsupported_media_type' }) : answer,
    });
    expect(await failedChecks(profile)).toEqual(['http.body.none']);
  });

  it('fail http.route.unknown when an unknown path gets a code of its own', async () => {
    const target = await reference();
    const profile = await behindProxy(target, { answer: (answer) => (answer.status === 404 && (answerJson(answer) as { type?: string }).type === 'about:blank' ? withProblem(answer, { type: 'routing.notFound' }) : answer) });
    expect(await failedChecks(profile)).toEqual(['http.route.unknown']);
  });

  it('fail http.method.notAllowed when a 405 has no Allow', async () => {
    const target = await reference();
    const profile = await behindProxy(target, { answer: ({ headers: { allow: _dropped, ...headers }, ...answer }) => ({ ...answer, headers }) });
    const { byId } = await runChecks(proxiable, profile);
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['http.method.notAllowed']);
    // Every other method on each of the contract's six paths: five methods probed, one each supported.
    expect(byId.get('http.method.notAllowed')?.findings.map((found) => found.received)).toEqual(Array(24).fill('no Allow header'));
  });

  it('fail http.method.notAllowed for the one path and method that are answered 404, a method no hand-picked probe tried', async () => {
    const target = await reference();
    const profile = await behindProxy(target, { answer: (answer, request) => (request.method === 'PUT' && request.url.endsWith('/cancel') ? { ...answer, status: 404 } : answer) });
    const { byId } = await runChecks(proxiable, profile);
    expect(byId.get('http.method.notAllowed')?.findings.map((found) => found.message)).toEqual([expect.stringMatching(/^PUT on a path that supports POST: PUT \/api\/v1\/integration\/orders\/externalid\/.*\/cancel → 404/)]);
  });

  it('fail http.requestId.present when answers to requests without an id carry none', async () => {
    const target = await reference();
    const profile = await behindProxy(target, {
      answer: ({ headers: { 'x-request-id': id, ...headers }, ...answer }, request) => ({ ...answer, headers: request.headers['x-request-id'] === undefined ? headers : { ...headers, 'x-request-id': id! } }),
    });
    expect(await failedChecks(profile)).toEqual(['http.requestId.present']);
  });

  it("fail http.requestId.echo when the client's id is not passed on", async () => {
    const target = await reference();
    const profile = await behindProxy(target, { request: ({ headers: { 'x-request-id': _dropped, ...headers }, ...request }) => ({ ...request, headers }) });
    expect(await failedChecks(profile)).toEqual(['http.requestId.echo']);
  });

  it.each<[string, ProxyRewrite]>([
    ['echoes any client id verbatim', { answer: (answer, request) => (request.headers['x-request-id'] === undefined ? answer : { ...answer, headers: { ...answer.headers, 'x-request-id': request.headers['x-request-id'] } }) }],
    ['refuses an id that is not 1–128 visible ASCII characters with 400', { answer: (answer, request) => (/^[\x21-\x7e]{1,128}$/.test(request.headers['x-request-id'] ?? 'none') ? answer : problemAnswer(400, { type: 'api.malformed_request' })) }],
  ])('fail http.requestId.unusable when the target %s', async (_name, rewrite) => {
    const target = await reference();
    const profile = await behindProxy(target, rewrite);
    const { byId } = await runChecks(proxiable, profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => result.id)).toEqual(['http.requestId.unusable']);
    expect(byId.get('http.requestId.unusable')?.findings.map((found) => found.message)).toEqual([
      expect.stringMatching(/^whoami sent with an X-Request-Id of 129 characters: GET \S+ → \d+.*: the (unusable id was echoed|request was refused over its request id)$/),
      expect.stringMatching(/^whoami sent with an X-Request-Id with a space: .*: the (unusable id was echoed|request was refused over its request id)$/),
    ]);
  });

  it('fail http.problem.instance when problems carry no instance', async () => {
    const target = await reference();
    const profile = await behindProxy(target, { answer: (answer) => (answer.status >= 400 ? withProblem(answer, { instance: null }) : answer) });
    const { byId } = await runChecks(proxiable, profile);
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['http.problem.instance']);
    expect(byId.get('http.problem.instance')?.findings[0]).toMatchObject({ expected: expect.stringMatching(/^instance containing \S+ \(e\.g\. \/api\/v1\/integration\/whoami#\S+\)$/), received: 'instance null' });
  });

  it('fail http.body.incomplete when the target hangs up on a cut-off body, and skip .close (D60: a half-close loses no answer)', async () => {
    const target = await reference();
    const { report, byId } = await runChecks(httpChecks, { ...target.profile, target: await byteProxy(target.server.url, { hangUp: true }) });
    expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.outcome])).toEqual([
      ['http.body.incomplete', 'fail'],
      ['http.body.incomplete.close', 'skip'],
      ['http.pipeline.order', 'fail'],
      ['http.head.unreadable', 'fail'],
    ]);
    expect(byId.get('http.body.incomplete')?.findings[0]).toMatchObject({ message: 'The target gave no complete answer', received: expect.stringContaining('the connection closed without an answer') });
    expect(byId.get('http.body.incomplete.close')?.reason).toMatch(/^the cut-off body got no answer: .*\(see http\.body\.incomplete\)$/);
  });

  it('fail http.body.incomplete (and http.head.unreadable, for a cut-off head) when a cut-off body is answered 400 api.malformed_request, and skip .close', async () => {
    const target = await reference();
    const profile = { ...target.profile, target: await byteProxy(target.server.url, { answer: (text) => text.replace('HTTP/1.1 408 Request Timeout', 'HTTP/1.1 400 Bad Request').replace('api.request_body_incomplete","title":"Request body incomplete","status":408', 'api.malformed_request","title":"Malformed request","status":400') }) };
    const { report, byId } = await runChecks(httpChecks, profile);
    expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.outcome])).toEqual([
      ['http.body.incomplete', 'fail'],
      ['http.body.incomplete.close', 'skip'],
      ['http.head.unreadable', 'fail'],
    ]);
    expect(byId.get('http.body.incomplete')?.findings.map((found) => [found.expected, found.received.slice(0, 3)])).toEqual([['408, api.request_body_incomplete', '400']]);
  });

  it('fail only http.body.incomplete.close and http.head.unreadable when their 408 keeps the connection', async () => {
    const target = await reference();
    const profile = { ...target.profile, target: await byteProxy(target.server.url, { answer: (text) => text.replace(/\r\nConnection: close\r\n/i, '\r\nConnection: keep-alive\r\n') }) };
    const { report, byId } = await runChecks(httpChecks, profile);
    expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.outcome])).toEqual([
      ['http.body.incomplete.close', 'fail'],
      ['http.head.unreadable', 'fail'],
    ]);
    expect(byId.get('http.body.incomplete.close')?.findings.map((found) => [found.expected, found.received])).toEqual([['Connection: close', 'Connection: keep-alive']]);
  });

  describe('the body size limit, on a small target that reads every body whole', () => {
    /** A target whose payment route answers 413 past `limit` bytes and 404 orders.notFound otherwise. */
    async function limitedTarget(limit: number): Promise<Profile> {
      const fake = await startFakeTarget((request, response) => {
        if (Buffer.byteLength(request.body) > limit) fakeAnswer(response, 413, { type: 'api.payload_too_large', title: 'Payload Too Large', status: 413, detail: null, instance: null });
        else fakeAnswer(response, 404, { type: 'orders.notFound', title: 'Not Found', status: 404, detail: null, instance: null });
      });
      open.push(fake.close);
      return { target: fake.url, keys: { full: 'wb_full_S3CRET_0001' } };
    }

    it.each([
      ['1 MiB, as D18 says', 1024 * 1024, []],
      ['512 KiB', 512 * 1024, ['http.body.limit']],
      ['none', Number.POSITIVE_INFINITY, ['http.body.limit', 'http.body.tooLarge']],
    ])('with a limit of %s, fail %j', async (_name, limit, failing) => {
      expect(await failedChecks(await limitedTarget(limit), [bodyLimit, bodyTooLarge])).toEqual(failing);
    });

    it('fail http.body.tooLarge, saying why, against a target that resets the connection while the body is still being sent', async () => {
      // Reads the head, then resets: what a server that answers early and closes at once does to a client still writing.
      const resetting = createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
      resetting.listen(0, '127.0.0.1');
      await once(resetting, 'listening');
      open.push(() => new Promise((resolve) => resetting.close(() => resolve())));
      const { port } = resetting.address() as AddressInfo;
      const { byId } = await runChecks([bodyTooLarge], { target: `http://127.0.0.1:${port}`, keys: { full: 'wb_full_S3CRET_0001' } });
      expect(byId.get('http.body.tooLarge')).toMatchObject({
        outcome: 'fail',
        findings: [{ message: expect.stringMatching(/^The target closed the connection before the client could read an answer/), expected: expect.stringContaining('RFC 9112 §9.6'), received: expect.stringMatching(/ECONNRESET|EPIPE/) }],
      });
    });
  });
});
