import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeEntry, queryPairs, suiteHar, uriOf } from './har.ts';
import { answer, closedTargetUrl, type FakeTarget, startFakeTarget, testKeys } from '../../dev/testing/conformance/fake-target.ts';
import { contextFor } from '../../dev/testing/conformance/check-context.ts';
import { harErrors } from '../../dev/testing/conformance/har-schema.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { CheckResult } from '../engine/types/report.ts';

/** A result of `id` as the report lists it, as far as the HAR reads it. */
const result = (id: string, outcome: CheckResult['outcome'], findings: string[] = []) =>
  ({ id, title: `title of ${id}`, outcome, startedAt: '2026-11-24T09:00:00.000Z', findings: findings.map((message) => ({ message, expected: '', received: '' })) }) as unknown as CheckResult;

describe('exchanges.har of a conformance run', () => {
  let target: FakeTarget;
  let exchanges: readonly ExchangeRecord[];
  beforeAll(async () => {
    target = await startFakeTarget((request, response) => {
      // Echoes the key, so that redaction of answers shows in the archive too.
      response.setHeader('x-echo-key', String(request.headers['x-api-key'] ?? ''));
      if (request.url.startsWith('/bytes')) {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        return void response.end(Buffer.from([0xff, 0x00, 0xfe]));
      }
      answer(response, request.method === 'POST' ? 201 : 200, { url: request.url, key: request.headers['x-api-key'] ?? null });
    });
    const { ctx, log } = contextFor(target.url, { checkId: 'writes.pay' });
    await ctx.http.request({ method: 'GET', path: '/api/v1/integration/orders', query: { limit: 2, status: ['New', 'Planned'] } });
    await ctx.http.request({ method: 'POST', path: '/api/v1/integration/orders/externalid/e%201/payment', body: { amount: 1, note: testKeys.full }, headers: { 'idempotency-key': 'pay-1' } });
    await ctx.http.request({ method: 'GET', path: `/api/v1/integration/whoami?echo=${testKeys.ordersRead}` });
    await ctx.http.request({ method: 'GET', path: '/bytes' });
    await ctx.raw('this is not http\r\n\r\n').catch(() => undefined);
    await ctx.raw(`BREW /api/v1/integration/whoami HTTP/1.1\r\nHost: x\r\n${ctx.authHeader('full')}\r\nConnection: close\r\n\r\n`);
    const closed = contextFor(await closedTargetUrl(), { checkId: 'http.closed' });
    await closed.ctx.http.request({ method: 'GET', path: '/api/v1/integration/whoami' }).catch(() => undefined);
    exchanges = [...log.all(), ...closed.log.all().map((record) => ({ ...record, id: record.id + 100 }))];
  });
  afterAll(() => target.close());

  it('is HAR 1.2 as har-schema has it, one page per check, every exchange an entry', () => {
    const har = suiteHar({ results: [result('writes.pay', 'fail', ['The payment was refused']), result('http.closed', 'error'), result('feeds.none', 'skip')] }, exchanges);
    expect(harErrors(har)).toEqual([]);
    expect(har.log).toMatchObject({ version: '1.2', creator: { name: 'waybill' } });
    expect(har.log.pages.map((page) => [page.id, page.title, page.comment])).toEqual([
      ['writes.pay', 'writes.pay (fail) — title of writes.pay', '1) The payment was refused'],
      ['http.closed', 'http.closed (error) — title of http.closed', undefined],
    ]);
    expect(har.log.entries).toHaveLength(exchanges.length);
    expect(har.log.entries.map((entry) => entry.pageref).sort()).toEqual(exchanges.map((exchange) => exchange.checkId).sort());
  });

  it('holds no key: headers, bodies, URLs and replay lines are redacted as in the report', () => {
    const text = JSON.stringify(suiteHar({ results: [] }, exchanges));
    for (const key of Object.values(testKeys)) expect(text.includes(key), key).toBe(false);
    expect(text).toContain('<redacted:full>');
    expect(text).toContain('$WAYBILL_KEY_FULL');
  });

  it('gives a fetch exchange its method, URL and query, headers, body and time', () => {
    const post = exchangeEntry(exchanges.find((exchange) => exchange.request.method === 'POST')!);
    expect(post.request).toMatchObject({ method: 'POST', httpVersion: 'HTTP/1.1', url: expect.stringMatching(/\/orders\/externalid\/e%201\/payment$/), postData: { mimeType: 'application/json', text: '{"amount":1,"note":"<redacted:full>"}' } });
    expect(post.request.headers).toContainEqual({ name: 'idempotency-key', value: 'pay-1' });
    expect(post.request.headers).toContainEqual({ name: 'x-api-key', value: '<redacted:full>' });
    expect(post.response).toMatchObject({ status: 201, statusText: 'Created', content: { mimeType: 'application/json', text: expect.stringContaining('"key":"<redacted:full>"') } });
    expect(post.response.headers).toContainEqual({ name: 'x-echo-key', value: '<redacted:full>' });
    expect(post.time).toBe(post.timings.wait);
    expect(post._resourceType).toBe('fetch');
    const list = exchangeEntry(exchanges[0]!);
    expect(list.request.queryString).toEqual([{ name: 'limit', value: '2' }, { name: 'status', value: 'New' }, { name: 'status', value: 'Planned' }]);
    const secretInQuery = exchangeEntry(exchanges.find((exchange) => exchange.request.url.includes('echo='))!);
    expect(secretInQuery.request.url).toMatch(/\?echo=%3Credacted:ordersRead%3E$/);
    expect(secretInQuery.request.queryString).toEqual([{ name: 'echo', value: '<redacted:ordersRead>' }]);
  });

  it('keeps a body that is not UTF-8 as base64', () => {
    const bytes = exchangeEntry(exchanges.find((exchange) => exchange.request.url.endsWith('/bytes'))!);
    expect(bytes.response.content).toMatchObject({ size: 3, encoding: 'base64', text: Buffer.from([0xff, 0x00, 0xfe]).toString('base64') });
  });

  it('says what a raw exchange is, with the bytes to send it again, and keeps its method as written', () => {
    const raws = exchanges.filter((exchange) => exchange.channel === 'raw').map(exchangeEntry);
    expect(raws.map((entry) => entry.request.method)).toEqual(['this', 'BREW']);
    for (const entry of raws) {
      expect(entry).toMatchObject({ _resourceType: 'other', comment: expect.stringContaining('Hand-written bytes'), _waybill: { channel: 'raw', replay: expect.stringMatching(/^printf .* \| nc 127\.0\.0\.1 \d+$/) } });
      // The version is not recorded for raw exchanges: HAR gets none rather than a guess.
      expect(entry.request.httpVersion).toBe('');
    }
    expect(raws[1]!.response.status).toBeGreaterThanOrEqual(400);
  });

  it('writes an exchange that got no answer as a failed request: status 0 and _error', () => {
    const failed = exchangeEntry(exchanges.find((exchange) => exchange.checkId === 'http.closed')!);
    expect(failed.response).toMatchObject({ status: 0, statusText: '', bodySize: -1, _error: expect.stringContaining('whoami') });
  });
});

describe('uriOf and queryPairs', () => {
  it('percent-encodes what a URI cannot hold, and leaves escapes and the origin alone', () => {
    expect(uriOf('http://[::1]:4000/a b/<redacted:full>?q=%zz&r=%41#x#y')).toBe('http://[::1]:4000/a%20b/%3Credacted:full%3E?q=%25zz&r=%41#x%23y');
  });

  it('decodes name and value, keeps a name without a value, and ignores the fragment', () => {
    expect(queryPairs('http://h/p?a=1+2&b&c=%3Credacted%3Ax%3E#f')).toEqual([{ name: 'a', value: '1 2' }, { name: 'b', value: '' }, { name: 'c', value: '<redacted:x>' }]);
    expect(queryPairs('http://h/p')).toEqual([]);
  });
});
