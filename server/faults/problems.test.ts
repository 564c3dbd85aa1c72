/**
 * Every listed problem on demand (D95): `Prefer: problem=<code>` and `problem` fault rules force
 * each code of each operation's `x-error-codes`, answered as the contract declares for the
 * operation and as the catalog gives the code, and as the sandbox answers it for real; a code
 * the operation cannot answer is refused naming `Prefer` (or `problem`), with the codes it can.
 * Prints the table of operation × forced code × answer status.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogEntry, type OperationSpec, operations, resolveRef } from '../../spec/load.ts';
import { call, type Answer } from '../../dev/testing/sandbox.ts';
import { faultSandbox, payment, paymentPath, WHOAMI } from '../../dev/testing/fault-sandbox.ts';

const { server, a, api, rule, rulesOf, paymentsOf, settleLog } = faultSandbox();

/** A request of `operation` that it would answer 2xx without a fault: a live order of tenant A, a valid body. */
function requestOf(operation: OperationSpec, n: number): { path: string; method: string; json?: unknown } {
  const paged = operation.parameters.some((parameter) => parameter.name === 'limit');
  const path = operation.path.replace('{externalId}', `EXT-${n}`) + (paged ? '?limit=5' : '');
  if (operation.requestBody === null) return { path, method: operation.method };
  return { path, method: operation.method, json: operation.operationId === 'attachPayment' ? payment(n) : { reason: 'forced' } };
}

/** Calls `operation` with `headers`, the answer held to the contract (`call`: declared status, body valid, catalog problem). */
function force(operation: OperationSpec, headers: Record<string, string>, n = 1): Promise<Answer> {
  const request = requestOf(operation, n);
  return call(server.url, operation.operationId, request.path, { method: request.method, key: a.keys.full, headers, ...(request.json === undefined ? {} : { json: request.json }) });
}

const table: { operation: string; code: string; status: number }[] = [];
afterAll(() => {
  const width = Math.max(...table.map((row) => row.code.length));
  const lines = table.map((row) => `${row.operation.padEnd(14)} ${row.code.padEnd(width)} ${row.status}`);
  console.log(`operation × forced code × answer status (D95), ${table.length} rows\n${['operation'.padEnd(14), 'code'.padEnd(width), 'status'].join(' ')}\n${lines.join('\n')}`);
});

const everyCode = [...operations.values()].flatMap((operation) => operation.errorCodes.map((code) => [operation.operationId, code] as const));

describe('Prefer: problem=<code> forces each code each operation lists', () => {
  it.each(everyCode)('%s: Prefer: problem=%s', async (operationId, code) => {
    const operation = operations.get(operationId)!;
    const entry = catalogEntry(code);
    const answer = await force(operation, { Prefer: `problem=${code}` });
    table.push({ operation: operationId, code, status: answer.status });
    expect(answer.status).toBe(entry.status);
    expect(answer.body).toMatchObject({ type: code, title: entry.title, status: entry.status });
    expect(answer.body.detail).toEqual(expect.any(String));
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(answer.headers.get(name), name).toMatch(/^\d+$/);
    expect(answer.headers.get('retry-after')).toBe(entry.status === 429 ? '1' : null);
    for (const [name, header] of Object.entries(operation.responses[String(entry.status)]!.headers)) {
      if (header.required) expect(answer.headers.get(name), name).not.toBeNull();
    }
    if (entry.status === 400 && operationId !== 'whoami') {
      // A field error like the real one: the code it stands for, on a field the operation reads.
      const fields = [...operation.parameters.map((parameter) => parameter.name), ...Object.keys(resolveRef<{ properties?: object }>(operation.requestBody?.content['application/json'] ?? {}).properties ?? {})];
      expect(answer.body.errors).toHaveLength(1);
      expect(answer.body.errors[0].code).toBe(code);
      expect(fields).toContain(answer.body.errors[0].field);
    }
  });

  it('covers the 12 codes the integration API can answer, each on every operation that lists it', () => {
    expect(new Set(everyCode.map(([, code]) => code)).size).toBe(12);
    expect(new Set(everyCode.map(([operationId]) => operationId))).toEqual(new Set(operations.keys()));
  });
});

describe('a forced problem is the one the sandbox answers for real', () => {
  /** The members of a problem that do not name its occurrence (`instance` holds the request id). */
  const comparable = ({ instance: _instance, ...rest }: Record<string, unknown>) => rest;
  const operation = (id: string) => operations.get(id)!;

  it.each([
    ['orderFeed', 'api.malformed_request', '/api/v1/integration/orders?cursor=bogus', {}],
    ['attachPayment', 'api.malformed_request', paymentPath('EXT-1'), { json: { paymentId: true, amount: 129.9, currency: 'EUR' } }],
    ['attachPayment', 'payments.amount.invalid', paymentPath('EXT-1'), { json: { paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 0, currency: 'EUR' } }],
    ['attachPayment', 'payments.currency.invalid', paymentPath('EXT-1'), { json: { paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 129.9, currency: 'eur' } }],
    ['attachPayment', 'api.unsupported_media_type', paymentPath('EXT-1'), { body: 'amount=5', headers: { 'Content-Type': 'text/plain' } }],
    ['cancelOrder', 'api.malformed_request', '/api/v1/integration/orders/externalid/EXT-1/cancel', { json: { reason: true } }],
    ['cancelOrder', 'orders.notFound', '/api/v1/integration/orders/externalid/NO-SUCH-1/cancel', { json: {} }],
  ] as const)('%s %s', async (operationId, code, path, init: { json?: unknown; body?: string; headers?: Record<string, string> }) => {
    const method = operation(operationId).method;
    const real = await call(server.url, operationId, path, { method, key: a.keys.full, ...init });
    expect(real.body.type).toBe(code);
    const forced = await call(server.url, operationId, path, {
      method,
      key: a.keys.full,
      headers: { Prefer: `problem=${code}` },
      ...(operation(operationId).requestBody === null ? {} : { json: operationId === 'attachPayment' ? payment(1) : {} }),
    });
    expect(comparable(forced.body)).toEqual(comparable(real.body));
  });

  it('cancelOrder and archiveOrder orders.status.illegal, as for an order in progress', async () => {
    const feed = await call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=100&status=InProgress', { key: a.keys.full });
    const externalId = feed.body.items[0].externalId as string;
    for (const [operationId, path] of [['cancelOrder', `/api/v1/integration/orders/externalid/${externalId}/cancel`], ['archiveOrder', `/api/v1/integration/orders/externalid/${externalId}`]] as const) {
      const method = operation(operationId).method;
      const real = await call(server.url, operationId, path, { method, key: a.keys.full, ...(method === 'POST' ? { json: {} } : {}) });
      const forced = await call(server.url, operationId, '/api/v1/integration/orders/externalid/EXT-2' + (method === 'POST' ? '/cancel' : ''), { method, key: a.keys.full, headers: { Prefer: 'problem=orders.status.illegal' }, ...(method === 'POST' ? { json: {} } : {}) });
      expect(real.status).toBe(409);
      expect(comparable(forced.body)).toEqual(comparable(real.body));
    }
  });

  it('archiveOrder api.malformed_request names the Idempotency-Key, as a key of the wrong shape gets', async () => {
    const path = '/api/v1/integration/orders/externalid/EXT-3';
    const real = await call(server.url, 'archiveOrder', path, { method: 'DELETE', key: a.keys.full, headers: { 'Idempotency-Key': 'two words' } });
    const forced = await call(server.url, 'archiveOrder', path, { method: 'DELETE', key: a.keys.full, headers: { Prefer: 'problem=api.malformed_request' } });
    expect(forced.body.errors).toEqual([{ ...real.body.errors[0], value: null }]);
  });

  it('nothing is written, and nothing is stored for the Idempotency-Key: the same request without Prefer runs', async () => {
    const headers = { 'Idempotency-Key': 'forced-problem-1' };
    const forced = await call(server.url, 'attachPayment', paymentPath('EXT-11'), { method: 'POST', key: a.keys.full, json: payment(11), headers: { ...headers, Prefer: 'problem=orders.notFound' } });
    expect(forced.status).toBe(404);
    expect(await paymentsOf('EXT-11')).toHaveLength(0);
    const real = await call(server.url, 'attachPayment', paymentPath('EXT-11'), { method: 'POST', key: a.keys.full, json: payment(11), headers });
    expect(real.status).toBe(200);
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    expect(await paymentsOf('EXT-11')).toHaveLength(1);
  });

  it('a wait and a problem together: latency=50 first, then the problem', async () => {
    const start = performance.now();
    const answer = await force(operation('tripFeed'), { Prefer: 'latency=50, problem=api.rate_limited' });
    expect(performance.now() - start).toBeGreaterThanOrEqual(45);
    expect(answer.status).toBe(429);
  });
});

describe('a problem the operation cannot answer', () => {
  it.each([
    ['orderFeed', 'problem=orders.notFound', 'orderFeed cannot answer orders.notFound; it answers api.malformed_request, api.rate_limited.'],
    ['archiveOrder', 'problem=payments.amount.invalid', 'archiveOrder cannot answer payments.amount.invalid; it answers api.malformed_request, api.rate_limited, idempotency.inFlight, orders.notFound, orders.status.illegal, tenants.tenant.suspended, tenants.tenant.archived.'],
    ['attachPayment', 'problem=no.such.code', 'attachPayment cannot answer no.such.code; it answers'],
    ['tripFeed', 'problem', 'tripFeed cannot answer an empty code'],
  ])('%s: Prefer: %s is 400 naming Prefer, with the codes it can answer', async (operationId, value, message) => {
    const answer = await force(operations.get(operationId)!, { Prefer: value });
    expect(answer.status).toBe(400);
    expect(answer.body.type).toBe('api.malformed_request');
    expect(answer.body.errors).toEqual([{ field: 'Prefer', code: 'api.malformed_request', value, message: expect.stringContaining(message) }]);
  });

  it.each([
    ['cancelOrder', 'problem=orders.notFound; when=after', 'nothing written'],
    ['orderFeed', 'problem=api.rate_limited; when=before', 'read'],
    ['cancelOrder', 'fault=503, problem=orders.notFound', 'one of them'],
  ])('%s: Prefer: %s is 400 naming Prefer', async (operationId, value, said) => {
    const answer = await force(operations.get(operationId)!, { Prefer: value });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ field: 'Prefer', message: expect.stringContaining(said) });
  });

  it('whoami, which reads no input of its own, ignores a problem it cannot answer (D51), and answers those it lists', async () => {
    expect((await call(server.url, 'whoami', WHOAMI, { key: a.keys.full, headers: { Prefer: 'problem=orders.notFound' } })).status).toBe(200);
    expect((await call(server.url, 'whoami', WHOAMI, { key: a.keys.full, headers: { Prefer: 'problem=api.rate_limited' } })).status).toBe(429);
  });

  it('a rule with a problem its operation does not list names problem, with the codes it can answer', async () => {
    const answer = await api('createFault', `/tenants/${a.tenantId}/faults`, { json: { operation: 'orderFeed', fault: 'problem', problem: 'orders.notFound' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'problem', code: 'api.malformed_request', value: 'orders.notFound', message: 'orderFeed cannot answer orders.notFound; it answers api.malformed_request, api.rate_limited.' }]);
  });
});

describe('problem fault rules', () => {
  const cancel = (key: string, n: number) => call(server.url, 'cancelOrder', `/api/v1/integration/orders/externalid/EXT-${n}/cancel`, { method: 'POST', key, json: {} });

  it('fire on the next `times` calls of one key, answered as Prefer answers them, and the request log marks them', async () => {
    const keyId = (await call(server.url, 'whoami', WHOAMI, { key: a.keys.ordersWrite })).body.keyId;
    const { id } = await rule(a, { operation: 'cancelOrder', keyId, fault: 'problem', problem: 'tenants.tenant.suspended', times: 2 });
    const other = await cancel(a.keys.full, 404);
    expect(other.status).toBe(404);
    const first = await cancel(a.keys.ordersWrite, 9);
    const second = await cancel(a.keys.ordersWrite, 10);
    for (const answer of [first, second]) expect(answer.body).toMatchObject({ type: 'tenants.tenant.suspended', title: catalogEntry('tenants.tenant.suspended').title, status: 409 });
    expect((await rulesOf(a))[0]).toMatchObject({ id, problem: 'tenants.tenant.suspended', matched: 2, fired: 2, remaining: 0 });
    expect((await cancel(a.keys.ordersWrite, 9)).status).toBe(200);
    await settleLog();
    const entries = (await api('listRequests', `/tenants/${a.tenantId}/requests?limit=10`)).body.items as { requestId: string; status: number; problemType: string; fault: unknown }[];
    expect(entries.find((entry) => entry.requestId === first.headers.get('x-request-id'))).toMatchObject({
      status: 409,
      problemType: 'tenants.tenant.suspended',
      fault: { fault: 'problem', source: 'rule', ruleId: id, when: 'before' },
    });
  });

  it('fire with a seeded probability, a 429 with the rule\'s Retry-After', async () => {
    await rule(a, { operation: 'tripFeed', fault: 'problem', problem: 'api.rate_limited', probability: 1, seed: 5, retryAfterSeconds: 7 });
    const answer = await force(operations.get('tripFeed')!, {});
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.body.detail).toMatch(/ retry after 7 s\.$/);
  });

  it('a Prefer replaces them for that call', async () => {
    await rule(a, { operation: 'orderFeed', fault: 'problem', problem: 'api.rate_limited' });
    expect((await force(operations.get('orderFeed')!, { Prefer: 'problem=api.malformed_request' })).status).toBe(400);
    expect((await rulesOf(a))[0]).toMatchObject({ matched: 0, remaining: 1 });
  });
});
