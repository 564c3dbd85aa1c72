import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationSpec } from '../../spec/load.ts';
import { createHttpServer, listen } from '../http-server.ts';
import { memoryLogger } from '../log.ts';
import { makeErrorHandler } from './error-handler.ts';
import { makeSchemaCheck, makeValidate } from './validate.ts';

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

let url: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(express.json());
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

describe('makeSchemaCheck', () => {
  it('answers the field errors of a value, field names relative to it', () => {
    const check = makeSchemaCheck({ $ref: '#/components/schemas/OrderIntake' }, 'sandbox');
    const line = { warehouseId: '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f', productId: '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d', quantity: 1 };
    expect(check({ externalId: 'A', type: 'Delivery', lines: [line] })).toEqual([]);
    expect(check({ externalId: 'A', type: 'Delivery', lines: [{ ...line, quantity: 0 }] }).map((e) => [e.field, e.code])).toEqual([['lines[0].quantity', 'orders.line.requestedQty.invalid']]);
    expect(check({ externalId: 'A', type: 'Delivery', lines: [{ ...line, quantity: 1_000_001 }] })[0]?.code).toBe('api.malformed_request');
  });

  it('keeps the integration document the default', () => {
    const check = makeSchemaCheck({ $ref: '#/components/schemas/PaymentRequest' });
    expect(check({ paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 0, currency: 'EUR' })[0]?.code).toBe('payments.amount.invalid');
  });
});
