/**
 * Property: whatever query, headers and body a client sends to any operation, the answer
 * is never a 5xx, and every error is problem+json with a catalog type (or about:blank).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog, operations, statusesOf } from '../spec/load.ts';
import { memoryStore, type RunningServer, seedTenant, startServer, tinyDataset } from './testing.ts';

let server: RunningServer;
let keys: ReturnType<typeof seedTenant>['keys'];

beforeAll(async () => {
  const store = memoryStore();
  ({ keys } = seedTenant(store, tinyDataset({ orders: 50, trips: 10 })));
  server = await startServer(store, { bodyIdleTimeoutMs: 500 });
});
afterAll(() => server.close());

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', ' ', '%', '%00', '..', '-1', '1e999', 'NaN', 'null', '[]', '{}', 'New', 'Planned', '2026-11-20T09:30:11.482Z'));
const queryName = fc.oneof(fc.constantFrom('since', 'cursor', 'limit', 'status', 'status[]', '__proto__', 'constructor'), fc.string());
const query = fc.array(fc.tuple(queryName, text), { maxLength: 5 });
const json = fc.jsonValue({ maxDepth: 3 });
const body = fc.oneof(
  fc.constant(undefined),
  text,
  json.map((value) => JSON.stringify(value)),
  fc.record({ paymentId: fc.oneof(fc.uuid(), text), amount: fc.oneof(fc.double(), text, fc.integer()), currency: fc.oneof(fc.constantFrom('EUR', 'eur', 'XXX', 'EURO'), text), reason: fc.oneof(text, json) }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
);
const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)), maxLength: 300 });
const headers = fc.record(
  {
    'Content-Type': fc.oneof(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json; charset=latin1', ''), headerValue),
    'Idempotency-Key': headerValue,
    'X-Request-Id': headerValue,
    Authorization: headerValue,
  },
  { requiredKeys: [] },
);
const keyChoice = fc.constantFrom('full', 'ordersRead', 'noScopes', 'none', 'garbage');
const externalId = fc.oneof(fc.constantFrom('EXT-1', 'EXT-2', 'EXT-3', 'missing'), fc.string({ minLength: 1 }).map(encodeURIComponent));

describe('malformed input', () => {
  it('never yields a 5xx, and every error is problem+json with a catalog type', async () => {
    const ops = [...operations.values()];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ops), query, headers, body, keyChoice, externalId, async (op, params, extraHeaders, payload, keyName, id) => {
        const path = op.path.replace('{externalId}', id);
        const search = new URLSearchParams(params).toString();
        const requestHeaders: Record<string, string> = { ...extraHeaders };
        if (keyName === 'garbage') requestHeaders['X-Api-Key'] = 'wbk_AAAAAAAAAAAA_' + 'A'.repeat(32);
        else if (keyName !== 'none') requestHeaders['X-Api-Key'] = keys[keyName as keyof typeof keys];
        const response = await fetch(`${server.url}${path}${search ? `?${search}` : ''}`, {
          method: op.method,
          headers: requestHeaders,
          ...(payload === undefined || op.method === 'GET' ? {} : { body: payload }),
        });
        const answer = await response.text();
        expect(response.status, answer).toBeLessThan(500);
        expect(response.headers.get('x-request-id')).toBeTruthy();
        if (response.status >= 400) {
          expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          const problem = JSON.parse(answer) as { type: string; status: number };
          expect(problem.status).toBe(response.status);
          if (problem.type !== 'about:blank') {
            const entry = catalog.get(problem.type as never);
            expect(entry, problem.type).toBeDefined();
            expect(statusesOf(entry!)).toContain(response.status);
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(server.log.lines.filter((line) => line.includes('failed:'))).toEqual([]);
  }, 120_000);
});
