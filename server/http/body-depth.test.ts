/**
 * Any nesting depth, a clear 400 (D58): a body nested deeper than 64 levels, in a member or
 * as a whole, is answered 400 api.malformed_request naming the member, by every operation
 * that takes a body in both documents, never a 5xx; and at the limit the schema judges it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../spec/load.ts';
import { MAX_JSON_DEPTH } from './json-depth.ts';
import { sandboxOperations } from '../control-plane/routes.ts';
import { call, callSandbox, memoryStore, type RunningServer, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let key: string;
let tenantId: string;

beforeAll(async () => {
  const store = await memoryStore();
  ({ tenantId, keys: { full: key } } = await seedTenant(store, tinyDataset({ orders: 2 }), { rateLimit: 6000 }));
  server = await startServer(store, { adminToken: TEST_ADMIN_TOKEN });
});
afterAll(() => server.close());

const ID = '00000000-0000-4000-8000-000000000001';
/** An operation's path with every parameter filled: the tenant's id, else a made-up one. */
const filled = (path: string) => path.replace('{tenantId}', tenantId).replace('{externalId}', 'EXT-0').replace(/\{[^}]+\}/g, ID);
const arrays = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const withBody = [
  ...[...operations.values()].filter((op) => op.requestBody !== null).map((op) => ({ document: 'integration' as const, op })),
  ...sandboxOperations.filter((op) => op.requestBody !== null).map((op) => ({ document: 'sandbox' as const, op })),
];

/** Sends `body` to the operation, its answer checked against its document's declaration. */
function send(document: 'integration' | 'sandbox', op: { operationId: string; path: string; method: string }, body: string) {
  const init = { method: op.method, body, headers: { 'Content-Type': 'application/json' } };
  return document === 'integration' ? call(server.url, op.operationId, filled(op.path), { ...init, key }) : callSandbox(server.url, op.operationId, filled(op.path), init);
}

describe('a body nested deeper than 64 levels (D58)', () => {
  it.each(withBody.map(({ document, op }) => [`${document} ${op.operationId}`, document, op] as const))('%s answers 400 api.malformed_request naming the member', async (_, document, op) => {
    for (const [member, value] of [['skills', arrays(10_000)], ['amount', arrays(10_000, '{}')], ['a', objects(10_000)]] as const) {
      const answer = await send(document, op, `{"${member}":${value}}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'api.malformed_request', errors: [{ field: member, code: 'api.malformed_request' }] });
      expect(answer.body.detail).toBe(`${member} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`);
    }
    const whole = await send(document, op, arrays(10_000));
    expect(whole.status).toBe(400);
    expect(whole.body).toMatchObject({ type: 'api.malformed_request', detail: `The body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.` });
  });

  it('refuses a megabyte of nesting without parsing it, and leaves a body at the limit to the schema', async () => {
    const payment = operations.get('attachPayment')!;
    const megabyte = await send('integration', payment, arrays(512 * 1024 - 1));
    expect(megabyte.body.type).toBe('api.malformed_request');
    const atLimit = await send('integration', payment, `{"paymentId":"${ID}","currency":"EUR","amount":${arrays(MAX_JSON_DEPTH - 1)}}`);
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.errors[0]).toMatchObject({ field: 'amount', code: 'payments.amount.invalid' });
    expect(server.log.lines.filter((line) => / failed:/.test(line))).toEqual([]);
  });
});
