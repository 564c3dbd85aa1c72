import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../types.ts';
import { responseViolations } from './response-contract.ts';

/** A recorded exchange of `operationId` answered `status` with `body`. */
function exchange(operationId: string | null, status: number, body: string | null, headers: Record<string, string> = {}): ExchangeRecord {
  return {
    id: 1,
    checkId: 't.t',
    channel: 'api',
    operationId,
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 1,
    request: { method: 'GET', url: 'http://x/api/v1/integration/orders', headers: {}, body: null, bodyBytes: 0 },
    response: { status, headers: { 'x-request-id': 'r', ...headers }, body, bodyBytes: body?.length ?? 0 },
    replay: '',
  };
}

const json = { 'content-type': 'application/json; charset=utf-8' };

describe('responseViolations', () => {
  it('accepts a declared answer with its media type (parameters allowed), schema and headers', () => {
    expect(responseViolations(exchange('orderFeed', 200, '{"items":[],"nextCursor":null}', { ...json, 'ratelimit-limit': '600' }))).toEqual([]);
  });

  it('ignores exchanges that match no operation or got no answer', () => {
    expect(responseViolations(exchange(null, 418, 'x'))).toEqual([]);
    expect(responseViolations({ ...exchange('orderFeed', 200, null), response: null })).toEqual([]);
  });

  it('finds a body on a 204, a body that is not JSON, and a schema violation', () => {
    expect(responseViolations(exchange('archiveOrder', 204, 'surprise'))[0]?.message).toContain('a 204 answer carries no body');
    expect(responseViolations(exchange('orderFeed', 200, '{"items":', json))[0]?.message).toContain('the body is not JSON');
    const [violation] = responseViolations(exchange('orderFeed', 200, '{"items":[],"nextCursor":""}', json));
    expect(violation?.message).toContain('the body does not match OrderPage');
    expect(violation?.received).toBe('/nextCursor must NOT have fewer than 1 characters');
    const [many] = responseViolations(exchange('orderFeed', 200, '{"items":[{"id":"nope"}],"nextCursor":null}', json));
    expect(many?.received).toMatch(/^\/items\/0 must have required property 'externalId'; .*; and \d+ more$/);
  });

  it('wants problem+json on a failure and Retry-After on a 429', () => {
    const problem = '{"type":"api.rate_limited","title":"Rate limit exceeded","status":429}';
    const findings = responseViolations(exchange('orderFeed', 429, problem, json)).map((finding) => finding.message);
    expect(findings).toEqual([expect.stringContaining('required header Retry-After missing'), expect.stringContaining('wrong Content-Type')]);
  });
});
