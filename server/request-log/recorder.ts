/**
 * The request log's writer (D48): entries wait in memory and are written in one
 * transaction per batch (every `flushMs`, or at once when `batchSize` are waiting, and at
 * close); after each batch the tenants it touched are pruned to their last `retention`
 * entries, a bounded step per event-loop turn; whoever streams a tenant's log hears of
 * its new entries once they are written.
 */
import type { Db } from '../store/db.ts';
import { BODY_LIMIT, type LogSummaryRow, makeRequestLogTable, type NewLogEntry, type RequestLogTable } from '../store/request-log.ts';

/** The default retention per tenant. */
export const DEFAULT_LOG_RETENTION = 10_000;

/** A request as the capture middleware saw it; bodies whole (they are cut when written). */
export interface CapturedRequest
  extends Pick<
    NewLogEntry,
    'tenantId' | 'operation' | 'method' | 'target' | 'status' | 'latencyMs' | 'keyId' | 'requestId' | 'idempotencyKey' | 'replayed' | 'requestContentType' | 'responseContentType'
  > {
  startedAt: number;
  requestBody: Buffer | null;
  responseBody: string | Buffer | null;
  orderIds: readonly string[];
  tripIds: readonly string[];
}

/** What a stream listener hears: the summaries of the tenant's entries just written, oldest first. */
export type LogListener = (entries: LogSummaryRow[]) => void;

/** The request log of one app. */
export interface RequestLog {
  readonly retention: number;
  readonly table: RequestLogTable;
  /** Queues an entry; it is written with the next batch. */
  record(request: CapturedRequest): void;
  /** Writes the waiting entries now (tests and shutdown). */
  flush(): void;
  /** Prunes every tenant written to down to its retention now, all steps at once (tests). */
  pruneNow(): void;
  /** Calls `listener` with each batch of the tenant's new entries; returns the unsubscribe. */
  subscribe(tenantId: string, listener: LogListener): () => void;
  /** Writes what waits and finishes pruning (at shutdown, nothing to stall); later entries are dropped. */
  close(): void;
}

/** `text` as UTF-8 bytes cut to `BODY_LIMIT`, and its whole length in bytes. */
function cut(body: string | Buffer | null): { text: string | null; bytes: number } {
  if (body === null) return { text: null, bytes: 0 };
  if (typeof body === 'string') {
    // Three bytes per UTF-16 unit at most: a short string needs no byte count to fit.
    if (body.length * 3 <= BODY_LIMIT) return { text: body, bytes: Buffer.byteLength(body) };
    const bytes = Buffer.byteLength(body);
    if (bytes <= BODY_LIMIT) return { text: body, bytes };
    return { text: Buffer.from(body.slice(0, BODY_LIMIT)).subarray(0, BODY_LIMIT).toString('utf8'), bytes };
  }
  return { text: body.subarray(0, BODY_LIMIT).toString('utf8'), bytes: body.length };
}

/** The problem `type` and field errors of a problem body, when it is one. */
function problemOf(contentType: string | null, body: string | null): { type: string | null; errors: string | null } {
  if (body === null || !contentType?.startsWith('application/problem+json')) return { type: null, errors: null };
  try {
    const parsed = JSON.parse(body) as { type?: unknown; errors?: unknown };
    return {
      type: typeof parsed.type === 'string' ? parsed.type : null,
      errors: Array.isArray(parsed.errors) && parsed.errors.length > 0 ? JSON.stringify(parsed.errors) : null,
    };
  } catch {
    return { type: null, errors: null };
  }
}

/** The row of a captured request. */
function entryOf(request: CapturedRequest): NewLogEntry {
  const requestBody = cut(request.requestBody);
  const responseBody = cut(request.responseBody);
  // The problem is read from the whole answer: a cut one would not parse.
  const whole = typeof request.responseBody === 'string' ? request.responseBody : (request.responseBody?.toString('utf8') ?? null);
  const problem = request.status >= 400 ? problemOf(request.responseContentType, whole) : { type: null, errors: null };
  return {
    tenantId: request.tenantId,
    at: new Date(request.startedAt).toISOString(),
    operation: request.operation,
    method: request.method,
    target: request.target,
    status: request.status,
    problemType: problem.type,
    fieldErrors: problem.errors,
    latencyMs: Math.round(request.latencyMs * 1000) / 1000,
    keyId: request.keyId,
    requestId: request.requestId,
    idempotencyKey: request.idempotencyKey,
    replayed: request.replayed,
    requestContentType: request.requestContentType,
    requestBody: requestBody.text,
    requestBytes: requestBody.bytes,
    responseContentType: request.responseContentType,
    responseBody: responseBody.text,
    responseBytes: responseBody.bytes,
    orderIds: JSON.stringify(request.orderIds),
    tripIds: JSON.stringify(request.tripIds),
  };
}

/** The summary row of an entry just written as `id`. */
function summaryOf(id: number, entry: NewLogEntry): LogSummaryRow {
  return {
    id,
    tenant_id: entry.tenantId,
    at: entry.at,
    operation: entry.operation,
    method: entry.method,
    target: entry.target,
    status: entry.status,
    problem_type: entry.problemType,
    field_errors: entry.fieldErrors,
    latency_ms: entry.latencyMs,
    key_id: entry.keyId,
    request_id: entry.requestId,
    idempotency_key: entry.idempotencyKey,
    replayed: entry.replayed ? 1 : 0,
    order_ids: entry.orderIds,
    trip_ids: entry.tripIds,
  };
}

/** A request log over `db` keeping the last `retention` entries of each tenant (at least 1). */
export function makeRequestLog(
  db: Db,
  options: { retention?: number; flushMs?: number; batchSize?: number; pruneStep?: number; onError?: (error: unknown) => void } = {},
): RequestLog {
  const table = makeRequestLogTable(db);
  const retention = Math.max(1, options.retention ?? DEFAULT_LOG_RETENTION);
  const flushMs = options.flushMs ?? 50;
  const batchSize = options.batchSize ?? 200;
  const pruneStep = options.pruneStep ?? 500;
  const onError = options.onError ?? ((error: unknown) => process.stderr.write(`request log: ${error instanceof Error ? error.message : String(error)}\n`));
  let waiting: CapturedRequest[] = [];
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const listeners = new Map<string, Set<LogListener>>();
  // An estimate of each tenant's entry count (from a count on first write, then kept up), to prune only when over.
  const counts = new Map<string, number>();
  const overRetention = new Set<string>();
  let pruning: NodeJS.Immediate | null = null;

  /** One bounded prune step of one tenant; true when the tenant is within its retention. */
  function pruneStepOf(tenantId: string): boolean {
    const upTo = table.cutoff(tenantId, retention);
    if (upTo === undefined) {
      counts.set(tenantId, table.count(tenantId));
      return true;
    }
    const deleted = table.deleteStep(tenantId, upTo, pruneStep);
    if (deleted < pruneStep) {
      counts.set(tenantId, retention);
      return true;
    }
    return false;
  }

  function pruneSome(): void {
    pruning = null;
    if (!db.open) return;
    const [tenantId] = overRetention;
    if (tenantId === undefined) return;
    try {
      if (pruneStepOf(tenantId)) overRetention.delete(tenantId);
    } catch (error) {
      overRetention.delete(tenantId);
      onError(error);
    }
    if (overRetention.size > 0) pruning = setImmediate(pruneSome);
  }

  function flush(): void {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (waiting.length === 0 || !db.open) return;
    const batch = waiting;
    waiting = [];
    let entries: NewLogEntry[];
    let ids: number[];
    try {
      entries = batch.map(entryOf);
      ids = table.insert(entries);
    } catch (error) {
      onError(error);
      return;
    }
    const written = new Map<string, { count: number; rows: LogSummaryRow[] }>();
    entries.forEach((entry, i) => {
      const tenant = written.get(entry.tenantId) ?? { count: 0, rows: [] };
      written.set(entry.tenantId, tenant);
      tenant.count += 1;
      if (listeners.has(entry.tenantId)) tenant.rows.push(summaryOf(ids[i]!, entry));
    });
    for (const [tenantId, { count, rows }] of written) {
      const known = counts.get(tenantId);
      const total = known === undefined ? table.count(tenantId) : known + count;
      counts.set(tenantId, total);
      if (total > retention) overRetention.add(tenantId);
      for (const listener of rows.length > 0 ? (listeners.get(tenantId) ?? []) : []) {
        try {
          listener(rows);
        } catch (error) {
          onError(error);
        }
      }
    }
    if (overRetention.size > 0 && pruning === null) pruning = setImmediate(pruneSome);
  }

  return {
    retention,
    table,
    record(request) {
      if (closed) return;
      waiting.push(request);
      if (waiting.length >= batchSize) flush();
      else if (timer === null) {
        timer = setTimeout(flush, flushMs);
        timer.unref();
      }
    },
    flush,
    pruneNow() {
      flush();
      if (pruning !== null) clearImmediate(pruning);
      pruning = null;
      for (const tenantId of [...overRetention]) {
        while (!pruneStepOf(tenantId));
        overRetention.delete(tenantId);
      }
    },
    subscribe(tenantId, listener) {
      const set = listeners.get(tenantId) ?? new Set();
      set.add(listener);
      listeners.set(tenantId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(tenantId) === set) listeners.delete(tenantId);
      };
    },
    close() {
      if (db.open) this.pruneNow();
      closed = true;
    },
  };
}
