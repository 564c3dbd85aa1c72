/**
 * How the request log keeps its entries (D48, D85): in chunks, a row per batch and tenant
 * (on SQLite, cut where its texts pass `CHUNK_CHARS`), on both engines. A chunk holds its
 * entries' summaries as one JSON array of tuples, and their bodies and feed pages as one
 * text, each entry's after the one before; each tuple says how many UTF-16 code units of
 * that text its three take (-1 for none, `SAME_TEXT` for the text of the entry before,
 * `PAGE_IN_BODY` for a page its response body holds, page-text.ts), and
 * leaves a repeatable field that holds what the entry before held as `SAME`. A row per entry
 * cost the writer four B-tree operations and 13–23 bound values an entry (the table and its
 * tenant index, then deleting from both when pruned); a chunk costs them once.
 *
 * A chunk's entries have consecutive ids from its `first_id`, and consecutive places in the
 * tenant's own sequence from its `first_seq`. A tenant keeps the entries whose place is at
 * least its `kept_from` (`request_log_tenants`), which the writer moves up to keep exactly
 * its last `retention`; a chunk whose entries all fell below it is deleted. The reads here
 * decode the chunks and answer the rows `store.ts` describes.
 */
import { type Sql, statement } from '../store/sql.ts';
import { type LogFilter, type LogRow, type LogSummaryRow, type NewLogEntry, textLength } from './entry.ts';
import { PAGE_IN_BODY, pageTextOfBody } from './page-text.ts';

/** An entry's summary as a chunk keeps it: the columns of `LogSummaryRow` but its id and tenant, then its bodies' content types, lengths in bytes and in the chunk's text. */
export type EntryTuple = [
  at: string, operation: string, method: string, target: string, status: number, problemType: string | null, fieldErrors: string | null,
  latencyMs: number, keyId: string, requestId: string, idempotencyKey: string | null, replayed: 0 | 1, orderIds: string, tripIds: string, fault: string | null,
  requestContentType: string | null, requestBytes: number, responseContentType: string | null, responseBytes: number,
  requestChars: number, responseChars: number, pageChars: number,
];

/** Where each of a tuple's fields is. */
const At = {
  At: 0, Operation: 1, Method: 2, Target: 3, Status: 4, ProblemType: 5, FieldErrors: 6, LatencyMs: 7, KeyId: 8, RequestId: 9, IdempotencyKey: 10, Replayed: 11,
  OrderIds: 12, TripIds: 13, Fault: 14, RequestContentType: 15, RequestBytes: 16, ResponseContentType: 17, ResponseBytes: 18, RequestChars: 19, ResponseChars: 20, PageChars: 21,
} as const;

/**
 * The fields a tuple may leave as `SAME` when they hold what the entry before held: texts
 * (or null) of which a client's calls repeat most — its path and query, its key, the
 * content type, the operation — so that a poller's entries take a fifth of the bytes.
 */
const REPEATABLE = [
  At.Operation, At.Method, At.Target, At.ProblemType, At.FieldErrors, At.KeyId, At.IdempotencyKey, At.OrderIds, At.TripIds, At.Fault,
  At.RequestContentType, At.ResponseContentType,
] as const;

/** A repeatable field holding what the entry before held (never the value of one: they are texts or null). */
const SAME = 0;
/** A body or page that is the same text as the entry before's (its length otherwise, -1 for none). */
const SAME_TEXT = -2;
/** Where the lengths of an entry's request body, response body and page are, in that order. */
const TEXTS = [At.RequestChars, At.ResponseChars, At.PageChars] as const;

/** A chunk as the writer stores it. */
export interface EncodedChunk {
  entries: string;
  bodies: string;
}

// requirement: D85
/**
 * The chunk of `entries` (one tenant's, oldest first). `storable` is applied to each body
 * first (PostgreSQL's text holds no NUL); it must keep the text's length.
 */
export function encodeChunk(entries: readonly NewLogEntry[], storable: (text: string) => string = (text) => text): EncodedChunk {
  const tuples = new Array<unknown[]>(entries.length);
  const bodies: string[] = [];
  let before: unknown[] | undefined;
  let texts: (string | null)[] = [null, null, null];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const t: unknown[] = [
      e.at, e.operation, e.method, e.target, e.status, e.problemType, e.fieldErrors, e.latencyMs, e.keyId, e.requestId, e.idempotencyKey,
      e.replayed ? 1 : 0, e.orderIds, e.tripIds, e.fault, e.requestContentType, e.requestBytes, e.responseContentType, e.responseBytes, -1, -1, -1,
    ];
    const kept = [...t];
    if (before !== undefined) for (const field of REPEATABLE) if (t[field] === before[field]) t[field] = SAME;
    const mine = [e.requestBody, e.responseBody, e.feedPage === PAGE_IN_BODY ? null : e.feedPage];
    if (e.feedPage === PAGE_IN_BODY) t[At.PageChars] = PAGE_IN_BODY;
    for (let k = 0; k < 3; k++) {
      const text = mine[k]!;
      if (text === null) continue;
      if (text === texts[k]) t[TEXTS[k]!] = SAME_TEXT;
      else {
        t[TEXTS[k]!] = text.length;
        bodies.push(storable(text));
      }
    }
    tuples[i] = t;
    before = kept;
    texts = mine;
  }
  return { entries: JSON.stringify(tuples), bodies: bodies.join('') };
}

/**
 * How many characters of bodies and pages a chunk holds on SQLite before the next entry
 * starts another (an entry alone may hold more). A batch of 13 feed pages of 50 written as
 * one chunk of ~330 K characters cost the writer 84–100 µs of CPU an entry, against ~70 as a
 * chunk each: texts past 128 KiB are made in V8's large-object space, and each is copied
 * whole once more to join it.
 */
export const CHUNK_CHARS = 32 * 1024;

/** `entries` (one tenant's) cut into runs of consecutive entries of at most `CHUNK_CHARS` of texts each, or of one entry. */
export function chunkGroups(entries: readonly NewLogEntry[]): NewLogEntry[][] {
  const groups: NewLogEntry[][] = [];
  let group: NewLogEntry[] = [];
  let chars = 0;
  for (const e of entries) {
    const mine = textLength(e);
    if (group.length > 0 && chars + mine > CHUNK_CHARS) {
      groups.push(group);
      group = [];
      chars = 0;
    }
    group.push(e);
    chars += mine;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** A chunk's tuples with every `SAME` replaced by what it stands for. */
function tuplesOf(entries: string): EntryTuple[] {
  const tuples = JSON.parse(entries) as unknown[][];
  for (let i = 1; i < tuples.length; i++) {
    const t = tuples[i]!;
    const before = tuples[i - 1]!;
    for (const field of REPEATABLE) if (t[field] === SAME) t[field] = before[field];
  }
  return tuples as EntryTuple[];
}

/** The summary row of the entry `id` of the tenant, kept as `t`. */
function summaryRowOf(tenantId: string, id: number, t: EntryTuple): LogSummaryRow {
  return {
    id, tenant_id: tenantId, at: t[At.At], operation: t[At.Operation], method: t[At.Method], target: t[At.Target], status: t[At.Status],
    problem_type: t[At.ProblemType], field_errors: t[At.FieldErrors], latency_ms: t[At.LatencyMs], key_id: t[At.KeyId], request_id: t[At.RequestId],
    idempotency_key: t[At.IdempotencyKey], replayed: t[At.Replayed], order_ids: t[At.OrderIds], trip_ids: t[At.TripIds], fault: t[At.Fault],
  };
}

/** The whole row of the chunk's `index`-th entry, its bodies cut from the chunk's `bodies`. */
function rowOf(tenantId: string, chunk: { first_id: number; bodies: string }, tuples: readonly EntryTuple[], index: number): LogRow {
  // Where each of the entry's three texts is in `bodies` ([start, end], or null for none), walking from the chunk's first entry.
  let at = 0;
  const spans: ([number, number] | null)[] = [null, null, null];
  for (let i = 0; i <= index; i++) {
    const t = tuples[i]!;
    for (let k = 0; k < 3; k++) {
      const chars = t[TEXTS[k]!];
      if (chars === SAME_TEXT) continue;
      spans[k] = chars < 0 ? null : [at, at + chars];
      if (chars > 0) at += chars;
    }
  }
  const [requestBody = null, responseBody = null, kept = null] = spans.map((span) => (span === null ? null : chunk.bodies.slice(span[0], span[1])));
  const t = tuples[index]!;
  const feedPage = t[At.PageChars] === PAGE_IN_BODY && responseBody !== null ? pageTextOfBody(responseBody) : kept;
  return {
    ...summaryRowOf(tenantId, chunk.first_id + index, t),
    request_content_type: t[At.RequestContentType], request_body: requestBody, request_bytes: t[At.RequestBytes],
    response_content_type: t[At.ResponseContentType], response_body: responseBody, response_bytes: t[At.ResponseBytes], feed_page: feedPage,
  };
}

/** `entries` by tenant, each tenant's in their order. */
export function byTenant(entries: readonly NewLogEntry[]): Map<string, NewLogEntry[]> {
  const tenants = new Map<string, NewLogEntry[]>();
  for (const entry of entries) {
    const mine = tenants.get(entry.tenantId);
    if (mine === undefined) tenants.set(entry.tenantId, [entry]);
    else mine.push(entry);
  }
  return tenants;
}

/**
 * The summary rows of the `listened` tenants' `entries`, just written with each tenant's
 * entries numbered from its id in `firstIds`, oldest first: what a stream hears of them.
 */
export function listenedSummaries(entries: readonly NewLogEntry[], firstIds: ReadonlyMap<string, number>, listened: ReadonlySet<string>): LogSummaryRow[] {
  const summaries: LogSummaryRow[] = [];
  if (listened.size === 0) return summaries;
  for (const [tenantId, mine] of byTenant(entries)) {
    if (!listened.has(tenantId)) continue;
    const firstId = firstIds.get(tenantId)!;
    mine.forEach((e, i) => summaries.push({
      id: firstId + i, tenant_id: tenantId, at: e.at, operation: e.operation, method: e.method, target: e.target, status: e.status,
      problem_type: e.problemType, field_errors: e.fieldErrors, latency_ms: e.latencyMs, key_id: e.keyId, request_id: e.requestId,
      idempotency_key: e.idempotencyKey, replayed: e.replayed ? 1 : 0, order_ids: e.orderIds, trip_ids: e.tripIds, fault: e.fault,
    }));
  }
  return summaries;
}

/** Whether the entry kept as `t` passes `filter`. */
function passes(t: EntryTuple, filter: LogFilter): boolean {
  return (filter.operation === undefined || t[At.Operation] === filter.operation)
    && (filter.statusFrom === undefined || (t[At.Status] >= filter.statusFrom && t[At.Status] < filter.statusFrom + 100))
    && (filter.problemType === undefined || t[At.ProblemType] === filter.problemType)
    && (filter.keyId === undefined || t[At.KeyId] === filter.keyId)
    && (filter.since === undefined || t[At.At] >= filter.since);
}

/** How many chunks one read takes; a list reads on while the reads come back full and it wants more. */
const CHUNKS_A_READ = 16;

// Only the chunks still holding a kept entry: one whose last entry is below the tenant's `kept_from` is pruned, or soon will be.
const KEPT = 'FROM request_log_chunk c JOIN request_log_tenants t ON t.tenant_id = c.tenant_id WHERE c.tenant_id = ? AND c.last_seq >= t.kept_from';
const NEWEST_BEFORE = statement(`SELECT c.first_id, c.first_seq, c.entries, t.kept_from ${KEPT} AND c.first_id < ? ORDER BY c.last_id DESC LIMIT ${CHUNKS_A_READ}`);
const OLDEST_AFTER = statement(`SELECT c.first_id, c.last_id, c.first_seq, c.entries, t.kept_from ${KEPT} AND c.last_id > ? ORDER BY c.last_id LIMIT ${CHUNKS_A_READ}`);
const HOLDING = statement(`SELECT c.first_id, c.first_seq, c.entries, c.bodies, t.kept_from ${KEPT} AND c.last_id >= ? AND c.first_id <= ?`);
const LATEST = statement('SELECT coalesce(max(last_id), 0) AS id FROM request_log_chunk WHERE tenant_id = ?');

/** A chunk as the reads select it. */
interface ChunkRow {
  first_id: number;
  first_seq: number;
  entries: string;
  kept_from: number;
}

/** The entries of `chunk` the tenant keeps, as `[id, tuple]`, oldest first. */
function keptOf(chunk: ChunkRow): [number, EntryTuple][] {
  const tuples = tuplesOf(chunk.entries);
  const skipped = Math.max(0, chunk.kept_from - chunk.first_seq);
  return tuples.slice(skipped).map((t, i) => [chunk.first_id + skipped + i, t]);
}

/** The reads the control plane makes of the log (D48), over the store contract: the same on both engines. */
export function makeRequestLogReads(sql: Sql) {
  return {
    /** Up to `limit` entries of the tenant older than `before`, newest first, that pass `filter`. */
    async page(tenantId: string, filter: LogFilter, before: number, limit: number): Promise<LogSummaryRow[]> {
      const rows: LogSummaryRow[] = [];
      for (let below = before; rows.length < limit; ) {
        const chunks = await sql.all<ChunkRow>(NEWEST_BEFORE, [tenantId, below]);
        for (const chunk of chunks) {
          const kept = keptOf(chunk);
          for (let i = kept.length - 1; i >= 0 && rows.length < limit; i--) {
            const [id, t] = kept[i]!;
            if (id < before && passes(t, filter)) rows.push(summaryRowOf(tenantId, id, t));
          }
          below = chunk.first_id;
          if (rows.length === limit) break;
        }
        if (chunks.length < CHUNKS_A_READ) break;
      }
      return rows;
    },
    /** The tenant's entry `id`, bodies included, or undefined. */
    async get(tenantId: string, id: number): Promise<LogRow | undefined> {
      const chunk = await sql.one<ChunkRow & { bodies: string }>(HOLDING, [tenantId, id, id]);
      if (chunk === undefined || chunk.first_seq + (id - chunk.first_id) < chunk.kept_from) return undefined;
      return rowOf(tenantId, chunk, tuplesOf(chunk.entries), id - chunk.first_id);
    },
    /** Up to `limit` entries of the tenant after `id`, oldest first (a stream resuming). */
    async after(tenantId: string, id: number, limit: number): Promise<LogSummaryRow[]> {
      const rows: LogSummaryRow[] = [];
      for (let above = id; rows.length < limit; ) {
        const chunks = await sql.all<ChunkRow & { last_id: number }>(OLDEST_AFTER, [tenantId, above]);
        for (const chunk of chunks) {
          for (const [entryId, t] of keptOf(chunk)) if (entryId > id && rows.length < limit) rows.push(summaryRowOf(tenantId, entryId, t));
          above = chunk.last_id;
          if (rows.length === limit) break;
        }
        if (chunks.length < CHUNKS_A_READ) break;
      }
      return rows;
    },
    /** The tenant's newest entry id, 0 when it has none (where a live tail starts). */
    async latest(tenantId: string): Promise<number> {
      return (await sql.one<{ id: number }>(LATEST, [tenantId]))?.id ?? 0;
    },
  };
}

export type RequestLogReads = ReturnType<typeof makeRequestLogReads>;
