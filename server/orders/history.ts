/** An order's history (D40): status changes, outcomes, payments, cancel reasons, archive and restore, in the order they happened. */
import { q, type Sql, statement, type Steps } from '../store/sql.ts';
import type { components } from '../../spec/sandbox-types.ts';

/** One event of an order's life (`HistoryEntry` of spec/sandbox.yaml). */
export type HistoryEntry = components['schemas']['HistoryEntry'];

/** A page of an order's history; `lastSeq` is the page's last entry when more follow, else null. */
export interface HistoryRows {
  items: HistoryEntry[];
  lastSeq: number | null;
}

const INSERT = statement('INSERT INTO order_history (order_id, at, kind, data) VALUES (?, ?, ?, ?)');
const PAGE = statement('SELECT seq, at, kind, data FROM order_history WHERE order_id = ? AND seq > ? ORDER BY seq LIMIT ?');

// requirement: D40
/** The orders' history over `sql`. */
export function makeHistory(sql: Sql) {
  return {
    /** Records an event of the order: a step of the write's unit of work, with its stamp. */
    *record(orderId: string, at: string, kind: string, data: object): Steps<void> {
      yield* q.run(INSERT, [orderId, at, kind, JSON.stringify(data)]);
    },
    /** Up to `limit` entries of the order after `afterSeq` (0 for the start), reading one more to know whether more follow. */
    async page(orderId: string, afterSeq: number, limit: number): Promise<HistoryRows> {
      const rows = await sql.all<{ seq: number; at: string; kind: string; data: string }>(PAGE, [orderId, afterSeq, limit + 1]);
      const items = rows.slice(0, limit).map((row) => ({ seq: row.seq, atUtc: row.at, kind: row.kind, data: JSON.parse(row.data) as HistoryEntry['data'] }));
      return { items, lastSeq: rows.length > limit ? (items[items.length - 1]?.seq ?? null) : null };
    },
  };
}

export type History = ReturnType<typeof makeHistory>;
