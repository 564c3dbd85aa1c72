import { afterEach, describe, expect, it } from 'vitest';
import { integrationContract } from '../contract.ts';
import { runSuite } from '../runner.ts';
import { answer, conformingHandler, type FakeHandler, type FakeTarget, startFakeTarget, testKeys, testProfile, testScopes } from '../testing/fake-target.ts';
import type { Check, HttpRequest, RunReport } from '../types.ts';
import { discoveryChecks } from './discovery.ts';
import { problemsChecks } from './problems.ts';

// The fake target implements whoami only: run the families these tests are about.
const checks = [...discoveryChecks, ...problemsChecks];

/** A check that only makes requests, so the run-level checks have failures to look at. */
function probe(requests: HttpRequest[]): Check {
  return {
    id: 'probe.requests',
    family: 'probe',
    title: 'makes requests',
    verifies: ['int.service.json'],
    requires: [],
    async run(ctx) {
      for (const request of requests) await ctx.http.request(request);
    },
  };
}

const unknownRoute: HttpRequest = { method: 'GET', path: '/api/v1/integration/nope' };
const unknownOrder: HttpRequest = { method: 'POST', path: '/api/v1/integration/orders/externalid/missing-1/payment', body: { paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 1, currency: 'EUR' } };

let target: FakeTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

/** Runs the registry (and `extra` checks) against `handler`. */
async function runAgainst(handler: FakeHandler, extra: Check[] = []): Promise<RunReport> {
  target = await startFakeTarget(handler);
  return runSuite({ checks: [...extra, ...checks], profile: testProfile(), target: target.url, contract: integrationContract, seed: 1, timeoutMs: 3000 });
}

function resultOf(report: RunReport, id: string) {
  const result = report.results.find((r) => r.id === id);
  if (result === undefined) throw new Error(`no result for ${id}`);
  return result;
}

/** A handler that answers `path` (and method) its own way and leaves the rest to the conforming one. */
function breaking(method: string, path: string, override: FakeHandler, scopes = testScopes): FakeHandler {
  const base = conformingHandler(scopes);
  return (request, response) => (request.method === method && request.url.split('?')[0] === path ? override(request, response) : base(request, response));
}

describe('discovery and problems against a conforming target', () => {
  it('passes every check', async () => {
    const report = await runAgainst(conformingHandler(), [probe([unknownRoute, unknownOrder])]);
    expect(report.results.map((result) => [result.id, result.outcome])).toEqual([
      ['probe.requests', 'pass'],
      ['discovery.whoami.shape', 'pass'],
      ['discovery.whoami.scopes', 'pass'],
      ['discovery.responses.schema', 'pass'],
      ['problems.catalog', 'pass'],
    ]);
    expect(resultOf(report, 'discovery.whoami.scopes').exchangeCount).toBe(4);
    expect(report.exitCode).toBe(0);
  });

  it('skips problems.catalog when the run saw no failure, rather than passing it', async () => {
    const report = await runAgainst(conformingHandler());
    expect(resultOf(report, 'problems.catalog')).toMatchObject({ outcome: 'skip', reason: 'no answer outside 2xx was recorded in this run' });
  });

  it('checks only the keys the profile has', async () => {
    target = await startFakeTarget(conformingHandler());
    const report = await runSuite({ checks, profile: { keys: { full: testKeys.full } }, target: target.url, contract: integrationContract, only: ['discovery.whoami.scopes'] });
    expect(resultOf(report, 'discovery.whoami.scopes')).toMatchObject({ outcome: 'pass', exchangeCount: 1 });
  });
});

describe('discovery against broken targets', () => {
  it('fails whoami.scopes when a key reports scopes its name excludes', async () => {
    const scopes = { ...testScopes, [testKeys.ordersRead]: ['orders:read', 'trips:read'], [testKeys.noScopes]: ['orders:read'], [testKeys.full]: ['orders:read', 'trips:read'] };
    const report = await runAgainst(conformingHandler(scopes));
    const result = resultOf(report, 'discovery.whoami.scopes');
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((finding) => finding.message)).toEqual([
      'the full key lacks scopes its name implies',
      'the ordersRead key carries scopes its name excludes',
      'the noScopes key carries scopes',
    ]);
    expect(result.findings[1]).toMatchObject({ expected: 'scopes without trips:read', received: '["orders:read","trips:read"]' });
    expect(result.findings[1]?.exchange?.request.headers['x-api-key']).toBe('<redacted:ordersRead>');
    expect(resultOf(report, 'discovery.whoami.shape').outcome).toBe('pass');
    expect(report.exitCode).toBe(1);
  });

  it('fails whoami.shape and responses.schema for a 200 without keyId', async () => {
    const report = await runAgainst(breaking('GET', '/api/v1/integration/whoami', (_request, response) => answer(response, 200, { tenantId: 't', scopes: ['orders:read'] })));
    const shape = resultOf(report, 'discovery.whoami.shape');
    expect(shape.outcome).toBe('fail');
    expect(shape.findings[0]?.received).toContain("must have required property 'keyId'");
    const schema = resultOf(report, 'discovery.responses.schema');
    expect(schema.outcome).toBe('fail');
    expect(schema.findings[0]).toMatchObject({ expected: 'a body valid against KeyIdentity', received: expect.stringContaining("/ must have required property 'keyId'") });
    expect(schema.findings[0]?.message).toMatch(/^GET \/api\/v1\/integration\/whoami → 200 \(exchange #\d+\): the body does not match KeyIdentity$/);
  });

  it('fails whoami.shape and whoami.scopes when scopes is not an array of strings, or the key is refused', async () => {
    const report = await runAgainst(
      breaking('GET', '/api/v1/integration/whoami', (request, response) =>
        request.headers['x-api-key'] === testKeys.full ? answer(response, 200, { tenantId: 't', keyId: 'k', scopes: 'orders:read orders:write trips:read' }) : answer(response, 401, { type: 'about:blank', title: 'Unauthorized', status: 401 }),
      ),
    );
    expect(resultOf(report, 'discovery.whoami.shape').findings[0]?.received).toContain('/scopes must be array');
    const scopes = resultOf(report, 'discovery.whoami.scopes').findings;
    expect(scopes.map((finding) => finding.message)).toEqual([
      'whoami with the full key: scopes is not an array of strings',
      expect.stringMatching(/^whoami with the ordersRead key: GET \/api\/v1\/integration\/whoami → 401/),
      expect.stringMatching(/^whoami with the tripsRead key: /),
      expect.stringMatching(/^whoami with the noScopes key: /),
    ]);
  });

  it('fails responses.schema for a missing X-Request-Id, a wrong media type and an undeclared status', async () => {
    const report = await runAgainst(
      (request, response) => {
        if (request.url.startsWith('/api/v1/integration/orders/externalid/')) {
          response.writeHead(418, { 'content-type': 'application/problem+json', 'x-request-id': 'r' });
          return void response.end(JSON.stringify({ type: 'about:blank', title: 'teapot', status: 418 }));
        }
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(JSON.stringify({ tenantId: 't', keyId: 'k', scopes: testScopes[String(request.headers['x-api-key'])] }));
      },
      [probe([unknownOrder])],
    );
    const messages = resultOf(report, 'discovery.responses.schema').findings.map((finding) => `${finding.message} | ${finding.expected} | ${finding.received}`);
    expect(messages).toContainEqual(expect.stringMatching(/whoami → 200 .*: required header X-Request-Id missing \| a X-Request-Id header \| no such header/));
    expect(messages).toContainEqual(expect.stringMatching(/whoami → 200 .*: wrong Content-Type \| application\/json \| text\/plain/));
    expect(messages).toContainEqual(expect.stringMatching(/payment → 418 .*: status not declared for attachPayment \| one of 200, 400, 401, 403, 404, 408, 409, 413, 415, 429, 500 \| 418/));
  });

  it('fails responses.schema for a header that breaks its schema', async () => {
    const report = await runAgainst(
      breaking('DELETE', '/api/v1/integration/orders/externalid/ext-1', (_request, response) => {
        response.writeHead(204, { 'x-request-id': 'r', 'ratelimit-remaining': '-3' });
        response.end();
      }),
      [probe([{ method: 'DELETE', path: '/api/v1/integration/orders/externalid/ext-1' }])],
    );
    const findings = resultOf(report, 'discovery.responses.schema').findings;
    expect(findings.map((finding) => [finding.message, finding.received])).toEqual([
      [expect.stringMatching(/^DELETE \/api\/v1\/integration\/orders\/externalid\/ext-1 → 204 \(exchange #\d+\): header RateLimit-Remaining does not match its schema$/), 'RateLimit-Remaining: -3 (/ must be >= 0)'],
    ]);
  });
});

describe('problems.catalog against broken targets', () => {
  const problemAt = (status: number, body: unknown, contentType = 'application/problem+json'): FakeHandler =>
    breaking('POST', '/api/v1/integration/orders/externalid/missing-1/payment', (_request, response) => answer(response, status, body, contentType));
  const notFound = { type: 'orders.notFound', title: 'Order not found', status: 404, detail: null, instance: null };

  it('fails a 404 orders.notFound whose status member says 409', async () => {
    const report = await runAgainst(problemAt(404, { ...notFound, status: 409 }), [probe([unknownOrder])]);
    const result = resultOf(report, 'problems.catalog');
    expect(result.outcome).toBe('fail');
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]).toMatchObject({ expected: 'status: 404', received: 'status: 409' });
  });

  it('fails orders.notFound answered with HTTP 409', async () => {
    const report = await runAgainst(problemAt(409, { ...notFound, status: 409 }), [probe([unknownOrder])]);
    expect(resultOf(report, 'problems.catalog').findings[0]).toMatchObject({ expected: expect.stringContaining('HTTP 404'), received: 'HTTP 409' });
  });

  it.each([
    ['a failure served as JSON, not problem+json', problemAt(404, notFound, 'application/json'), 'Content-Type: application/problem+json'],
    ['a type outside the catalog', problemAt(404, { ...notFound, type: 'order_not_found' }), 'type: a code of spec/errors.yaml, or about:blank'],
    ['about:blank on a known operation answering 404', problemAt(404, { ...notFound, type: 'about:blank' }), 'a catalog code for 404 on attachPayment (about:blank only for 401, 403, 405, 500 and 404 on an unknown route)'],
    ['an overridable member', problemAt(404, { ...notFound, overridable: false }), 'no overridable member'],
    ['a 400 without detail', problemAt(400, { type: 'api.malformed_request', title: 'Malformed', status: 400 }), 'type, title, status 400, detail (string or null)'],
    ['a 400 whose errors entry lacks value', problemAt(400, { type: 'payments.amount.invalid', title: 'Validation failed', status: 400, detail: null, errors: [{ field: 'amount', code: 'payments.amount.invalid', message: 'x' }] }), 'field, code, message (strings) and value (string or null)'],
  ])('fails %s', async (_name, handler, expected) => {
    const report = await runAgainst(handler, [probe([unknownOrder])]);
    const result = resultOf(report, 'problems.catalog');
    expect(result.outcome).toBe('fail');
    expect(result.findings.map((finding) => finding.expected)).toContain(expected);
  });

  it('accepts api.malformed_request answered 415, as its catalog meaning allows', async () => {
    const report = await runAgainst(problemAt(415, { type: 'api.malformed_request', title: 'Malformed', status: 415, detail: null, instance: null }), [probe([unknownOrder])]);
    expect(resultOf(report, 'problems.catalog').outcome).toBe('pass');
    expect(report.coverage.codes.find((entry) => entry.code === 'api.malformed_request')).toMatchObject({ state: 'exercised', seen: 1 });
  });

  it('accepts about:blank on a 404 of an unknown route', async () => {
    const report = await runAgainst(conformingHandler(), [probe([unknownRoute])]);
    expect(resultOf(report, 'problems.catalog').outcome).toBe('pass');
  });
});
