/**
 * The request log's table (D48), in a database file of its own beside the sandbox's: its
 * writes would otherwise make every read of the sandbox's connection start over with an
 * empty page cache and a WAL to search (a third of the feed's throughput, `npm run bench`).
 * Batches of entries written in one transaction, pages newest first by id, one entry, the
 * entries after an id, and pruning in bounded steps. Commits do not fsync (WAL, synchronous
 * NORMAL): the log may lose its last batches to a power cut.
 */
import { type Db, openDatabase } from '../store/db.ts';
import { type Sql, statement } from '../store/sql.ts';

/** How much of a request or response body an entry keeps, in bytes. */
export const BODY_LIMIT = 16 * 1024;

/** A feed page as the request log keeps it (D48): its nextCursor and each item's id, updatedAtUtc and status, flat (`FeedRows.keys`). */
export interface LoggedPage {
  nextCursor: string | null;
  keys: readonly string[];
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
  /** The feed page answered, as `[nextCursor, [[id, updatedAtUtc, status], …]]` JSON, or null. */
  feedPage: string | null;
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

/** The columns of a summary row (no bodies), as both engines select them. */
export const SUMMARY_COLUMNS =
  'id, tenant_id, at, operation, method, target, status, problem_type, field_errors, latency_ms, key_id, request_id, idempotency_key, replayed, order_ids, trip_ids, fault';

/** A row without its bodies (the list and the stream). */
export type LogSummaryRow = Omit<LogRow, 'request_content_type' | 'request_body' | 'request_bytes' | 'response_content_type' | 'response_body' | 'response_bytes' | 'feed_page'>;

/** The request log's database file for the sandbox database `file` (`sandbox.db` → `sandbox.requests.db`); `:memory:` stays in memory. */
export function requestLogFile(file: string): string {
  return file === ':memory:' || file === '' ? ':memory:' : `${file.replace(/\.db$/, '')}.requests.db`;
}

/**
 * The log file's page size. A feed page's entry (its body cut at 16 KiB, and the page) spans
 * five pages of SQLite's default 4 KiB and two of 16 KiB: writing and later pruning one cost
 * the writer thread ~104 µs of CPU at 4 KiB and ~65 µs at 16 KiB (200-entry batches at the
 * retention); a caught-up poll's entry costs the same at both (~11 µs). 32 and 64 KiB cost more.
 */
export const LOG_PAGE_SIZE = 16384;

/** Opens (creating if needed) the request log's database `file`, commits unsynced. */
export function openRequestLogDatabase(file: string): Db {
  const db = openDatabase(file, 'request-log', { pageSize: LOG_PAGE_SIZE });
  db.pragma('synchronous = NORMAL');
  return db;
}

// An absent filter is a null that keeps every row; the casts type it on PostgreSQL.
const PAGE = statement(`SELECT ${SUMMARY_COLUMNS} FROM request_log
  WHERE tenant_id = ? AND id < ?
    AND (CAST(? AS text) IS NULL OR operation = ?)
    AND (CAST(? AS integer) IS NULL OR (status >= ? AND status < ? + 100))
    AND (CAST(? AS text) IS NULL OR problem_type = ?)
    AND (CAST(? AS text) IS NULL OR key_id = ?)
    AND (CAST(? AS text) IS NULL OR at >= ?)
  ORDER BY id DESC LIMIT ?`);
const ONE = statement('SELECT * FROM request_log WHERE tenant_id = ? AND id = ?');
const AFTER = statement(`SELECT ${SUMMARY_COLUMNS} FROM request_log WHERE tenant_id = ? AND id > ? ORDER BY id LIMIT ?`);
const COUNT = statement('SELECT count(*) AS n FROM request_log WHERE tenant_id = ?');

/** The arguments of `PAGE`. */
function pageArgs(tenantId: string, filter: LogFilter, before: number, limit: number): unknown[] {
  const twice = (value: string | number | undefined) => [value ?? null, value ?? null];
  const statusFrom = filter.statusFrom ?? null;
  return [tenantId, before, ...twice(filter.operation), statusFrom, statusFrom, statusFrom, ...twice(filter.problemType), ...twice(filter.keyId), ...twice(filter.since), limit];
}

/** The reads the control plane makes of the log (D48), over the store contract. */
export function makeRequestLogReads(sql: Sql) {
  return {
    /** Up to `limit` entries of the tenant older than `before`, newest first, that pass `filter`. */
    page: (tenantId: string, filter: LogFilter, before: number, limit: number): Promise<LogSummaryRow[]> => sql.all<LogSummaryRow>(PAGE, pageArgs(tenantId, filter, before, limit)),
    /** The tenant's entry `id`, bodies included, or undefined. */
    get: (tenantId: string, id: number): Promise<LogRow | undefined> => sql.one<LogRow>(ONE, [tenantId, id]),
    /** Up to `limit` entries of the tenant after `id`, oldest first (a stream resuming). */
    after: (tenantId: string, id: number, limit: number): Promise<LogSummaryRow[]> => sql.all<LogSummaryRow>(AFTER, [tenantId, id, limit]),
  };
}

export type RequestLogReads = ReturnType<typeof makeRequestLogReads>;

/** Whether `entry` leaves every column `insertPlain` omits at the table's default (001-request-log.sql: null, 0, '[]'). */
export function isPlain(entry: NewLogEntry): boolean {
  return entry.problemType === null && entry.fieldErrors === null && entry.idempotencyKey === null && !entry.replayed && entry.requestContentType === null
    && entry.requestBody === null && entry.requestBytes === 0 && entry.orderIds === '[]' && entry.tripIds === '[]' && entry.fault === null;
}

// requirement: D48
/** Request-log statements on SQLite, prepared once: the writer's, on whichever thread writes. */
export function makeRequestLogTable(db: Db) {
  // Positional parameters: better-sqlite3 binds a named one by looking its name up on the object, each row.
  const insert = db.prepare(`INSERT INTO request_log (tenant_id, at, operation, method, target, status, problem_type, field_errors,
    latency_ms, key_id, request_id, idempotency_key, replayed, request_content_type, request_body, request_bytes,
    response_content_type, response_body, response_bytes, order_ids, trip_ids, fault, feed_page)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  // A plain entry (most: a read answered without a problem, a fault or a body sent) leaves ten columns at their
  // defaults: binding each value costs better-sqlite3 a conversion and SQLite a copy (a third of an insert's work).
  const insertPlain = db.prepare(`INSERT INTO request_log (tenant_id, at, operation, method, target, status, latency_ms, key_id,
    request_id, response_content_type, response_body, response_bytes, feed_page) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const page = db.prepare<unknown[], LogSummaryRow>(PAGE.sqlite);
  const one = db.prepare<[string, number], LogRow>(ONE.sqlite);
  const after = db.prepare<[string, number, number], LogSummaryRow>(AFTER.sqlite);
  const count = db.prepare<[string], { n: number }>(COUNT.sqlite);
  // The tenant's oldest entries, as a range of its ids: the id of the last one to go (the walk reads only the
  // entries it passes, where an OFFSET past the entries kept would read all of them), then every id up to it.
  const nthOldest = db.prepare<[string, number], number>('SELECT id FROM request_log WHERE tenant_id = ? ORDER BY id LIMIT 1 OFFSET ?').pluck();
  const deleteThrough = db.prepare('DELETE FROM request_log WHERE tenant_id = ? AND id <= ?');
  const deleteTenant = db.prepare('DELETE FROM request_log WHERE tenant_id = ?');
  const deleteOldest = db.transaction((tenantId: string, limit: number): number => {
    if (limit <= 0) return 0;
    const last = nthOldest.get(tenantId, limit - 1);
    return (last === undefined ? deleteTenant.run(tenantId) : deleteThrough.run(tenantId, last)).changes;
  });
  const clear = db.prepare('DELETE FROM request_log');
  const insertAll = db.transaction((entries: NewLogEntry[]): number[] =>
    entries.map((e) =>
      Number(
        (isPlain(e)
          ? insertPlain.run(e.tenantId, e.at, e.operation, e.method, e.target, e.status, e.latencyMs, e.keyId, e.requestId, e.responseContentType, e.responseBody, e.responseBytes, e.feedPage)
          : insert.run(
              e.tenantId, e.at, e.operation, e.method, e.target, e.status, e.problemType, e.fieldErrors, e.latencyMs, e.keyId, e.requestId,
              e.idempotencyKey, e.replayed ? 1 : 0, e.requestContentType, e.requestBody, e.requestBytes, e.responseContentType, e.responseBody,
              e.responseBytes, e.orderIds, e.tripIds, e.fault, e.feedPage,
            )
        ).lastInsertRowid,
      ),
    ),
  );

  return {
    /** Writes `entries` in one transaction; returns their ids in order. */
    insert(entries: NewLogEntry[]): number[] {
      return insertAll(entries);
    },
    /** Up to `limit` entries of the tenant older than `before`, newest first, that pass `filter`. */
    page(tenantId: string, filter: LogFilter, before: number, limit: number): LogSummaryRow[] {
      return page.all(...pageArgs(tenantId, filter, before, limit));
    },
    /** The tenant's entry `id`, bodies included, or undefined. */
    get(tenantId: string, id: number): LogRow | undefined {
      return one.get(tenantId, id);
    },
    /** Up to `limit` entries of the tenant after `id`, oldest first (a stream resuming). */
    after(tenantId: string, id: number, limit: number): LogSummaryRow[] {
      return after.all(tenantId, id, limit);
    },
    /** How many entries the tenant has. */
    count(tenantId: string): number {
      return count.get(tenantId)!.n;
    },
    /** Deletes the tenant's `limit` oldest entries (fewer when it has fewer); returns how many. */
    deleteStep(tenantId: string, limit: number): number {
      return deleteOldest(tenantId, limit);
    },
    /** Deletes every entry (the sandbox's reset, D38). */
    clear(): void {
      clear.run();
    },
  };
}

export type RequestLogTable = ReturnType<typeof makeRequestLogTable>;
