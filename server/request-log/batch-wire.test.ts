/** A batch packed for the writer thread arrives as it left: every field of every entry, in order. */
import { describe, expect, it } from 'vitest';
import { FIELD_COUNT, packBatch, unpackBatch } from './batch-wire.ts';
import { feedPageText } from './page-text.ts';
import type { CapturedRequest } from './writer.ts';

/** An entry with every field set (`Required`: a field added to CapturedRequest must be added here too). */
function entry(n: number): Required<CapturedRequest> {
  return {
    tenantId: `ten_${n}`,
    operation: n % 2 === 0 ? 'orderFeed' : 'attachPayment',
    method: n % 2 === 0 ? 'GET' : 'POST',
    target: `/api/v1/integration/orders?limit=${n}`,
    status: 200 + n,
    latencyMs: 1.25 + n,
    keyId: `key_${n}`,
    requestId: `req_${n}`,
    idempotencyKey: n % 2 === 0 ? null : `idem-${n}`,
    replayed: n % 3 === 0,
    requestContentType: n % 2 === 0 ? null : 'application/json',
    requestBytes: 10 * n,
    responseContentType: 'application/json; charset=utf-8',
    responseBytes: 20 * n,
    startedAt: 1_800_000_000_000 + n,
    requestBody: n % 2 === 0 ? null : new Uint8Array([123, 125, n]),
    responseBody: n % 2 === 0 ? `{"n":${n}}` : new Uint8Array([n]),
    orderIds: n % 2 === 0 ? [] : [`ord_${n}`],
    tripIds: [`trp_${n}`, `trp_${n + 1}`],
    fault: n % 2 === 0 ? null : { fault: 'latency', source: 'rule', ruleId: `flt_${n}`, when: 'before', latencyMs: n },
    // A page with items and a cursor, a caught-up one, none.
    feedPage: n % 4 === 0 ? `["eyJ.${n}",[["o${n}","2026-01-01T00:00:00.000Z","New"]]]` : n % 4 === 2 ? '[null,[]]' : null,
  } as Required<CapturedRequest>;
}

describe('the batch wire format', () => {
  it('carries every field of every entry across a structured clone, as a flat array', () => {
    const batch = [entry(0), entry(1), entry(2), entry(3), entry(4)];
    const packed = packBatch(batch);
    expect(packed).toHaveLength(batch.length * FIELD_COUNT);
    expect(packed.every((value) => value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array || 'fault' in value)).toBe(true);
    expect(unpackBatch(structuredClone(packed))).toEqual(batch);
  });

  it('has one value per field of an entry', () => {
    expect(FIELD_COUNT).toBe(Object.keys(entry(0)).length);
  });

  it('refuses a batch cut short', () => {
    expect(() => unpackBatch(packBatch([entry(1)]).slice(1))).toThrow(/multiple of 21/);
  });
});

describe('the feed page text', () => {
  it('is JSON.stringify’s text of [nextCursor, items] for the keys the sandbox writes', () => {
    const items = [['0b0c6c1e-1f0e-4f7e-9b1a-3c2d1e0f9a8b', '2026-11-27T08:00:00.000Z', 'New'], ['trp_x', '2026-11-27T08:00:00.001Z', 'OnHold']];
    for (const nextCursor of ['eyJ.abc_-', null]) expect(feedPageText({ nextCursor, keys: items.flat() })).toBe(JSON.stringify([nextCursor, items]));
    expect(feedPageText({ nextCursor: null, keys: [] })).toBe('[null,[]]');
  });
});
