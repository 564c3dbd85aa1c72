/**
 * What the request log does with a batch (D48), on whichever thread writes it: cut the
 * bodies to 16 KiB, read the problem's type and field errors, insert the batch, and prune
 * each tenant to its last `retention` entries a bounded step at a time (SQLite; the
 * PostgreSQL writer is postgres-writer.ts).
 */
import type { FaultMark } from '../faults/plan.ts';
import { listenedSummaries } from './chunks.ts';
import type { EntryPage } from './page-text.ts';
import { BODY_LIMIT, type LogSummaryRow, type NewLogEntry, type RequestLogTable } from './store.ts';

/**
 * At most how many entries one transaction writes on the event loop (a log in memory), so
 * that no request waits long behind one; the writer thread of a log in a file writes a
 * batch (up to 200) in one, since nothing else writes its file (`rowsPerTransaction`).
 */
export const ROWS_PER_TRANSACTION = 50;

/**
 * A request as the capture middleware saw it. The bodies are views, not copies: the
 * request's first 16 KiB, and at least the answer's first 16 KiB (a problem answer
 * whole, so its type and errors can be read); `…Bytes` are their whole lengths.
 */
export interface CapturedRequest
  extends Pick<
    NewLogEntry,
    'tenantId' | 'operation' | 'method' | 'target' | 'status' | 'latencyMs' | 'keyId' | 'requestId' | 'idempotencyKey' | 'replayed' | 'requestContentType' | 'requestBytes' | 'responseContentType' | 'responseBytes'
  > {
  startedAt: number;
  requestBody: Uint8Array | null;
  responseBody: string | Uint8Array | null;
  orderIds: readonly string[];
  tripIds: readonly string[];
  /** The fault injected into the request (D51), or null. */
  fault: FaultMark | null;
  /**
   * The feed page the client got whole, as the log keeps it: `PAGE_IN_BODY` when the answer's
   * body is kept whole and holds it; else its text (`feedPageText`, made on the event loop: one
   * string crosses to the writer thread, not three an item, each of which the structured clone
   * writes apart); null when it is no feed page, no 200, or cut by a fault.
   */
  feedPage: EntryPage;
}

/** API keys (`wbk_…`) and generated admin tokens (`wba_…`) a client put where no key belongs: a query, a body. */
const SECRET = /\bwb[ak]_[A-Za-z0-9_-]{20,}/g;

/** `text` with every key or token it holds replaced: the log never stores one (D48). */
function redacted(text: string): string;
function redacted(text: string | null): string | null;
function redacted(text: string | null): string | null {
  return text !== null && (text.includes('wbk_') || text.includes('wba_')) ? text.replace(SECRET, (secret) => `${secret.slice(0, 4)}[redacted]`) : text;
}

const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A body as text cut to `BODY_LIMIT` bytes of UTF-8 (`bytes` is its whole length). */
function cut(body: string | Uint8Array | null, bytes: number): string | null {
  if (body === null) return null;
  if (typeof body === 'string') {
    if (bytes <= BODY_LIMIT) return body;
    const head = body.slice(0, BODY_LIMIT);
    // A character a byte (ASCII, as JSON answers mostly are): the first BODY_LIMIT characters are the first BODY_LIMIT
    // bytes. Counting them is a third of encoding and decoding them (4 µs against 12 for a feed page).
    return Buffer.byteLength(head) === head.length ? head : Buffer.from(head).subarray(0, BODY_LIMIT).toString('utf8');
  }
  return bufferOf(body).subarray(0, BODY_LIMIT).toString('utf8');
}

/** What `problemOf` answers for an answer that is no problem (most entries): made once. */
const NO_PROBLEM: { readonly type: null; readonly errors: null } = Object.freeze({ type: null, errors: null });

/** The problem `type` and field errors of a problem answer, when it is one. */
function problemOf(request: CapturedRequest): { type: string | null; errors: string | null } {
  const { responseBody: body, responseContentType: contentType } = request;
  if (request.status < 400 || body === null || !contentType?.startsWith('application/problem+json')) return NO_PROBLEM;
  try {
    const parsed = JSON.parse(typeof body === 'string' ? body : bufferOf(body).toString('utf8')) as { type?: unknown; errors?: unknown };
    return {
      type: typeof parsed.type === 'string' ? parsed.type : null,
      // A field error may echo what the client sent, a key in a query among it: redacted like the bodies.
      errors: Array.isArray(parsed.errors) && parsed.errors.length > 0 ? redacted(JSON.stringify(parsed.errors)) : null,
    };
  } catch {
    return NO_PROBLEM;
  }
}

/** The second of the last time `isoTime` wrote, and its text up to the seconds (`2026-11-27T08:01:02`). */
let isoSecond = Number.NaN;
let isoPrefix = '';

/**
 * `new Date(ms).toISOString()`, with the text up to the seconds kept from the last call of
 * the same second: entries come in by the thousand a second, and V8 formats each date with
 * printf (7.6k instructions an entry, against a string join).
 */
export function isoTime(time: number): string {
  const ms = Math.trunc(time);
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    const text = new Date(ms).toISOString();
    // Years outside 0000–9999 are written ±YYYYYY: not cut, and not kept.
    if (text.length !== 24) return text;
    isoSecond = second;
    isoPrefix = text.slice(0, 19);
  }
  const millis = ms - second * 1000;
  return `${isoPrefix}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** Ids as the log keeps them, a JSON array: most requests changed none. */
const idsText = (ids: readonly string[]): string => (ids.length === 0 ? '[]' : JSON.stringify(ids));

/** The row of a captured request. */
export function entryOf(request: CapturedRequest): NewLogEntry {
  const problem = problemOf(request);
  return {
    tenantId: request.tenantId,
    at: isoTime(request.startedAt),
    operation: request.operation,
    method: request.method,
    target: redacted(request.target),
    status: request.status,
    problemType: problem.type,
    fieldErrors: problem.errors,
    latencyMs: Math.round(request.latencyMs * 1000) / 1000,
    keyId: request.keyId,
    requestId: request.requestId,
    idempotencyKey: redacted(request.idempotencyKey),
    replayed: request.replayed,
    requestContentType: request.requestContentType,
    requestBody: redacted(cut(request.requestBody, request.requestBytes)),
    requestBytes: request.requestBytes,
    responseContentType: request.responseContentType,
    responseBody: redacted(cut(request.responseBody, request.responseBytes)),
    responseBytes: request.responseBytes,
    orderIds: idsText(request.orderIds),
    tripIds: idsText(request.tripIds),
    fault: request.fault === null ? null : JSON.stringify(request.fault),
    feedPage: request.feedPage,
  };
}

/** The writing half of the request log over `table` (which keeps each tenant's last `retention`, counted as it writes). */
export function makeLogWriter(table: RequestLogTable, options: { pruneStep: number; rowsPerTransaction?: number }) {
  const { pruneStep } = options;
  const rowsPerTransaction = options.rowsPerTransaction ?? ROWS_PER_TRANSACTION;
  // The tenants that may have chunks to delete.
  const overRetention = new Set<string>();

  return {
    /** Writes `batch`; returns the summaries of the entries of the `listened` tenants, oldest first. */
    write(batch: readonly CapturedRequest[], listened: ReadonlySet<string>): LogSummaryRow[] {
      const summaries: LogSummaryRow[] = [];
      for (let start = 0; start < batch.length; start += rowsPerTransaction) {
        const entries = batch.slice(start, start + rowsPerTransaction).map(entryOf);
        const { firstIds, over } = table.insert(entries);
        for (const tenantId of over) overRetention.add(tenantId);
        summaries.push(...listenedSummaries(entries, firstIds, listened));
      }
      return summaries;
    },
    /** Deletes every entry (the sandbox's reset). */
    clear(): void {
      table.clear();
      overRetention.clear();
    },
    /** One bounded prune step; true while more remain. */
    pruneSome(): boolean {
      const [tenantId] = overRetention;
      if (tenantId === undefined) return false;
      try {
        if (table.deleteStep(tenantId, pruneStep) === 0) overRetention.delete(tenantId);
      } catch (error) {
        overRetention.delete(tenantId);
        throw error;
      }
      return overRetention.size > 0;
    },
  };
}

export type LogWriter = ReturnType<typeof makeLogWriter>;
