import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeError } from './exchange.ts';
import { contextFor as contextOver } from '../../dev/testing/conformance/check-context.ts';
import { testKeys } from '../../dev/testing/conformance/fake-target.ts';

/** A check context against `target`, and the log it records into. */
const contextFor = (target: string, timeoutMs = 1000) => contextOver(target, { timeoutMs, checkId: 'test.session' });

const paymentPath = '/api/v1/integration/orders/externalid/e-1/payment';

describe('ctx.rawSession', () => {
  let server: Server;
  let url: string;
  /** What the server had received on each connection when another connection asked. */
  const received: string[] = [];
  beforeAll(async () => {
    // Answers once the declared body is complete, echoing its length; `/early` answers at once.
    server = createServer((socket: Socket) => {
      const index = received.push('') - 1;
      socket.on('data', (chunk: Buffer) => {
        received[index] += chunk.toString('latin1');
        const data = received[index] ?? '';
        const headEnd = data.indexOf('\r\n\r\n');
        if (headEnd === -1) return;
        if (data.startsWith('GET /early')) return void socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\nno');
        const length = Number(/content-length: (\d+)/i.exec(data)?.[1] ?? 0);
        if (data.length - headEnd - 4 < length) return;
        const body = JSON.stringify({ bytes: length, connections: received.length });
        socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('holds a request half-sent while another runs, then finishes it and records one exchange', async () => {
    const { ctx, log } = contextFor(url);
    const body = '{"amount":1}';
    const session = await ctx.rawSession(`POST ${paymentPath} HTTP/1.1\r\nHost: x\r\n${ctx.authHeader('full')}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n{"amo`);
    // Another request completes while the first is held.
    const other = await ctx.raw('POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    expect(other.json).toEqual({ bytes: 0, connections: 2 });
    await session.write('unt":1}');
    const response = await session.response();
    expect(response).toMatchObject({ status: 200, json: { bytes: body.length, connections: 2 } });
    expect(await session.response()).toBe(response);
    const record = log.all().find((exchange) => exchange.request.url.endsWith(paymentPath));
    expect(record).toMatchObject({ channel: 'raw', checkId: 'test.session', operationId: 'attachPayment', request: { method: 'POST', body }, response: { status: 200 } });
    expect(record?.request.headers['x-api-key']).toBe('<redacted:full>');
    expect(JSON.stringify(record)).not.toContain(testKeys.full);
    await expect(session.write('more')).rejects.toThrow(/after response/);
  });

  it('returns an answer that came before response() was called', async () => {
    const { ctx } = contextFor(url);
    const session = await ctx.rawSession('GET /early HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await session.response()).toMatchObject({ status: 400, text: 'no' });
  });

  it('throws ExchangeError when the held request gets no answer in time, and records a closed session as unanswered', async () => {
    const { ctx, log } = contextFor(url, 200);
    const waiting = await ctx.rawSession('POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{');
    await expect(waiting.response()).rejects.toBeInstanceOf(ExchangeError);
    expect(log.all().at(-1)).toMatchObject({ response: null, error: 'no answer within 200 ms (timeout)' });
    const dropped = await ctx.rawSession('POST /y HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{');
    dropped.close();
    dropped.close();
    expect(log.all().at(-1)).toMatchObject({ request: { method: 'POST', body: '{' }, response: null, error: 'the check closed the connection before reading an answer' });
    await expect(dropped.response()).rejects.toThrow(/closed before response/);
    expect(log.all()).toHaveLength(2);
  });
});

describe('ctx.rawPipeline', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Answers two requests, the first chunked with a trailer, once the client half-closed; leaves the third unanswered.
    server = createServer({ allowHalfOpen: true }, (socket: Socket) => {
      socket.on('data', () => undefined);
      socket.on('end', () => {
        const chunked = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\none\r\n0\r\nX-Trailer: t\r\n\r\n';
        socket.end(`${chunked}HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\ntwo`);
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads every answer in order, interim ones skipped, and records one exchange per request', async () => {
    const { ctx, log } = contextFor(url);
    const requests = ['GET /first HTTP/1.1\r\nHost: x\r\n\r\n', `POST ${paymentPath} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`, 'GET /third HTTP/1.1\r\nHost: x\r\n\r\n'];
    const pipeline = await ctx.rawPipeline(requests, { halfClose: true });
    expect(pipeline.end).toBe('closed');
    expect(pipeline.answers.map((answer) => [answer.status, answer.text])).toEqual([
      [200, 'one'],
      [404, 'two'],
    ]);
    expect(pipeline.exchanges.map((exchange) => [exchange.request.url.slice(url.length), exchange.response?.status ?? exchange.error])).toEqual([
      ['/first', 200],
      [paymentPath, 404],
      ['/third', 'the connection closed without an answer'],
    ]);
    expect(log.all()).toEqual(pipeline.exchanges);
    expect(pipeline.exchanges[1]).toMatchObject({ operationId: 'attachPayment', request: { method: 'POST', body: '{}' } });
  });

  it('says timeout when the target neither answers nor closes', async () => {
    const { ctx } = contextFor(url, 200);
    const pipeline = await ctx.rawPipeline(['GET /held HTTP/1.1\r\nHost: x\r\n\r\n']);
    expect(pipeline).toMatchObject({ answers: [], end: 'timeout', exchanges: [{ response: null, error: 'no answer within 200 ms (timeout)' }] });
  });
});
