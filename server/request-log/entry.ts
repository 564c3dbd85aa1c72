/** A request log entry (D48) as the recorder hands it over and as the reads answer it, on either engine. */
import type { EntryPage } from './page-text.ts';

export type { LoggedPage } from './page-text.ts';

/** How much of a request or response body an entry keeps, in bytes. */
export const BODY_LIMIT = 16 * 1024;

/** The length of an entry's bodies and page, as the batches and chunks count them: a page its body holds (`PAGE_IN_BODY`) adds none. */
export function textLength(entry: { requestBody: { length: number } | null; responseBody: { length: number } | null; feedPage: EntryPage }): number {
  return (entry.requestBody?.length ?? 0) + (entry.responseBody?.length ?? 0) + (typeof entry.feedPage === 'string' ? entry.feedPage.length : 0);
}

/** An entry as the recorder hands it over, bodies already cut to `BODY_LIMIT`. */
export interface NewLogEntry {
  tenantId: string;
  at: string;
  operation: string;
  method: string;
  target: string;
  status: number;
  problemType: string | null;
  fieldErrors: string | null;
  latencyMs: number;
  keyId: string;
  requestId: string;
  idempotencyKey: string | null;
  replayed: boolean;
  requestContentType: string | null;
  requestBody: string | null;
  requestBytes: number;
  responseContentType: string | null;
  responseBody: string | null;
  responseBytes: number;
  orderIds: string;
  tripIds: string;
  /** The fault injected into the request (D51), as JSON, or null. */
  fault: string | null;
  /** The feed page answered, as `[nextCursor, [[id, updatedAtUtc, status], …]]` JSON, `PAGE_IN_BODY` (the response body, kept whole, holds it), or null. */
  feedPage: EntryPage;
}

/** The filters of the list (D48); an absent one keeps everything. */
export interface LogFilter {
  operation?: string;
  /** Statuses from `statusFrom` (inclusive) to `statusFrom + 100` (exclusive), e.g. 400 for `4xx`. */
  statusFrom?: number;
  problemType?: string;
  keyId?: string;
  /** An instant as `YYYY-MM-DDTHH:mm:ss.sssZ`: entries at or after it. */
  since?: string;
}

/** A row of the table. */
export interface LogRow {
  id: number;
  tenant_id: string;
  at: string;
  operation: string;
  method: string;
  target: string;
  status: number;
  problem_type: string | null;
  field_errors: string | null;
  latency_ms: number;
  key_id: string;
  request_id: string;
  idempotency_key: string | null;
  replayed: number;
  request_content_type: string | null;
  request_body: string | null;
  request_bytes: number;
  response_content_type: string | null;
  response_body: string | null;
  response_bytes: number;
  order_ids: string;
  trip_ids: string;
  fault: string | null;
  feed_page: string | null;
}

/** A row without its bodies (the list and the stream). */
export type LogSummaryRow = Omit<LogRow, 'request_content_type' | 'request_body' | 'request_bytes' | 'response_content_type' | 'response_body' | 'response_bytes' | 'feed_page'>;
