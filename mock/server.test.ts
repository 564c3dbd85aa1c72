/**
 * `waybill mock`'s answers where Prism alone misleads (issue 39): a request Prism finds invalid
 * gets the problem the sandbox answers to it, naming each field that failed, never the 400
 * example that blames `amount`; `Prefer: code=404` on a write is honoured for a valid request
 * and refused in words for an invalid one; a feed page holds at most `limit` items; every
 * problem is titled as the sandbox titles it (D89). One mock and one sandbox serve the whole file.
 */
import { STATUS_CODES } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogEntry, type Json, openapi, operations, resolveRef } from '../spec/load.ts';
import { timedStart } from '../dev/testing/start-times.ts';
import { memoryStore, type RunningServer, seedTenant, startServer } from '../dev/testing/sandbox.ts';
import { type RunningMock, startMock } from './server.ts';

const API = '/api/v1/integration';
const PAYMENT = `${API}/orders/externalid/SHOP-404404/payment`;
const VALID_PAYMENT = JSON.stringify({ paymentId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', amount: 12.5, currency: 'EUR' });

let mock: RunningMock;
let sandbox: RunningServer;
let sandboxKey: string;

beforeAll(async () => {
  [mock, sandbox] = await Promise.all([timedStart('prism', () => startMock({ dynamic: false, verbose: false })), memoryStore().then((store) => startServer(store))]);
  sandboxKey = (await seedTenant(sandbox.store)).keys.full;
}, 90_000);
afterAll(async () => {
  await mock?.stop();
  await sandbox?.close();
});

/** A POST of `body` (as given, `undefined` for none) to `path` of `base`, with `headers`: its status and parsed body. */
async function post(base: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<{ status: number; type: string | null; problem: Record<string, unknown> }> {
  const answer = await fetch(`${base}${path}`, { method: 'POST', headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers }, ...(body === undefined ? {} : { body }) });
  return { status: answer.status, type: answer.headers.get('content-type'), problem: (await answer.json()) as Record<string, unknown> };
}

/** What a problem says, without the part that names the request (instance): its title is the catalog's in both (D89). */
const said = ({ type, title, status, detail, errors }: Record<string, unknown>) => ({ type, title, status, detail, errors });

describe('a request Prism finds invalid', () => {
  it.each([
    ['a paymentId that is no uuid, an amount that is text, no currency', '{"paymentId":"p1","amount":"abc"}'],
    ['no paymentId, no currency', '{"amount":10}'],
    ['a currency of four letters', '{"paymentId":"3fa85f64-5717-4562-b3fc-2c963f66afa6","amount":1,"currency":"EURO"}'],
    ['an amount of zero', '{"paymentId":"3fa85f64-5717-4562-b3fc-2c963f66afa6","amount":0,"currency":"EUR"}'],
    ['a body that is an array', '[1]'],
    ['a body that is not JSON', '{"amount":'],
    ['a JSON body that is empty', ''],
  ])('%s: the problem the sandbox answers, naming the real fields', async (_name, body) => {
    const fromMock = await post(mock.url, PAYMENT, body, { 'X-Api-Key': 'any' });
    const fromSandbox = await post(sandbox.url, PAYMENT, body, { 'X-Api-Key': sandboxKey });
    expect(fromSandbox.status).toBe(400);
    expect(fromMock.status).toBe(400);
    expect(fromMock.type).toBe('application/problem+json');
    expect(said(fromMock.problem)).toEqual(said(fromSandbox.problem));
  });

  it('names a query parameter as the sandbox does', async () => {
    const path = `${API}/orders?limit=0&status=Bogus`;
    const [fromMock, fromSandbox] = await Promise.all([
      fetch(`${mock.url}${path}`, { headers: { 'X-Api-Key': 'any' } }),
      fetch(`${sandbox.url}${path}`, { headers: { 'X-Api-Key': sandboxKey } }),
    ]);
    const [mockProblem, sandboxProblem] = [(await fromMock.json()) as { errors: unknown[] }, (await fromSandbox.json()) as { errors: unknown[] }];
    expect(fromMock.status).toBe(400);
    expect(mockProblem.errors).toEqual([
      { field: 'limit', code: 'api.malformed_request', value: '0', message: 'limit must be >= 1' },
      { field: 'status', code: 'api.malformed_request', value: 'Bogus', message: expect.stringMatching(/^status must be equal to one of the allowed values/) },
    ]);
    expect(mockProblem.errors.map((error) => (error as { field: string }).field)).toEqual(sandboxProblem.errors.map((error) => (error as { field: string }).field));
  });

  it('answers a valid write as Prism does: the example', async () => {
    const { status, problem } = await post(mock.url, PAYMENT, VALID_PAYMENT, { 'X-Api-Key': 'any' });
    expect(status).toBe(200);
    expect(problem['externalId']).toBe('SHOP-100245');
  });
});

describe('Prefer: code=404 on a write', () => {
  it.each([
    ['payment', PAYMENT, VALID_PAYMENT],
    ['cancel', `${API}/orders/externalid/SHOP-404404/cancel`, '{}'],
  ])('is honoured for a valid %s: 404 orders.notFound', async (_name, path, body) => {
    const { status, problem } = await post(mock.url, path, body, { 'X-Api-Key': 'any', Prefer: 'code=404' });
    expect(status).toBe(404);
    expect(problem['type']).toBe('orders.notFound');
  });

  it('is honoured for an archive (DELETE)', async () => {
    const answer = await fetch(`${mock.url}${API}/orders/externalid/SHOP-404404`, { method: 'DELETE', headers: { 'X-Api-Key': 'any', Prefer: 'code=404' } });
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { type: string }).type).toBe('orders.notFound');
  });

  it.each([
    ['a body missing its fields', '{}', /^3 fields are invalid\. /],
    ['no body at all', undefined, /^A JSON body is required\. /],
  ])('is refused in words for %s: the 400 says why it is not a 404', async (_name, body, detail) => {
    const { status, problem } = await post(mock.url, PAYMENT, body, { 'X-Api-Key': 'any', Prefer: 'code=404' });
    expect(status).toBe(400);
    expect(problem['detail']).toMatch(detail);
    expect(problem['detail']).toContain('Prefer: code=404 is not honoured: the mock answers a chosen status only to a request the contract accepts');
  });
});

describe('the feed examples', () => {
  it('hold at most `limit` items, with a nextCursor for what was left out', async () => {
    const whole = (await (await fetch(`${mock.url}${API}/orders`, { headers: { 'X-Api-Key': 'any' } })).json()) as { items: { id: string }[] };
    expect(whole.items.length).toBeGreaterThan(1);
    const one = (await (await fetch(`${mock.url}${API}/orders?limit=1`, { headers: { 'X-Api-Key': 'any' } })).json()) as { items: { id: string }[]; nextCursor: string | null };
    expect(one.items).toEqual(whole.items.slice(0, 1));
    expect(one.nextCursor).not.toBeNull();
  });
});

/** The names of the problem examples the contract gives `operationId`'s answer `status`. */
function problemExamples(operationId: string, status: string): string[] {
  const { path, method } = operations.get(operationId)!;
  const declared = ((openapi['paths'] as Record<string, Record<string, { responses: Record<string, Json> }>>)[path]![method.toLowerCase()]!.responses[status])!;
  const examples = resolveRef<{ content?: Record<string, { examples?: Record<string, Json> }> }>(declared).content?.['application/problem+json']?.examples;
  return Object.keys(examples ?? {});
}

describe('problem titles (D89)', () => {
  /** The title the sandbox gives a problem of `type` at `status`. */
  const titleOf = (type: string, status: number) => (type === 'about:blank' ? STATUS_CODES[status] : catalogEntry(type).title);
  const bodies: Record<string, string | undefined> = { attachPayment: VALID_PAYMENT, cancelOrder: '{}' };

  it('are the catalog title of the type, or the status phrase for about:blank, in every problem example the mock serves, drawn or as written', async () => {
    const answered: string[] = [];
    for (const operation of operations.values()) {
      const path = operation.path.replace('{externalId}', 'SHOP-404404');
      for (const status of Object.keys(operation.responses).filter((code) => Number(code) >= 400)) {
        for (const prefer of [...problemExamples(operation.operationId, status).map((name) => `code=${status}, example=${name}`), `code=${status}, dynamic=true`]) {
          const body = bodies[operation.operationId];
          const answer = await fetch(`${mock.url}${path}`, { method: operation.method, headers: { 'X-Api-Key': 'any', Prefer: prefer, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) }, ...(body === undefined ? {} : { body }) });
          const problem = (await answer.json()) as { type: string; title: string };
          expect([answer.status, problem.title], `${operation.operationId} ${prefer}`).toEqual([Number(status), titleOf(problem.type, answer.status)]);
          answered.push(`${operation.operationId} ${status}`);
        }
      }
    }
    expect(answered.length).toBeGreaterThan(40);
  });

  it.each([
    ['a payment Prism finds invalid', 'POST', `${API}/orders/externalid/SHOP-404404/payment`, '{"amount":0}', 400, 'api.malformed_request'],
    ['malformed JSON', 'POST', `${API}/orders/externalid/SHOP-404404/payment`, '{"amount":', 400, 'api.malformed_request'],
    ['a path with no operation (Prism: NO_PATH_MATCHED_ERROR)', 'GET', `${API}/nothing-here`, undefined, 404, 'about:blank'],
    ['a method the path does not have (Prism: NO_METHOD_MATCHED_ERROR)', 'PUT', `${API}/orders`, undefined, 405, 'about:blank'],
  ])('are the sandbox\'s for %s', async (_what, method, path, body, status, type) => {
    const answer = await fetch(`${mock.url}${path}`, { method, headers: { 'X-Api-Key': 'any', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) }, ...(body === undefined ? {} : { body }) });
    const problem = (await answer.json()) as { type: string; title: string };
    expect([answer.status, answer.headers.get('content-type'), problem.type, problem.title]).toEqual([status, 'application/problem+json', type, titleOf(type, status)]);
    if (status === 405) expect(answer.headers.get('allow')).toBe('GET');
  });
});
