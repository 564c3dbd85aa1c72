/** Media types (D17), body limits (D18), unknown routes and methods (D21), request ids (D23), bodyless requests (D90). */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINGER_MS } from './body.ts';
import { call, memoryStore, rawRequest, type RunningServer, type SeededTestTenant, seedTenant, startServer, tinyDataset } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let keys: SeededTestTenant['keys'];
const PAYMENT_PATH = '/api/v1/integration/orders/externalid/EXT-0/payment';
const CANCEL_PATH = '/api/v1/integration/orders/externalid/EXT-9/cancel';
const PAYMENT = JSON.stringify({ paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 5, currency: 'EUR' });

beforeAll(async () => {
  const store = await memoryStore();
  ({ keys } = await seedTenant(store, tinyDataset({ orders: 20 })));
  server = await startServer(store, { bodyIdleTimeoutMs: 300 });
});
afterAll(() => server.close());

/**
 * A 2 MiB payment sent by hand in four chunks 100 ms apart, the way a slow client sends: how many
 * body bytes were written before the first byte of the answer came, the answer, and any write error.
 */
async function sendSlowly(headers: Record<string, string>): Promise<{ sentBeforeAnswer: number; text: string; writeError?: string }> {
  const url = new URL(server.url);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  let sent = 0;
  let sentBeforeAnswer: number | undefined;
  let writeError: string | undefined;
  socket.on('data', (chunk: Buffer) => {
    sentBeforeAnswer ??= sent;
    chunks.push(chunk);
  });
  socket.on('error', (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message));
  const closed = once(socket, 'close');
  const head = Object.entries({ Host: 'test', 'X-Api-Key': keys.full, 'Content-Type': 'application/json', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`POST ${PAYMENT_PATH} HTTP/1.1\r\n${head.join('')}\r\n`);
  const chunk = Buffer.alloc(512 * 1024, 0x20);
  for (let index = 0; index < 4 && writeError === undefined && !socket.destroyed; index += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
    sent += chunk.length;
  }
  await closed;
  return { sentBeforeAnswer: sentBeforeAnswer ?? -1, text: Buffer.concat(chunks).toString('latin1'), ...(writeError === undefined ? {} : { writeError }) };
}

const post = (path: string, operationId: string, body: string | undefined, headers: Record<string, string>) =>
  call(server.url, operationId, path, { method: 'POST', key: keys.full, headers, ...(body === undefined ? {} : { body }) });

describe('media types (D17)', () => {
  it('accepts application/json with and without charset=utf-8', async () => {
    expect((await post(PAYMENT_PATH, 'attachPayment', PAYMENT, { 'Content-Type': 'application/json' })).status).toBe(200);
    expect((await post(PAYMENT_PATH, 'attachPayment', PAYMENT, { 'Content-Type': 'Application/JSON; charset=UTF-8' })).status).toBe(200);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/merge-patch+json', 'nonsense'])(
    'refuses Content-Type %s with 415 api.unsupported_media_type',
    async (type) => {
      const answer = await post(PAYMENT_PATH, 'attachPayment', PAYMENT, { 'Content-Type': type });
      expect(answer.status).toBe(415);
      expect(answer.body.type).toBe('api.unsupported_media_type');
    },
  );

  it('answers a body with no Content-Type at all 415 api.malformed_request, on payment and on cancel', async () => {
    for (const [path, operationId] of [[PAYMENT_PATH, 'attachPayment'], [CANCEL_PATH, 'cancelOrder']] as const) {
      const answer = await post(path, operationId, PAYMENT, {});
      // fetch sends text/plain for a string body; a Blob without type sends no Content-Type.
      const raw = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'X-Api-Key': keys.full }, body: new Blob([PAYMENT]) });
      expect(raw.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const body = (await raw.json()) as { type: string; status: number };
      expect([raw.status, body.type, body.status]).toEqual([415, 'api.malformed_request', 415]);
      expect(answer.status).toBe(415);
    }
  });

  it('answers a payment without any body 400 api.malformed_request, whatever its Content-Type, or without one (D90)', async () => {
    const bare = await fetch(`${server.url}${PAYMENT_PATH}`, { method: 'POST', headers: { 'X-Api-Key': keys.full } });
    expect([bare.status, ((await bare.json()) as { type: string }).type]).toEqual([400, 'api.malformed_request']);
    for (const type of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
      const empty = await post(PAYMENT_PATH, 'attachPayment', '', { 'Content-Type': type });
      expect([empty.status, empty.body.type, empty.body.detail], type).toEqual([400, 'api.malformed_request', 'A JSON body is required.']);
    }
  });

  it.each(['{', '{"amount": }', 'null x', '"unterminated'])('answers malformed JSON %j with 400 api.malformed_request', async (body) => {
    const answer = await post(PAYMENT_PATH, 'attachPayment', body, { 'Content-Type': 'application/json' });
    expect([answer.status, answer.body.type]).toEqual([400, 'api.malformed_request']);
  });
});

describe('a request without a body, whatever its Content-Type (D90)', () => {
  it.each([
    ['Content-Length: 0 and application/x-www-form-urlencoded, as axios sends it', 'EXT-10', 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n'],
    ['no Content-Length and text/plain', 'EXT-11', 'Content-Type: text/plain\r\n'],
  ])('reads a cancel with %s as a cancel without a reason: 200, Cancelled', async (_what, externalId, headers) => {
    const answer = await rawRequest(server.url, `POST /api/v1/integration/orders/externalid/${externalId}/cancel HTTP/1.1\r\nHost: test\r\nX-Api-Key: ${keys.full}\r\n${headers}Connection: close\r\n\r\n`);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ externalId, status: 'Cancelled' });
  });

  it('still judges the Content-Type of a cancel that carries a body, however short: 415', async () => {
    const answer = await post(CANCEL_PATH, 'cancelOrder', '{}', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect([answer.status, answer.body.type]).toEqual([415, 'api.unsupported_media_type']);
  });
});

describe('body limits (D18)', () => {
  it('answers a body over 1 MiB with 413, declared or chunked', async () => {
    const big = JSON.stringify({ reason: 'x'.repeat(1024 * 1024) });
    const declared = await post(CANCEL_PATH, 'cancelOrder', big, { 'Content-Type': 'application/json' });
    expect([declared.status, declared.body.type]).toEqual([413, 'api.payload_too_large']);
    const chunks = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(big)); c.close(); } });
    const chunked = await fetch(`${server.url}${CANCEL_PATH}`, { method: 'POST', headers: { 'X-Api-Key': keys.full, 'Content-Type': 'application/json' }, body: chunks, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it.each([
    ['too large', { 'Content-Length': String(2 * 1024 * 1024) }, 413, 'api.payload_too_large'],
    ['compressed', { 'Content-Length': String(2 * 1024 * 1024), 'Content-Encoding': 'gzip' }, 415, 'api.unsupported_media_type'],
  ] as const)('reads a refused %s body to its end before it answers and closes, so a client still sending sees the answer, not a reset (D18)', async (_name, headers, status, type) => {
    const answer = await sendSlowly(headers);
    // Closing at once would reset the connection under the later chunks: a write error, no answer.
    expect(answer.writeError).toBeUndefined();
    expect(answer.sentBeforeAnswer).toBe(2 * 1024 * 1024);
    expect(answer.text).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(answer.text).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer.text).toContain(`"type":"${type}"`);
  });

  it('answers a refused body that never comes once it has waited LINGER_MS, and closes (D18)', async () => {
    const start = performance.now();
    const answer = await rawRequest(server.url, `POST ${PAYMENT_PATH} HTTP/1.1\r\nHost: test\r\nX-Api-Key: ${keys.full}\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`);
    // A lower bound only: the server waited for the body it was promised before giving up on it.
    expect(performance.now() - start).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(answer.status).toBe(413);
    expect(answer.head).toMatch(/connection: close/i);
  });

  it('answers a refused body at once when the client closes its sending side before the body is all sent (D18, D60)', async () => {
    const start = performance.now();
    const answer = await rawRequest(server.url, `POST ${PAYMENT_PATH} HTTP/1.1\r\nHost: test\r\nX-Api-Key: ${keys.full}\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n{"paymentId":`, { halfClose: true });
    expect(answer.status).toBe(413);
    // Nothing more can come: it does not wait out LINGER_MS for the rest (a bound far above a local answer's milliseconds).
    expect(performance.now() - start).toBeLessThan(LINGER_MS - 500);
  });

  it('accepts a body just under 1 MiB', async () => {
    const body = JSON.stringify({ reason: 'ok', padding: 'x'.repeat(1024 * 1024 - 40) });
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    const answer = await post('/api/v1/integration/orders/externalid/EXT-18/cancel', 'cancelOrder', body, { 'Content-Type': 'application/json' });
    expect(answer.status).toBe(200);
  });

  const partial = () =>
    `POST ${PAYMENT_PATH} HTTP/1.1\r\nHost: test\r\nX-Api-Key: ${keys.full}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"paymentId":`;

  it.each([['stops sending', false], ['closes its side', true]])('answers 408 api.request_body_incomplete to a client that %s before Content-Length', async (_name, halfClose) => {
    const answer = await rawRequest(server.url, partial(), { halfClose });
    expect(answer.status).toBe(408);
    expect(answer.head).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'api.request_body_incomplete', status: 408, instance: expect.stringMatching(new RegExp(`^${PAYMENT_PATH}#req_`)) });
  });

  it('answers a request that is not HTTP with a 400 problem', async () => {
    const answer = await rawRequest(server.url, 'HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).type).toBe('api.malformed_request');
  });
});

describe('unknown routes and methods (D21)', () => {
  it.each(['/api', '/api/v1/integration', '/api/v1/integration/order', '/api/v2/integration/orders', '/api/v1/integration/orders/externalid/x/refund'])('answers %s with 404 about:blank', async (path) => {
    const answer = await fetch(`${server.url}${path}`, { headers: { 'X-Api-Key': keys.full } });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await answer.json()).toMatchObject({ type: 'about:blank', status: 404 });
  });

  it.each([
    ['PUT', '/api/v1/integration/orders', 'GET, HEAD'],
    ['POST', '/api/v1/integration/trips', 'GET, HEAD'],
    ['GET', '/api/v1/integration/orders/externalid/EXT-1/payment', 'POST'],
    ['PATCH', '/api/v1/integration/orders/externalid/EXT-1', 'DELETE'],
    ['DELETE', '/api/v1/integration/whoami', 'GET, HEAD'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const answer = await fetch(`${server.url}${path}`, { method, headers: { 'X-Api-Key': keys.full } });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe(allow);
    expect(await answer.json()).toMatchObject({ type: 'about:blank', status: 405 });
  });

  it('answers a path that does not decode with a 400 problem, not a 500', async () => {
    const answer = await fetch(`${server.url}/api/v1/integration/orders/externalid/%E0%A4%A/cancel`, { method: 'POST', headers: { 'X-Api-Key': keys.full } });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { type: string }).type).toBe('api.malformed_request');
  });
});

describe('request ids (D23)', () => {
  it('echoes a client X-Request-Id and puts it in the problem instance', async () => {
    const answer = await call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=0', { key: keys.full, headers: { 'X-Request-Id': 'trace-42' } });
    expect(answer.headers.get('x-request-id')).toBe('trace-42');
    expect(answer.body.instance).toBe('/api/v1/integration/orders#trace-42');
  });

  it('issues a fresh id per request when none (or an unusable one) is sent', async () => {
    const a = await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: keys.full });
    const b = await call(server.url, 'whoami', '/api/v1/integration/whoami', { key: keys.full, headers: { 'X-Request-Id': 'x'.repeat(129) } });
    expect(a.headers.get('x-request-id')).toMatch(/^req_/);
    expect(b.headers.get('x-request-id')).toMatch(/^req_/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('input hygiene (issue 10: D8, D17, D21, D47)', () => {
  it.each(['0x10', '0b11', '0o7', '1e3', 'Infinity', ' 5', '5 ', '+5'])('refuses limit=%j: only decimal integers are (D8)', async (limit) => {
    const answer = await call(server.url, 'orderFeed', `/api/v1/integration/orders?limit=${encodeURIComponent(limit)}`, { key: keys.full });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'api.malformed_request', errors: [{ field: 'limit', code: 'api.malformed_request' }] });
  });

  it('still serves limit=5 and caps limit=500 (D8)', async () => {
    expect((await call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=5', { key: keys.full })).body.items).toHaveLength(5);
    expect((await call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=500', { key: keys.full })).status).toBe(200);
  });

  it('matches paths case-sensitively: another case is 404 about:blank, not the operation (D21)', async () => {
    for (const path of ['/API/V1/integration/orders', '/api/v1/Integration/orders', '/api/v1/integration/ORDERS']) {
      const response = await fetch(`${server.url}${path}`, { headers: { 'X-Api-Key': keys.full } });
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { type: string }).type).toBe('about:blank');
    }
    const sandbox = await fetch(`${server.url}/SANDBOX/v1/tenants`);
    expect(sandbox.status).toBe(404);
  });

  it('echoes at most the first 100 characters of an unknown external id, and a bounded path', async () => {
    const externalId = 'x'.repeat(10_000);
    const answer = await post(`/api/v1/integration/orders/externalid/${externalId}/cancel`, 'cancelOrder', '{}', { 'Content-Type': 'application/json' });
    expect(answer.status).toBe(404);
    expect(answer.body.type).toBe('orders.notFound');
    expect(answer.body.detail).toBe(`No order with external id ${'x'.repeat(100)}….`);
    expect(JSON.stringify(answer.body).length).toBeLessThan(1000);
  });

  it.each(['gzip', 'deflate', 'br', 'GZIP'])('refuses Content-Encoding %s with 415 api.unsupported_media_type naming it (D47)', async (encoding) => {
    for (const [path, operationId, body] of [[PAYMENT_PATH, 'attachPayment', PAYMENT], [CANCEL_PATH, 'cancelOrder', '{}']] as const) {
      const answer = await post(path, operationId, body, { 'Content-Type': 'application/json', 'Content-Encoding': encoding });
      expect(answer.status).toBe(415);
      expect(answer.body).toMatchObject({ type: 'api.unsupported_media_type', detail: `Content-Encoding ${encoding} is not accepted; send the body uncompressed.` });
      expect(answer.headers.get('accept-encoding')).toBe('identity');
    }
  });

  it('reads a body with Content-Encoding identity (D47)', async () => {
    expect((await post(PAYMENT_PATH, 'attachPayment', PAYMENT, { 'Content-Type': 'application/json', 'Content-Encoding': 'identity' })).status).toBe(200);
  });

  it.each(['null', '42', '"x"', 'true', '[]'])('answers the valid JSON %s "must be a JSON object", not "not valid JSON" (D17)', async (body) => {
    const answer = await post(PAYMENT_PATH, 'attachPayment', body, { 'Content-Type': 'application/json' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'api.malformed_request', detail: 'The body must be a JSON object.' });
    expect((await post(PAYMENT_PATH, 'attachPayment', '{"a":', { 'Content-Type': 'application/json' })).body.detail).toBe('The body is not valid JSON.');
  });
});
