import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { integrationContract } from '../../contract/contract.ts';
import { runSuite } from '../../engine/runner.ts';
import { answer, conformingHandler, type FakeHandler, type FakeTarget, startFakeTarget, testKeys, testProfile, testScopes } from '../../../dev/testing/conformance/fake-target.ts';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type ProxiedRequest, startProxy } from '../../../dev/testing/conformance/proxy.ts';
import { runChecks, startReference } from '../../../dev/testing/conformance/reference.ts';
import type { Check } from '../../engine/types/check.ts';
import type { HttpRequest } from '../../engine/types/exchange.ts';
import type { Profile, TargetChoices } from '../../engine/types/profile.ts';
import type { CheckResult, RunReport } from '../../engine/types/report.ts';
import { discoveryChecks } from './index.ts';
import { problemsChecks } from '../problems.ts';

// The fake target implements whoami only: run the families these tests are about.
const checks = [...discoveryChecks, ...problemsChecks];

/** A check that only makes requests, so the run-level checks have failures to look at. */
function probe(requests: HttpRequest[]): Check {
  return {
    id: 'probe.requests',
    family: 'probe',
    title: 'makes requests',
    verifies: ['int.service.json'],
    fix: 'answer JSON (int.service.json)',
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

/** `handler` with D14's RateLimit-* headers on every answer to a known key (the fake target writes none). */
function withRateLimitHeaders(handler: FakeHandler): FakeHandler {
  return (request, response) => {
    if (typeof request.headers['x-api-key'] === 'string' && testScopes[request.headers['x-api-key']] !== undefined) {
      for (const [name, value] of [['ratelimit-limit', '600'], ['ratelimit-remaining', '599'], ['ratelimit-reset', '1']]) response.setHeader(name!, value!);
    }
    handler(request, response);
  };
}

/** Runs the registry (and `extra` checks) against `handler` (with RateLimit-* headers added), with `profile` overrides. */
async function runAgainst(handler: FakeHandler, extra: Check[] = [], profile: Partial<Profile> = {}): Promise<RunReport> {
  target = await startFakeTarget(withRateLimitHeaders(handler));
  return runSuite({ checks: [...extra, ...checks], profile: testProfile(profile), target: target.url, contract: integrationContract, seed: 1, timeoutMs: 3000 });
}

/** The ids of the checks of `report` that failed. */
function failedIds(report: RunReport): string[] {
  return report.results.filter((result) => result.outcome === 'fail').map((result) => result.id);
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
      ['discovery.whoami.scopeCatalog', 'pass'],
      ['discovery.responses.contract', 'pass'],
      ['discovery.responses.decided', 'pass'],
      // The fake target answers no order or trip: there is no timestamp to grade.
      ['discovery.timestamps', 'skip'],
      ['problems.catalog', 'pass'],
      ['problems.blank', 'pass'],
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

  it("passes whoami.scopes on a write scope named as the profile declares it; only whoami.scopeCatalog compares the name with D2's", async () => {
    const scopes = { ...testScopes, [testKeys.full]: ['orders:read', 'orders:manage', 'trips:read'] };
    const declared = await runAgainst(conformingHandler(scopes), [], { choices: { writeScope: 'orders:manage' } });
    expect(failedIds(declared)).toEqual(['discovery.whoami.scopeCatalog']);
    expect(resultOf(declared, 'discovery.whoami.scopeCatalog').findings.map((finding) => [finding.message, finding.expected, finding.received])).toEqual([
      ["the full key carries scopes outside D2's catalog", 'scopes among orders:read, orders:write, trips:read', '["orders:read","orders:manage","trips:read"]'],
    ]);
    expect(declared.exitCode).toBe(0);
    await target?.close();
    const undeclared = await runAgainst(conformingHandler(scopes));
    expect(failedIds(undeclared)).toEqual(['discovery.whoami.scopes', 'discovery.whoami.scopeCatalog']);
    expect(resultOf(undeclared, 'discovery.whoami.scopes').findings[0]).toMatchObject({ expected: 'scopes including orders:read, orders:write, trips:read' });
  });

  it('fails whoami.shape and responses.contract (not responses.decided) for a 200 without keyId', async () => {
    const report = await runAgainst(breaking('GET', '/api/v1/integration/whoami', (_request, response) => answer(response, 200, { tenantId: 't', scopes: ['orders:read'] })));
    const shape = resultOf(report, 'discovery.whoami.shape');
    expect(shape.outcome).toBe('fail');
    expect(shape.findings[0]?.received).toContain("must have required property 'keyId'");
    const contract = resultOf(report, 'discovery.responses.contract');
    expect(contract.outcome).toBe('fail');
    expect(contract.findings[0]).toMatchObject({ expected: 'a body with the members, types and values the seeds fix for KeyIdentity', received: "/ must have required property 'keyId'" });
    expect(contract.findings[0]?.message).toMatch(/^GET \/api\/v1\/integration\/whoami → 200 \(exchange #\d+\): the body does not match the seeds' KeyIdentity$/);
    expect(resultOf(report, 'discovery.responses.decided').outcome).toBe('pass');
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

  it('fails responses.contract for a wrong media type and a status the seeds do not list; responses.decided for a missing X-Request-Id', async () => {
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
    // Without exchange numbers, whose order depends on how the checks interleave.
    const lines = (id: string) => resultOf(report, id).findings.map((finding) => `${finding.message.replace(/ \(exchange #\d+\)/, '')} | ${finding.expected} | ${finding.received}`).sort();
    // whoami is asked 9 times: once by whoami.shape, once per key by whoami.scopes and whoami.scopeCatalog.
    expect(lines('discovery.responses.contract')).toEqual([
      ...Array.from({ length: 9 }, () => 'GET /api/v1/integration/whoami → 200: wrong Content-Type | application/json | text/plain'),
      'POST /api/v1/integration/orders/externalid/missing-1/payment → 418: a status the seeds do not list for attachPayment | one of 200, 400, 401, 403, 404, 408, 409, 413, 415, 429, 500, 503, 417 | 418',
    ]);
    expect(lines('discovery.responses.decided')).toEqual(Array.from({ length: 9 }, () => 'GET /api/v1/integration/whoami → 200: required header X-Request-Id missing | a X-Request-Id header | no such header'));
  });

  it('fails responses.decided (only) for a header that breaks its schema', async () => {
    const report = await runAgainst(
      breaking('DELETE', '/api/v1/integration/orders/externalid/ext-1', (_request, response) => {
        response.writeHead(204, { 'x-request-id': 'r', 'ratelimit-remaining': '-3' });
        response.end();
      }),
      [probe([{ method: 'DELETE', path: '/api/v1/integration/orders/externalid/ext-1' }])],
    );
    expect(failedIds(report)).toEqual(['discovery.responses.decided']);
    const findings = resultOf(report, 'discovery.responses.decided').findings;
    expect(findings.map((finding) => [finding.message, finding.received])).toEqual([
      [expect.stringMatching(/^DELETE \/api\/v1\/integration\/orders\/externalid\/ext-1 → 204 \(exchange #\d+\): header RateLimit-Remaining does not match its schema$/), 'RateLimit-Remaining: -3 (/ must be >= 0)'],
    ]);
  });
});

describe('problems against broken targets', () => {
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
    ['a failure served as JSON, not problem+json', problemAt(404, notFound, 'application/json'), ['discovery.responses.contract', 'problems.catalog'], 'Content-Type: application/problem+json'],
    ['a type outside the catalog', problemAt(404, { ...notFound, type: 'order_not_found' }), ['problems.catalog'], 'type: a code of the error catalog (a 404 of attachPayment)'],
    ['about:blank on a known operation answering 404', problemAt(404, { ...notFound, type: 'about:blank' }), ['problems.catalog'], 'type: a code of the error catalog (a 404 of attachPayment)'],
    ['a 500 with a catalog code of another status', problemAt(500, { ...notFound, status: 500 }), ['problems.catalog', 'problems.blank'], 'HTTP 404 (the catalog\'s status for orders.notFound)'],
  ])('fails %s', async (_name, handler, failing, expected) => {
    const report = await runAgainst(handler, [probe([unknownOrder])]);
    expect(failedIds(report)).toEqual(failing);
    expect(resultOf(report, 'problems.catalog').findings.map((finding) => finding.expected)).toContain(expected);
  });

  it.each([
    ['an overridable member on a 400', problemAt(400, { type: 'api.malformed_request', title: 'Malformed', status: 400, detail: null, overridable: false }), '/overridable boolean schema is false'],
    ['a 400 without detail', problemAt(400, { type: 'api.malformed_request', title: 'Malformed', status: 400 }), "/ must have required property 'detail'"],
    ['a 400 whose errors entry lacks value', problemAt(400, { type: 'payments.amount.invalid', title: 'Validation failed', status: 400, detail: null, errors: [{ field: 'amount', code: 'payments.amount.invalid', message: 'x' }] }), "/errors/0 must have required property 'value'"],
    ['a 404 without type', problemAt(404, { title: 'Order not found', status: 404, detail: null, instance: null }), "/ must have required property 'type'"],
  ])('fails responses.contract (and not responses.decided) for %s', async (_name, handler, received) => {
    const report = await runAgainst(handler, [probe([unknownOrder])]);
    expect(failedIds(report).filter((id) => id.startsWith('discovery.'))).toEqual(['discovery.responses.contract']);
    expect(resultOf(report, 'discovery.responses.contract').findings.map((finding) => finding.received)).toEqual([received]);
  });

  it('accepts api.malformed_request answered 415, as its catalog meaning allows', async () => {
    const report = await runAgainst(problemAt(415, { type: 'api.malformed_request', title: 'Malformed', status: 415, detail: null, instance: null }), [probe([unknownOrder])]);
    expect(resultOf(report, 'problems.catalog').outcome).toBe('pass');
    expect(report.coverage.codes.find((entry) => entry.code === 'api.malformed_request')).toMatchObject({ state: 'exercised', seen: 1 });
  });

  it('accepts about:blank on a 404 of an unknown route', async () => {
    const report = await runAgainst(conformingHandler(), [probe([unknownRoute])]);
    expect(resultOf(report, 'problems.catalog').outcome).toBe('pass');
    expect(resultOf(report, 'problems.blank').outcome).toBe('pass');
  });

  it('fails a 401 whose type is neither a catalog code nor about:blank at MUST (problems.catalog), D3 too', async () => {
    const whoami: HttpRequest = { method: 'GET', path: '/api/v1/integration/whoami', key: null };
    const handler: FakeHandler = (request, response) => (request.headers['x-api-key'] === undefined ? answer(response, 401, { type: 'auth.missing', title: 'Unauthorized', status: 401 }) : conformingHandler()(request, response));
    const report = await runAgainst(handler, [probe([whoami])]);
    // D3's shape of a 401 body (discovery.responses.decided) and type (problems.blank) are DECISION checks.
    expect(failedIds(report)).toEqual(['discovery.responses.decided', 'problems.catalog', 'problems.blank']);
    expect(report.results.filter((result) => result.outcome === 'fail' && result.level === 'MUST').map((result) => result.id)).toEqual(['problems.catalog']);
    expect(resultOf(report, 'problems.catalog').findings.map((finding) => [finding.expected, finding.received])).toEqual([
      ['type: a code of the error catalog, or about:blank (a 401 of whoami, whose body the seeds do not show)', 'type: auth.missing'],
    ]);
  });

  it('accepts a catalog code on a 403 at seed level, leaving about:blank to D3, and the type of an unknown path to D21', async () => {
    const handler: FakeHandler = (request, response) => {
      if (request.headers['x-api-key'] === 'forbidden') return answer(response, 403, { type: 'drivers.notLinked', title: 'Forbidden', status: 403 });
      if (request.url.startsWith('/api/v1/integration/nope')) return answer(response, 404, { type: 'route.unknown', title: 'No route', status: 404 });
      return conformingHandler()(request, response);
    };
    const report = await runAgainst(handler, [probe([{ method: 'GET', path: '/api/v1/integration/orders', key: 'forbidden' }, unknownRoute])]);
    expect(failedIds(report)).toEqual(['discovery.responses.decided', 'problems.blank']);
    expect(resultOf(report, 'discovery.responses.decided').level).toBe('DECISION');
    expect(resultOf(report, 'problems.catalog').outcome).toBe('pass');
    expect(resultOf(report, 'problems.blank').findings.map((finding) => finding.expected)).toEqual(['type: about:blank (D3)', 'type: about:blank (D21)']);
  });

});

// ── Against the reference, through a proxy that rewrites one thing ──────────────────────

/** A check that makes one request of each kind the contract checks read: both feeds, an Order, a 400, 401, 403, 404, 429. */
const everyAnswer: Check = {
  id: 'probe.answers',
  family: 'probe',
  title: 'makes one request of each kind',
  verifies: ['int.service.json'],
  fix: 'answer JSON (int.service.json)',
  requires: [],
  async run(ctx) {
    const payment = (externalId: string, amount: number) => ({ method: 'POST', path: `/api/v1/integration/orders/externalid/${externalId}/payment`, body: { paymentId: randomUUID(), amount, currency: 'EUR' } });
    await ctx.http.request({ method: 'GET', path: '/api/v1/integration/orders', query: { limit: 3 } });
    await ctx.http.request({ method: 'GET', path: '/api/v1/integration/trips', query: { limit: 3 } });
    await ctx.http.request(payment(ctx.profile.orders!.payable![0]!, 5));
    await ctx.http.request(payment(ctx.profile.orders!.payable![0]!, 0));
    await ctx.http.request(payment('waybill-no-such-order', 5));
    await ctx.http.request({ method: 'GET', path: '/api/v1/integration/orders', key: null });
    await ctx.http.request({ method: 'GET', path: '/api/v1/integration/orders', key: 'noScopes' });
    for (let i = 0; i < 6; i += 1) await ctx.http.request({ method: 'GET', path: '/api/v1/integration/whoami', key: ctx.profile.keys.rateLimited!.key });
  },
};

/** Runs the probe, discovery and problems through a proxy applying `rewrite` in front of the reference, the profile carrying `choices`. */
async function throughProxy(rewrite: AnswerRewrite, choices?: TargetChoices): Promise<Map<string, CheckResult>> {
  const reference = await startReference();
  const proxy = await startProxy(reference.server.url, rewrite);
  try {
    const { byId } = await runChecks([everyAnswer, ...checks], { ...reference.profile, target: proxy.url, ...(choices === undefined ? {} : { choices }) });
    return byId;
  } finally {
    await proxy.close();
    await reference.close();
  }
}

/** The ids of the checks that failed, and the ids of those that ended neither pass nor fail. */
function verdicts(byId: Map<string, CheckResult>): { failed: string[]; other: string[] } {
  const results = [...byId.values()];
  return { failed: results.filter((result) => result.outcome === 'fail').map((result) => result.id), other: results.filter((result) => result.outcome !== 'pass' && result.outcome !== 'fail').map((result) => `${result.id}: ${result.outcome}`) };
}

/** An answer whose JSON body `change` rewrites (returning nothing keeps it), when `applies`. */
function jsonRewrite(applies: (answer: ProxiedAnswer, request: ProxiedRequest) => boolean, change: (body: Record<string, unknown>) => void): AnswerRewrite {
  return (answer, request) => {
    const body = answerJson(answer);
    if (body === null || typeof body !== 'object' || !applies(answer, request)) return answer;
    change(body as Record<string, unknown>);
    return { ...answer, body: Buffer.from(JSON.stringify(body)) };
  };
}

/** True for a 200 of the feed `name`. */
const feedPage = (name: 'orders' | 'trips') => (answer: ProxiedAnswer, request: ProxiedRequest) => answer.status === 200 && request.method === 'GET' && request.url.split('?')[0] === `/api/v1/integration/${name}`;

/** Each item of a feed page. */
const eachItem = (change: (item: Record<string, unknown>) => void) => (page: Record<string, unknown>) => (page['items'] as Record<string, unknown>[]).forEach(change);

/** `answer` without the headers `drop` matches. */
function withoutHeaders(drop: RegExp): AnswerRewrite {
  return (answer) => ({ ...answer, headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !drop.test(name))) });
}

const tripNames: Record<string, string> = { id: 'tripId', shortId: 'code', status: 'status', warehouseId: 'depot', driverId: 'driver', vehicleId: 'vehicle', stopCount: 'stops', plannedAtUtc: 'planned', updatedAtUtc: 'changed' };

describe('responses against the reference', () => {
  it('passes every check of the families on the reference as it is', async () => {
    expect(verdicts(await throughProxy((answer) => answer))).toEqual({ failed: [], other: [] });
  }, 30_000);

  it.each<[string, AnswerRewrite]>([
    ['an order shortId as a number', jsonRewrite(feedPage('orders'), eachItem((item) => void (item['shortId'] = 12345)))],
    ['orders without tags', jsonRewrite(feedPage('orders'), eachItem((item) => void delete item['tags']))],
    ['a trip status outside the enum', jsonRewrite(feedPage('trips'), eachItem((item) => void (item['status'] = 'Paused')))],
    ['a trip member out of order', jsonRewrite(feedPage('trips'), eachItem((item) => { const { status } = item; delete item['status']; item['status'] = status; }))],
    ['a 400 with overridable', jsonRewrite((answer) => answer.status === 400, (problem) => void (problem['overridable'] = false))],
    ['a field error without value', jsonRewrite((answer) => answer.status === 400, (problem) => (problem['errors'] as Record<string, unknown>[]).forEach((error) => delete error['value']))],
    ['a timestamp that is not a date-time', jsonRewrite(feedPage('orders'), eachItem((item) => void (item['createdAtUtc'] = '20 Nov 2026')))],
  ])('fails responses.contract alone on %s', async (_name, rewrite) => {
    expect(verdicts(await throughProxy(rewrite))).toEqual({ failed: ['discovery.responses.contract'], other: [] });
  }, 30_000);

  it('fails responses.contract and problems.catalog on a 404 without type', async () => {
    const byId = await throughProxy(jsonRewrite((answer) => answer.status === 404, (problem) => void delete problem['type']));
    expect(verdicts(byId)).toEqual({ failed: ['discovery.responses.contract', 'problems.catalog'], other: [] });
    expect(byId.get('discovery.responses.contract')?.findings.map((finding) => finding.received)).toEqual(["/ must have required property 'type'"]);
  }, 30_000);

  it.each<[string, AnswerRewrite, TargetChoices | undefined, string]>([
    ['timestamps without milliseconds', (answer) => ({ ...answer, body: Buffer.from(answer.body.toString('utf8').replace(/(T\d{2}:\d{2}:\d{2})\.\d{3}Z/g, '$1Z')) }), undefined, 'must match pattern'],
    [
      'trip fields named otherwise, as the profile declares',
      jsonRewrite(feedPage('trips'), (page) => void (page['items'] = (page['items'] as Record<string, unknown>[]).map((trip) => Object.fromEntries(Object.entries(trip).map(([name, value]) => [tripNames[name] ?? name, value]))))),
      { tripFields: { id: 'tripId', shortCode: 'code', warehouse: 'depot', driver: 'driver', vehicle: 'vehicle', stopCount: 'stops', plannedAt: 'planned', updatedAt: 'changed' } },
      "must have required property 'id'",
    ],
    ['no X-Request-Id header', withoutHeaders(/^x-request-id$/), undefined, 'no such header'],
    ['Retry-After as an HTTP-date', (answer) => (answer.status === 429 ? { ...answer, headers: { ...answer.headers, 'retry-after': new Date(Date.now() + 12_000).toUTCString() } } : answer), undefined, 'Retry-After: '],
    ['no RateLimit-* headers', withoutHeaders(/^ratelimit-/), undefined, 'no such header'],
  ])('passes responses.contract and fails responses.decided alone on %s (and discovery.timestamps, for timestamps)', async (name, rewrite, choices, received) => {
    const byId = await throughProxy(rewrite, choices);
    expect(verdicts(byId)).toEqual({ failed: name === 'timestamps without milliseconds' ? ['discovery.responses.decided', 'discovery.timestamps'] : ['discovery.responses.decided'], other: [] });
    expect(byId.get('discovery.responses.decided')?.findings[0]?.received).toContain(received);
  }, 30_000);
});
