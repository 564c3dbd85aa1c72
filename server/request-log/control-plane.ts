/**
 * The request log in the control plane (D48): a tenant's entries newest first with filters
 * and a signed keyset cursor, one entry with its bodies and a curl line that replays it,
 * and a stream of new entries as Server-Sent Events.
 */
import type { Request } from 'express';
import type { components } from '../../spec/sandbox-types.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import { refuse } from '../domain/refusal.ts';
import { aboutBlank } from '../http/problem.ts';
import { curlLine } from './curl.ts';
import type { RequestLog } from './recorder.ts';
import { BODY_LIMIT, type LogFilter, type LogRow, type LogSummaryRow } from './store.ts';
import { type Handler, paramsOf, queryOf, sendJson } from '../control-plane/respond.ts';

/** Page size of the list when `limit` is absent, and its cap. */
const PAGE_LIMIT = { default: 50, max: 100 };
/** How many missed entries a stream resumed with Last-Event-ID is sent at most. */
const RESUME_LIMIT = 1000;
/** A stream whose client reads slower than this much waiting output is ended. */
const STREAM_BACKLOG_BYTES = 1024 * 1024;

type Schemas = components['schemas'];

/** An entry as the list and the stream show it (`RequestLogSummary` of spec/sandbox.yaml). */
function summaryOf(row: LogSummaryRow): Schemas['RequestLogSummary'] {
  return {
    id: row.id,
    atUtc: row.at,
    operation: row.operation,
    method: row.method,
    path: row.target,
    status: row.status,
    problemType: row.problem_type,
    errors: row.field_errors === null ? [] : (JSON.parse(row.field_errors) as Schemas['RequestLogSummary']['errors']),
    latencyMs: row.latency_ms,
    keyId: row.key_id,
    requestId: row.request_id,
    idempotencyKey: row.idempotency_key,
    replayed: row.replayed === 1,
    orderIds: JSON.parse(row.order_ids) as string[],
    tripIds: JSON.parse(row.trip_ids) as string[],
    fault: row.fault === null ? null : (JSON.parse(row.fault) as Schemas['RequestLogFault']),
  };
}

/** A body as an entry shows it (`RequestLogBody`). */
const bodyOf = (contentType: string | null, body: string | null, bytes: number): Schemas['RequestLogBody'] => ({ contentType, body, bytes, truncated: bytes > BODY_LIMIT });

/** A feed page as an entry shows it (D48), from its stored `[nextCursor, [[id, updatedAtUtc, status], …]]`. */
function pageOf(stored: string | null): Schemas['RequestLogFeedPage'] | null {
  if (stored === null) return null;
  const [nextCursor, items] = JSON.parse(stored) as [string | null, [string, string, string][]];
  return { nextCursor, items: items.map(([id, updatedAtUtc, status]) => ({ id, updatedAtUtc, status })) };
}

/** The server's origin as the control-plane client reached it. */
const originOf = (req: Request) => `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;

/** Handlers of the request-log operations over `log` (null when the log is off: nothing is ever listed). */
export function makeRequestLogHandlers(options: { log: RequestLog | null; cursors: CursorCodec; heartbeatMs?: number }): Record<string, Handler> {
  const { log, cursors } = options;
  const heartbeatMs = options.heartbeatMs ?? 15_000;

  return {
    async listRequests(_req, res) {
      const tenantId = paramsOf(res)['tenantId']!;
      const query = queryOf<{ after?: string; limit?: number; operation?: string; statusClass?: string; problemType?: string; keyId?: string; since?: string }>(res);
      let before = Number.MAX_SAFE_INTEGER;
      if (query.after !== undefined) {
        const position = cursors.decode('requests', tenantId, query.after);
        if (position === null || !/^\d+$/.test(position.id)) {
          refuse('audit.cursor.invalid', 'The after cursor was not issued by this server for this tenant’s request log.', 'after', query.after);
        }
        before = Number(position.id);
      }
      const filter: LogFilter = {
        ...(query.operation === undefined ? {} : { operation: query.operation }),
        ...(query.statusClass === undefined ? {} : { statusFrom: Number(query.statusClass[0]) * 100 }),
        ...(query.problemType === undefined ? {} : { problemType: query.problemType }),
        ...(query.keyId === undefined ? {} : { keyId: query.keyId }),
        ...(query.since === undefined ? {} : { since: new Date(query.since).toISOString() }),
      };
      const limit = Math.min(query.limit ?? PAGE_LIMIT.default, PAGE_LIMIT.max);
      const rows = log === null ? [] : await log.page(tenantId, filter, before, limit + 1);
      const items = rows.slice(0, limit).map(summaryOf);
      const last = items[items.length - 1];
      const nextCursor = rows.length > limit && last !== undefined ? cursors.encode('requests', tenantId, { updatedAt: last.atUtc, id: String(last.id) }) : null;
      sendJson(res, 200, { items, nextCursor });
    },

    async getRequest(req, res) {
      const tenantId = paramsOf(res)['tenantId']!;
      const entryId = Number(paramsOf(res)['entryId']);
      const row: LogRow | undefined = await log?.get(tenantId, entryId);
      if (row === undefined) throw aboutBlank(404, `No request log entry ${entryId} in the tenant.`);
      sendJson(res, 200, {
        ...summaryOf(row),
        request: bodyOf(row.request_content_type, row.request_body, row.request_bytes),
        response: bodyOf(row.response_content_type, row.response_body, row.response_bytes),
        page: pageOf(row.feed_page),
        curl: curlLine(row, originOf(req)),
      });
    },

    async streamRequests(req, res) {
      const tenantId = paramsOf(res)['tenantId']!;
      let sent = 0;
      const send = (rows: LogSummaryRow[]) => {
        for (const row of rows) {
          // An entry written while the missed ones were read comes once, in order.
          if (row.id <= sent) continue;
          sent = row.id;
          res.write(`id: ${row.id}\nevent: entry\ndata: ${JSON.stringify(summaryOf(row))}\n\n`);
        }
        // A client that stopped reading is let go rather than buffered for without bound.
        if (res.writableLength > STREAM_BACKLOG_BYTES) res.end();
      };
      const lastEventId = req.get('last-event-id');
      const resuming = log !== null && lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId);
      // Listening starts before the answer does and before the missed entries are read, so none written
      // meanwhile is lost (on PostgreSQL listening takes a round trip, D84); they wait until those are sent.
      let held: LogSummaryRow[] | null = [];
      let unsubscribe: (() => void) | undefined;
      let gone = false;
      let heartbeat: NodeJS.Timeout | undefined;
      res.on('close', () => {
        gone = true;
        clearInterval(heartbeat);
        unsubscribe?.();
      });
      unsubscribe = await log?.subscribe(tenantId, (rows) => (held === null ? send(rows) : held.push(...rows)));
      if (gone) return unsubscribe?.();
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
      res.write(': request log of the tenant; new entries follow as `entry` events\n\n');
      heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
      heartbeat.unref();
      if (resuming) {
        sent = Number(lastEventId);
        send(await log.after(tenantId, sent, RESUME_LIMIT));
      }
      const waited = held;
      held = null;
      send(waited);
    },
  };
}
