/**
 * A batch of captured requests as it crosses to the writer thread (D48): one flat array of
 * their fields, entry after entry, not an array of objects. `postMessage` copies an object
 * by writing each of its property names and reading them back on the other side; a batch
 * of 200 entries of 21 fields made 4,200 names to write, hash and look up again. The values
 * are the same ones, in the same order on both sides (`FIELD_COUNT` apart).
 */
import type { CapturedRequest } from './writer.ts';

/** How many values one entry takes in a packed batch. */
export const FIELD_COUNT = 21;

/** `batch` packed for `postMessage`. */
export function packBatch(batch: readonly CapturedRequest[]): unknown[] {
  const packed: unknown[] = [];
  for (const e of batch) {
    packed.push(
      e.tenantId, e.operation, e.method, e.target, e.status, e.latencyMs, e.keyId, e.requestId, e.idempotencyKey, e.replayed, e.requestContentType,
      e.requestBytes, e.responseContentType, e.responseBytes, e.startedAt, e.requestBody, e.responseBody,
      // Most entries changed nothing: null crosses cheaper than an empty array.
      e.orderIds.length === 0 ? null : e.orderIds, e.tripIds.length === 0 ? null : e.tripIds, e.fault, e.feedPage,
    );
  }
  return packed;
}

/** The batch `packBatch` packed. */
export function unpackBatch(packed: readonly unknown[]): CapturedRequest[] {
  if (packed.length % FIELD_COUNT !== 0) throw new Error(`a packed batch holds a multiple of ${FIELD_COUNT} values, not ${packed.length}`);
  const batch: CapturedRequest[] = [];
  for (let at = 0; at < packed.length; at += FIELD_COUNT) {
    const v = packed.slice(at, at + FIELD_COUNT) as unknown[];
    batch.push({
      tenantId: v[0] as string,
      operation: v[1] as string,
      method: v[2] as string,
      target: v[3] as string,
      status: v[4] as number,
      latencyMs: v[5] as number,
      keyId: v[6] as string,
      requestId: v[7] as string,
      idempotencyKey: v[8] as string | null,
      replayed: v[9] as boolean,
      requestContentType: v[10] as string | null,
      requestBytes: v[11] as number,
      responseContentType: v[12] as string | null,
      responseBytes: v[13] as number,
      startedAt: v[14] as number,
      requestBody: v[15] as Uint8Array | null,
      responseBody: v[16] as string | Uint8Array | null,
      orderIds: (v[17] as string[] | null) ?? [],
      tripIds: (v[18] as string[] | null) ?? [],
      fault: v[19] as CapturedRequest['fault'],
      feedPage: v[20] as CapturedRequest['feedPage'],
    });
  }
  return batch;
}
