/** What the writer makes of a captured request that is not the database's: the time text. */
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT } from './store.ts';
import { type CapturedRequest, entryOf, isoTime } from './writer.ts';

describe('isoTime', () => {
  it('writes what toISOString writes, within one second and across seconds, years and odd values', () => {
    const times: number[] = [];
    for (let n = 0; n < 2000; n++) times.push(Math.floor(Math.random() * 4_102_444_800_000));
    const now = Date.now();
    for (let n = 0; n < 1200; n++) times.push(now + n);
    times.push(0, 999, 1000, 1001, 1_800_000_000_000.75, -1, -62_198_755_200_000, 253_402_300_799_999, 253_402_300_800_000, 8.64e15);
    for (const time of times) expect(isoTime(time)).toBe(new Date(time).toISOString());
  });
});

describe('entryOf', () => {
  const answered = (body: string): CapturedRequest => ({
    tenantId: 't', operation: 'orderFeed', method: 'GET', target: '/api/v1/integration/orders', status: 200, latencyMs: 1, keyId: 'key_x', requestId: 'r',
    idempotencyKey: null, replayed: false, requestContentType: null, requestBytes: 0, responseContentType: 'application/json', responseBytes: Buffer.byteLength(body),
    startedAt: 0, requestBody: null, responseBody: body, orderIds: [], tripIds: [], fault: null, feedPage: null,
  });
  const kept = (body: string) => entryOf(answered(body)).responseBody;

  it('cuts an answer at BODY_LIMIT bytes of UTF-8, one of one-byte characters and one of two-byte ones alike', () => {
    expect(kept('x'.repeat(BODY_LIMIT))).toBe('x'.repeat(BODY_LIMIT));
    expect(kept('x'.repeat(BODY_LIMIT + 3000))).toBe('x'.repeat(BODY_LIMIT));
    // 'é' is two bytes: half as many characters fit, and a character the limit splits is one U+FFFD.
    expect(kept('é'.repeat(BODY_LIMIT))).toBe('é'.repeat(BODY_LIMIT / 2));
    expect(kept(`x${'é'.repeat(BODY_LIMIT)}`)).toBe(`x${'é'.repeat(BODY_LIMIT / 2 - 1)}\uFFFD`);
    // One two-byte character after the first BODY_LIMIT - 1 one-byte ones.
    expect(kept(`${'x'.repeat(BODY_LIMIT - 1)}é${'x'.repeat(100)}`)).toBe(`${'x'.repeat(BODY_LIMIT - 1)}\uFFFD`);
  });
});
