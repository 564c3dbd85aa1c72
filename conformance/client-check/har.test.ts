/**
 * The exchanges.har of a client-check: the client's requests from the request log, a page per
 * scenario, the grader's own left out, no key or token in it; and each log entry as HAR says it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCheckHar, loggedEntry } from './har.ts';
import { startOwnSandbox } from './own-sandbox.ts';
import { runClientCheck } from './run.ts';
import { harErrors } from '../../dev/testing/conformance/har-schema.ts';
import type { Har } from '../transport/har.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { RunReport } from '../engine/types/report.ts';

/** A client that leaks its key everywhere it can (a query, a body) and retries a payment whose connection broke, with the same Idempotency-Key. */
const LEAKY_CLIENT = `
import { appendFileSync } from 'node:fs';
const env = process.env;
const key = env.WAYBILL_API_KEY;
appendFileSync(process.argv[2], key + '\\n');
await fetch(env.WAYBILL_BASE_URL + '/api/v1/integration/whoami?apiKey=' + encodeURIComponent(key), { headers: { 'X-Api-Key': key } });
const body = JSON.stringify({ paymentId: env.WAYBILL_PAYMENT_ID, amount: Number(env.WAYBILL_AMOUNT), currency: env.WAYBILL_CURRENCY, note: key });
const headers = { 'X-Api-Key': key, 'Content-Type': 'application/json', 'Idempotency-Key': 'pay-' + env.WAYBILL_PAYMENT_ID };
for (let attempt = 1; attempt <= 3; attempt++) {
  try {
    const answer = await fetch(env.WAYBILL_BASE_URL + '/api/v1/integration/orders/externalid/' + encodeURIComponent(env.WAYBILL_EXTERNAL_ID) + '/payment', { method: 'POST', headers, body });
    console.log('pay: ' + answer.status);
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
`;

describe('exchanges.har of a client-check run', () => {
  const folder = mkdtempSync(join(tmpdir(), 'waybill-client-har-'));
  const keysFile = join(folder, 'keys.txt');
  let adminToken: string;
  let report: RunReport;
  let exchanges: readonly ExchangeRecord[] = [];
  let har: Har;
  beforeAll(async () => {
    writeFileSync(join(folder, 'leaky.mjs'), LEAKY_CLIENT);
    writeFileSync(keysFile, '');
    const sandbox = await startOwnSandbox();
    adminToken = sandbox.adminToken;
    try {
      report = await runClientCheck({
        target: sandbox.url,
        adminToken,
        command: process.execPath,
        args: [join(folder, 'leaky.mjs'), keysFile],
        only: ['client.pay.answer-lost', 'client.no-retry.404'],
        onExchanges: (all) => (exchanges = all),
      });
    } finally {
      await sandbox.close();
    }
    har = clientCheckHar(report, exchanges);
  }, 90_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is HAR 1.2 as har-schema has it: a page per scenario, each request of the client an entry on its page', () => {
    expect(harErrors(har)).toEqual([]);
    expect(har.log.pages.map((page) => page.id).sort()).toEqual(['client.no-retry.404', 'client.pay.answer-lost']);
    for (const page of har.log.pages) expect(page.title).toMatch(new RegExp(`^${page.id.replaceAll('.', '\\.')} \\((pass|fail)\\) — `));
    const lost = har.log.entries.filter((entry) => entry.pageref === 'client.pay.answer-lost');
    expect(lost.map((entry) => `${entry.request.method} ${entry.response.status}`)).toEqual(['GET 200', 'POST 0', 'POST 200']);
  });

  it("holds the client's requests only: no control-plane call, no marker request of the grader", () => {
    const paths = har.log.entries.map((entry) => new URL(entry.request.url).pathname);
    expect(paths.filter((path) => path.startsWith('/sandbox/'))).toEqual([]);
    expect(har.log.entries.filter((entry) => entry.response.headers.some((header) => header.value.startsWith('client-check-')))).toEqual([]);
    // The grader made many more exchanges than the client made requests.
    expect(exchanges.length).toBeGreaterThan(har.log.entries.length * 3);
  });

  it('says what the log kept: body, Content-Type, Idempotency-Key, the request id, the latency as wait, the fault of a lost answer', () => {
    const [, reset, retried] = har.log.entries.filter((entry) => entry.pageref === 'client.pay.answer-lost');
    expect(reset!.request.headers).toEqual([{ name: 'content-type', value: 'application/json' }, { name: 'idempotency-key', value: expect.stringMatching(/^pay-/) }]);
    // The sandbox's log keeps no key (D48), so the leaked one is redacted before the grader reads it.
    expect(reset!.request.postData).toMatchObject({ mimeType: 'application/json', text: expect.stringMatching(/"note":"[^"]*redacted[^"]*"/) });
    expect(reset!.response).toMatchObject({ status: 0, headers: [], _error: expect.stringContaining('fault reset') });
    expect(reset!._waybill).toMatchObject({ source: 'request-log', operation: 'attachPayment', fault: { fault: 'reset', when: 'after' } });
    expect(retried!.response).toMatchObject({ status: 200, statusText: 'OK', content: { mimeType: expect.stringContaining('application/json') } });
    expect(retried!.response.headers).toContainEqual({ name: 'x-request-id', value: expect.stringMatching(/^req_/) });
    expect(retried!.time).toBe(retried!.timings.wait);
  });

  it('holds no key and no admin token of the run, redacted where the client leaked them', () => {
    const keys = readFileSync(keysFile, 'utf8').split('\n').filter(Boolean);
    expect(keys).toHaveLength(2);
    const text = JSON.stringify(har, null, 2);
    for (const secret of [...keys, adminToken]) expect(text.includes(secret), 'a secret in the HAR').toBe(false);
    const whoami = har.log.entries.find((entry) => entry.request.url.includes('/whoami'))!;
    expect(whoami.request.queryString).toEqual([{ name: 'apiKey', value: expect.stringContaining('redacted') }]);
  });
});

describe('a log entry as a HAR entry', () => {
  const entry = {
    id: 7, atUtc: '2026-11-24T09:00:00.123Z', operation: 'orderFeed', method: 'GET', path: '/api/v1/integration/orders?limit=2', status: 200, problemType: null, errors: [], latencyMs: 1.5,
    keyId: 'key_1', requestId: 'req_1', idempotencyKey: null, replayed: true, orderIds: [], tripIds: [], fault: null, page: null, curl: "curl -H 'X-Api-Key: $WAYBILL_KEY' …",
    request: { contentType: null, body: null, bytes: 0, truncated: false },
    response: { contentType: 'application/json', body: '{"items":[', bytes: 40_000, truncated: true },
  };

  it('has the log facts, a cut body said so, the replayed answer marked, and no header the log does not keep', () => {
    const har = loggedEntry(entry, 'http://127.0.0.1:4000', 'client.sync.x');
    expect(har).toMatchObject({ pageref: 'client.sync.x', startedDateTime: entry.atUtc, time: 1.5, _waybill: { entryId: 7, keyId: 'key_1', replay: entry.curl } });
    expect(har.request).toMatchObject({ url: 'http://127.0.0.1:4000/api/v1/integration/orders?limit=2', headers: [], queryString: [{ name: 'limit', value: '2' }], bodySize: 0 });
    expect(har.request.postData).toBeUndefined();
    expect(har.response.headers).toEqual([{ name: 'content-type', value: 'application/json' }, { name: 'x-request-id', value: 'req_1' }, { name: 'idempotent-replayed', value: 'true' }]);
    expect(har.response.content).toEqual({ size: 40_000, mimeType: 'application/json', text: '{"items":[', comment: 'the request log keeps the first 16 KiB of the 40000-byte body' });
  });

  it('reads only whole entries the control plane answered: a list, a 404 or a cut answer is no entry', () => {
    const record = (url: string, status: number, body: string, extra: object = {}): ExchangeRecord => ({
      id: 1, checkId: 'client.sync.x', channel: 'sandbox', operationId: null, startedAt: entry.atUtc, durationMs: 1, replay: '',
      request: { method: 'GET', url, headers: {}, body: null, bodyBytes: 0 },
      response: { status, headers: {}, body, bodyBytes: body.length, ...extra },
    });
    const base = 'http://127.0.0.1:4000/sandbox/v1/tenants/t1/requests';
    const result = { id: 'client.sync.x', title: 'x', outcome: 'pass', startedAt: entry.atUtc, findings: [], clientRuns: [{}] } as unknown as RunReport['results'][number];
    const har = clientCheckHar({ target: 'http://127.0.0.1:4000', results: [result] }, [
      record(`${base}/7`, 200, JSON.stringify(entry)),
      record(`${base}/7`, 200, JSON.stringify(entry)),
      record(`${base}?keyId=k`, 200, JSON.stringify({ items: [], nextCursor: null })),
      record(`${base}/8`, 404, '{}'),
      record(`${base}/9`, 200, JSON.stringify({ ...entry, id: 9 }), { bodyTruncated: true }),
    ]);
    expect(har.log.entries.map((harEntry) => harEntry._waybill['entryId'])).toEqual([7]);
    expect(har.log.pages.map((page) => page.id)).toEqual(['client.sync.x']);
  });
});
