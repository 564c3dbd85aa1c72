import { execFile } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeError } from './exchange.ts';
import { answer, type FakeTarget, startFakeTarget, testKeys, testProfile } from '../../dev/testing/conformance/fake-target.ts';
import { contextFor as contextOver } from '../../dev/testing/conformance/check-context.ts';
import type { Profile } from '../engine/types/profile.ts';

/** A check context against `target`, and the log it records into. */
const contextFor = (target: string, profile: Profile = testProfile(), timeoutMs = 2000) => contextOver(target, { profile, timeoutMs });

describe('ctx.http', () => {
  let target: FakeTarget;
  beforeAll(async () => {
    target = await startFakeTarget((request, response) => {
      if (request.url.startsWith('/slow')) return void setTimeout(() => answer(response, 200, {}), 1500);
      // Echoes what it got, the key included, so redaction of answers is tested too.
      response.setHeader('x-echo-key', String(request.headers['x-api-key'] ?? ''));
      answer(response, 200, { method: request.method, url: request.url, key: request.headers['x-api-key'] ?? null, authorization: request.headers.authorization ?? null, contentType: request.headers['content-type'] ?? null, body: request.body });
    });
  });
  afterAll(() => target.close());

  it('redacts a secret a check learns at run time, in records made before and after', async () => {
    const { ctx, log } = contextFor(target.url);
    const learned = 'wbk_createdAtRunTime_0123456789';
    await ctx.http.request({ method: 'POST', path: '/sandbox/v1/tenants/t/keys', body: { secret: learned } });
    expect(JSON.stringify(log.all())).toContain(learned);
    ctx.addSecret(learned, 'createdKey');
    await ctx.http.request({ method: 'GET', path: '/api/v1/integration/whoami', key: learned });
    const records = JSON.stringify(log.all());
    expect(records).not.toContain(learned);
    expect(records).toContain('<redacted:createdKey>');
  });

  it('sends the full key by default, redacts it everywhere in the record, and names the operation', async () => {
    const { ctx, log } = contextFor(target.url);
    const response = await ctx.http.request({ method: 'GET', path: '/api/v1/integration/whoami' });
    expect((response.json as { key: string }).key).toBe(testKeys.full);
    const record = log.all()[0];
    expect(record).toMatchObject({ id: 1, checkId: 'test.check', channel: 'api', operationId: 'whoami' });
    expect(record?.request.headers['x-api-key']).toBe('<redacted:full>');
    expect(record?.response?.headers['x-echo-key']).toBe('<redacted:full>');
    expect(record?.response?.body).toContain('<redacted:full>');
    expect(record?.replay).toContain(`-H 'x-api-key: '"$WAYBILL_KEY_FULL"`);
    expect(JSON.stringify(log.all())).not.toContain(testKeys.full);
  });

  it('sends a profile key by name, a raw key as given, and none for null', async () => {
    const { ctx, log } = contextFor(target.url);
    const byName = await ctx.http.request({ method: 'GET', path: '/a', key: 'ordersRead' });
    const raw = await ctx.http.request({ method: 'GET', path: '/b', key: 'not-a-real-key' });
    const none = await ctx.http.request({ method: 'GET', path: '/c', key: null });
    expect([byName, raw, none].map((response) => (response.json as { key: string | null }).key)).toEqual([testKeys.ordersRead, 'not-a-real-key', null]);
    expect(log.all().map((record) => record.request.headers['x-api-key'])).toEqual(['<redacted:ordersRead>', 'not-a-real-key', undefined]);
    expect(log.all()[1]?.operationId).toBeNull();
  });

  it('follows profile.auth, or a per-request auth override', async () => {
    const { ctx, log } = contextFor(target.url, testProfile({ auth: { header: 'Authorization', prefix: 'Bearer ' } }));
    const response = await ctx.http.request({ method: 'GET', path: '/x', key: 'tripsRead' });
    expect((response.json as { authorization: string }).authorization).toBe(`Bearer ${testKeys.tripsRead}`);
    expect(log.all()[0]?.request.headers['authorization']).toBe('Bearer <redacted:tripsRead>');
    const { ctx: plain } = contextFor(target.url);
    const overridden = await plain.http.request({ method: 'GET', path: '/x', auth: { header: 'Authorization', prefix: 'Bearer ' } });
    expect((overridden.json as { authorization: string; key: string | null }).authorization).toBe(`Bearer ${testKeys.full}`);
  });

  it('repeats array query parameters and matches the order feed', async () => {
    const { ctx, log } = contextFor(target.url);
    const response = await ctx.http.request({ method: 'GET', path: '/api/v1/integration/orders', query: { status: ['New', 'Planned'], limit: 5, cursor: undefined } });
    expect((response.json as { url: string }).url).toBe('/api/v1/integration/orders?status=New&status=Planned&limit=5');
    expect(log.all()[0]?.operationId).toBe('orderFeed');
  });

  it('sends JSON bodies as application/json, raw bodies as given, and no Content-Type for null', async () => {
    const { ctx, log } = contextFor(target.url);
    const json = await ctx.http.request({ method: 'POST', path: '/api/v1/integration/orders/externalid/ext-1/payment', body: { amount: 1 } });
    expect(json.json).toMatchObject({ contentType: 'application/json', body: '{"amount":1}' });
    expect(log.all()[0]?.operationId).toBe('attachPayment');
    const bare = await ctx.http.request({ method: 'POST', path: '/p', rawBody: '{"amount":', contentType: null });
    expect(bare.json).toMatchObject({ contentType: null, body: '{"amount":' });
    expect(log.all()[1]?.replay).toContain(`-H 'Content-Type:'`);
    const xml = await ctx.http.request({ method: 'POST', path: '/p', rawBody: '<a/>', contentType: 'application/xml' });
    expect(xml.json).toMatchObject({ contentType: 'application/xml' });
  });

  it('throws ExchangeError with the recorded exchange when no answer comes in time', async () => {
    const { ctx, log } = contextFor(target.url, testProfile(), 200);
    const error = await ctx.http.request({ method: 'GET', path: '/slow' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).message).toContain('no answer within 200 ms (timeout)');
    expect(log.all()[0]).toMatchObject({ response: null, error: expect.stringContaining('timeout') });
  });

  it('sends a read again on a fresh connection when the one it was sent on closes before any answer, and only a read', async () => {
    // A target that drops the first connection of each method as the request arrives, then answers.
    const dropped = new Set<string>();
    const server = createServer((socket: Socket) => {
      socket.once('data', (chunk: Buffer) => {
        const method = chunk.toString('latin1').split(' ')[0]!;
        if (!dropped.has(method)) {
          dropped.add(method);
          socket.destroy();
          return;
        }
        socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { ctx, log } = contextFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect((await ctx.http.request({ method: 'GET', path: '/api/v1/integration/whoami' })).status).toBe(200);
      expect(log.all().map((exchange) => exchange.response?.status ?? null)).toEqual([200]);
      // A write is never sent twice by the suite's transport: its failure is the check's to read.
      await expect(ctx.http.request({ method: 'POST', path: '/api/v1/integration/orders/externalid/x/cancel', body: {} })).rejects.toThrow(ExchangeError);
    } finally {
      server.close();
    }
  });

  it('matches routes under a base path of the target', async () => {
    const { ctx, log } = contextFor(`${target.url}/base`);
    await ctx.http.request({ method: 'DELETE', path: '/api/v1/integration/orders/externalid/ext%2F1' });
    await ctx.http.request({ method: 'PUT', path: '/api/v1/integration/orders/externalid/ext-1' });
    expect(log.all().map((record) => record.operationId)).toEqual(['archiveOrder', null]);
  });

  it.skipIf(process.platform === 'win32')('writes a curl line that replays the request with the key from the environment', async () => {
    const hasCurl = await promisify(execFile)('curl', ['--version']).then(
      () => true,
      () => false,
    );
    if (!hasCurl) return;
    const { ctx, log } = contextFor(target.url);
    await ctx.http.request({ method: 'POST', path: "/it's?q=a b", body: { reason: "it's $HOME" } });
    const { stdout } = await promisify(execFile)('sh', ['-c', log.all()[0]?.replay ?? ''], { env: { ...process.env, WAYBILL_KEY_FULL: testKeys.full } });
    const echoed = JSON.parse(stdout.slice(stdout.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(echoed).toMatchObject({ method: 'POST', key: testKeys.full, contentType: 'application/json', body: `{"reason":"it's $HOME"}` });
  });
});

describe('ctx.raw', () => {
  let server: Server;
  let url: string;
  const handlers: Record<string, (socket: Socket, data: string) => void> = {};
  const shortPath = '/api/v1/integration/orders/externalid/e/payment';
  beforeAll(async () => {
    server = createServer((socket) => {
      let data = '';
      socket.on('data', (chunk: Buffer) => {
        data += chunk.toString('latin1');
        const path = data.split(' ')[1] ?? '';
        if (path === shortPath) return; // answers once the client ends
        if (data.includes('\r\n\r\n')) handlers[path]?.(socket, data);
      });
      socket.on('end', () => handlers[data.split(' ')[1] ?? '']?.(socket, data));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    handlers['/ok'] = (socket, data) => {
      const body = JSON.stringify({ sawKey: data.includes(testKeys.full) });
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nX-Request-Id: r1\r\n\r\n${body}`);
    };
    handlers['/chunked'] = (socket) => socket.end('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n');
    handlers[shortPath] = (socket) => {
      const body = '{"type":"api.request_body_incomplete","title":"Request body incomplete","status":408}';
      socket.end(`HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    };
    handlers['/drop'] = (socket) => socket.destroy();
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the bytes, reads the answer, and records it redacted with a printf | nc replay line', async () => {
    const { ctx, log } = contextFor(url);
    const response = await ctx.raw(`GET /ok HTTP/1.1\r\nHost: x\r\n${ctx.authHeader('full')}\r\n\r\n`);
    expect(response).toMatchObject({ status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', json: { sawKey: true } });
    expect(response.headers['x-request-id']).toBe('r1');
    const record = log.all()[0];
    expect(record).toMatchObject({ channel: 'raw', request: { method: 'GET', url: `${url}/ok` }, response: { status: 200 } });
    expect(record?.request.headers['x-api-key']).toBe('<redacted:full>');
    expect(record?.replay).toMatch(/^printf 'GET \/ok HTTP\/1\.1\\r\\nHost: x\\r\\nX-Api-Key: '"\$WAYBILL_KEY_FULL"'\\r\\n\\r\\n' \| nc 127\.0\.0\.1 \d+$/);
    expect(JSON.stringify(record)).not.toContain(testKeys.full);
  });

  it('skips interim answers and decodes a chunked body', async () => {
    const { ctx } = contextFor(url);
    expect((await ctx.raw('GET /chunked HTTP/1.1\r\nHost: x\r\n\r\n')).json).toEqual({ a: 1 });
  });

  it('half-closes after holdMs for a body shorter than its Content-Length', async () => {
    const { ctx, log } = contextFor(url);
    const response = await ctx.raw('POST /api/v1/integration/orders/externalid/e/payment HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"amount":', { holdMs: 50, halfClose: true });
    expect(response.status).toBe(408);
    expect(log.all()[0]).toMatchObject({ operationId: 'attachPayment', request: { body: '{"amount":' } });
  });

  it('throws ExchangeError when the connection drops without an answer', async () => {
    const { ctx, log } = contextFor(url);
    await expect(ctx.raw('GET /drop HTTP/1.1\r\nHost: x\r\n\r\n')).rejects.toThrow(/closed without an answer|socket error/);
    expect(log.all()[0]?.response).toBeNull();
  });
});
