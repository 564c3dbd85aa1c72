import { connect } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OperationSpec, operations } from '../../spec/load.ts';
import { createHttpServer, listen } from './server.ts';
import { memoryLogger } from './log.ts';
import { makeErrorHandler } from './error-handler.ts';
import { makeSchemaCheck, makeValidate, queryOf } from './validate.ts';

// A made-up operation whose body uses both extensions on one field, in the sandbox document.
const operation: OperationSpec = {
  operationId: 'createApiKeyLike',
  method: 'POST',
  path: '/keys',
  scope: null,
  errorCodes: [],
  parameters: [{ name: 'state', in: 'query', required: false, schema: { $ref: '#/components/schemas/TenantStateFilter' }, explode: true }],
  requestBody: { required: true, content: { 'application/json': { $ref: '#/components/schemas/NewApiKey' } } },
  responses: {},
};

// A made-up operation taking an order intake, for bodies with many invalid lines.
const intakeOperation: OperationSpec = {
  ...operation,
  operationId: 'createOrderLike',
  path: '/orders',
  parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1 }, explode: true }],
  requestBody: { required: true, content: { 'application/json': { $ref: '#/components/schemas/OrderIntake' } } },
};

let url: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(express.json({ limit: '2mb' }));
  app.post('/orders', makeValidate(intakeOperation, 'sandbox'), (_req, res) => {
    res.json(res.locals['input']);
  });
  app.post('/keys', makeValidate(operation, 'sandbox'), (_req, res) => {
    res.json(res.locals['input']);
  });
  app.use(makeErrorHandler({ log: memoryLogger() }));
  const server = createHttpServer(app);
  url = await listen(server, 0, '127.0.0.1');
  close = () => server.close();
});
afterAll(() => close());

const post = async (body: unknown, query = '') => {
  const response = await fetch(`${url}/keys${query}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { type?: string; errors?: { field: string; code: string }[] } };
};

describe('makeValidate with a document other than the integration one', () => {
  it('answers x-error-code, and the code x-error-codes-by-keyword names for one keyword of the same field', async () => {
    expect((await post({ name: 'k', scopes: [], rateLimitPerMinute: 0 })).body.errors?.[0]).toMatchObject({ field: 'rateLimitPerMinute', code: 'apikeys.invalid_rate_limit' });
    expect((await post({ name: 'k', scopes: [], rateLimitPerMinute: 6001 })).body.errors?.[0]).toMatchObject({ field: 'rateLimitPerMinute', code: 'apikeys.rate_limit_above_max' });
  });

  it('uses the by-keyword code for a missing property, and api.malformed_request for a keyword it does not map', async () => {
    expect((await post({ scopes: [] })).body.errors?.[0]).toMatchObject({ field: 'name', code: 'apikeys.name_required' });
    expect((await post({ name: 'x'.repeat(101), scopes: [] })).body.errors?.[0]).toMatchObject({ field: 'name', code: 'api.malformed_request' });
  });

  it('validates query parameters against the document too', async () => {
    const answer = await post({ name: 'k', scopes: [] }, '?state=Gone');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ type: 'tenants.lifecycle.state.invalid', errors: [{ field: 'state' }] });
    expect((await post({ name: 'k', scopes: [] }, '?state=Active')).status).toBe(200);
  });
});

describe('bodies with many invalid fields (issue 10)', () => {
  const postOrder = async (body: unknown, query = '') => {
    const response = await fetch(`${url}/orders${query}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, bytes: text.length, body: JSON.parse(text) as { type?: string; detail?: string; errors?: { field: string; code: string }[] } };
  };
  const badLine = { warehouseId: 'x', productId: 'y', quantity: 0 };
  const intake = (lines: unknown[]) => ({ externalId: 'A', type: 'Delivery', lines });

  it('lists the first 50 field errors of a small body and says how many more there are', async () => {
    // 30 lines of 3 errors each, and one over maxItems (100) is not reached: 90 field errors.
    const answer = await postOrder(intake(Array.from({ length: 30 }, () => badLine)));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveLength(50);
    expect(answer.body.detail).toBe('90 fields are invalid: the first 50 are listed, …and 40 more field errors.');
  });

  it('keeps a body of a few invalid fields listed in full', async () => {
    const answer = await postOrder(intake([badLine]));
    expect(answer.body.errors?.map((e) => e.field)).toEqual(['lines[0].warehouseId', 'lines[0].productId', 'lines[0].quantity']);
    expect(answer.body.detail).toBe('3 fields are invalid.');
  });

  it('answers a 1 MiB body of invalid lines 400 with at most 50 errors and a small body, without a stack overflow', async () => {
    const lines = Array.from({ length: 240_000 }, () => 1);
    expect(JSON.stringify(intake(lines)).length).toBeGreaterThan(480_000);
    const answer = await postOrder(intake(lines));
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.length).toBeGreaterThan(0);
    expect(answer.body.errors?.length).toBeLessThanOrEqual(50);
    expect(answer.body.detail).toMatch(/…and more field errors/);
    expect(answer.bytes).toBeLessThan(20_000);
    const objects = await postOrder(intake(Array.from({ length: 20_000 }, () => badLine)));
    expect(objects.body.errors?.length).toBeLessThanOrEqual(50);
    expect(objects.body.errors?.[0]).toMatchObject({ field: 'lines', code: 'api.malformed_request' });
  });

  it.each(['0x10', '0b11', '0o7', '1e3', 'Infinity', ' 5'])('refuses the integer query parameter %j: decimal integers only', async (limit) => {
    const answer = await postOrder(intake([badLine]), `?limit=${encodeURIComponent(limit)}`);
    expect(answer.body.errors?.[0]).toMatchObject({ field: 'limit', code: 'api.malformed_request' });
  });
});

describe('makeSchemaCheck', () => {
  it('answers the field errors of a value, field names relative to it', () => {
    const check = makeSchemaCheck({ $ref: '#/components/schemas/OrderIntake' }, 'sandbox');
    const line = { warehouseId: '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f', productId: '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d', quantity: 1 };
    expect(check({ externalId: 'A', type: 'Delivery', lines: [line] })).toEqual({ errors: [], total: 0 });
    expect(check({ externalId: 'A', type: 'Delivery', lines: [{ ...line, quantity: 0 }] }).errors.map((e) => [e.field, e.code])).toEqual([['lines[0].quantity', 'orders.line.requestedQty.invalid']]);
    expect(check({ externalId: 'A', type: 'Delivery', lines: [{ ...line, quantity: 1_000_001 }] }).errors[0]?.code).toBe('api.malformed_request');
  });

  it('keeps the integration document the default', () => {
    const check = makeSchemaCheck({ $ref: '#/components/schemas/PaymentRequest' });
    expect(check({ paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 0, currency: 'EUR' }).errors[0]?.code).toBe('payments.amount.invalid');
  });

  it('counts the errors of a value whose arrays are short, and lists those of a long one without counting them all', () => {
    const check = makeSchemaCheck({ $ref: '#/components/schemas/OrderIntake' }, 'sandbox');
    expect(check({ externalId: 'A', type: 'Delivery', lines: Array.from({ length: 40 }, () => 1) })).toMatchObject({ total: 40 });
    const wide = check({ externalId: 'A', type: 'Delivery', lines: Array.from({ length: 40_000 }, () => 1) });
    expect(wide.total).toBeNull();
    expect(wide.errors.length).toBeGreaterThan(0);
    expect(wide.errors.length).toBeLessThanOrEqual(51);
  });
});

describe('makeValidate on a read of the integration API', () => {
  /** Runs the orderFeed validator on a request to `url` with the parsed `query`; answers the input it left, or the error it passed on. */
  function judgeFeed(validate: ReturnType<typeof makeValidate>, url: string, query: Record<string, unknown>, requestId?: string) {
    const res = { locals: {} as { input?: unknown } };
    let error: unknown;
    const get = (name: string) => (name.toLowerCase() === 'x-request-id' ? requestId : undefined);
    const headers = requestId === undefined ? {} : { 'x-request-id': requestId };
    validate({ url, query, params: {}, body: undefined, get, headers } as never, res as never, (failure?: unknown) => (error = failure));
    return { input: res.locals.input, error };
  }

  it('remembers the input of a URL it judged valid, frozen, and judges a new URL or an invalid one every time', () => {
    const validate = makeValidate(operations.get('orderFeed')!);
    const first = judgeFeed(validate, '/api/v1/integration/orders?limit=5', { limit: '5' });
    expect(first).toEqual({ input: { query: { limit: 5 }, params: {}, body: undefined }, error: undefined });
    // The same URL: the same input, the very object remembered.
    const again = judgeFeed(validate, '/api/v1/integration/orders?limit=5', { limit: '5' });
    expect(again.input).toBe(first.input);
    expect(Object.isFrozen((again.input as { query: object }).query)).toBe(true);
    expect(judgeFeed(validate, '/api/v1/integration/orders?limit=7', { limit: '7' }).input).toEqual({ query: { limit: 7 }, params: {}, body: undefined });
    // Its header parameters are part of what is remembered: with an X-Request-Id it is another request, judged anew.
    const withHeader = judgeFeed(validate, '/api/v1/integration/orders?limit=5', { limit: '5' }, 'req-1').input;
    expect(withHeader).toEqual(first.input);
    expect(withHeader).not.toBe(first.input);
    for (let n = 0; n < 2; n++) {
      const refused = judgeFeed(validate, '/api/v1/integration/orders?limit=0x10', { limit: '0x10' });
      expect([refused.input, (refused.error as { type?: string }).type]).toEqual([undefined, 'api.malformed_request']);
    }
  });
});

describe('queryOf', () => {
  let base: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const app = express();
    app.set('query parser', 'simple');
    app.get('/q', (req, res) => {
      const ours = queryOf(req);
      res.json({ express: { ...(req.query as object) }, ours, fresh: ours !== req.query });
    });
    const server = createHttpServer(app);
    base = await listen(server, 0, '127.0.0.1');
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  /** What Express's getter and queryOf read from the raw request target `target`. */
  const read = (target: string) =>
    new Promise<{ express: unknown; ours: unknown; fresh: boolean }>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))));
      socket.on('error', reject);
    });

  it('reads what Express’s simple parser reads, on a fresh object', async () => {
    const targets = [
      '/q', '/q?', '/q?limit=5', '/q?status=New&status=OnHold&status=', '/q?a=%20b+c&%E2%82%AC=%C3%A9', '/q?a==b&&c', '/q?a=%zz',
      '/q?cursor=eyJ.abc_-&limit=50', '/q?a=1#frag', '/q?toString=1&__proto__=x', '/q?a=b%00c',
    ];
    for (const target of targets) {
      const { express: byExpress, ours, fresh } = await read(target);
      expect({ target, ours }).toEqual({ target, ours: byExpress });
      expect(fresh).toBe(true);
    }
  });
});
