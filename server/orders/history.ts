/** An order's history (D40): status changes, outcomes, payments, cancel reasons, archive and restore, in the order they happened. */
import type { Db } from '../store/db.ts';
import type { components } from '../../spec/sandbox-types.ts';

/** One event of an order's life (`HistoryEntry` of spec/sandbox.yaml). */
export type HistoryEntry = components['schemas']['HistoryEntry'];

/** A page of an order's history; `lastSeq` is the page's last entry when more follow, else null. */
export interface HistoryRows {
  items: HistoryEntry[];
  lastSeq: number | null;
}

// requirement: D40
/** History statements, prepared once. */
export function makeHistory(db: Db) {
  const insert = db.prepare('INSERT INTO order_history (order_id, at, kind, data) VALUES (?, ?, ?, ?)');
  const page = db.prepare<[string, number, number], { seq: number; at: string; kind: string; data: string }>(
    'SELECT seq, at, kind, data FROM order_history WHERE order_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );

  return {
    /** Records an event of the order; call inside the write's transaction with its stamp. */
    record(orderId: string, at: string, kind: string, data: object): void {
      insert.run(orderId, at, kind, JSON.stringify(data));
    },
    /** Up to `limit` entries of the order after `afterSeq` (0 for the start), reading one more to know whether more follow. */
    page(orderId: string, afterSeq: number, limit: number): HistoryRows {
      const rows = page.all(orderId, afterSeq, limit + 1);
      const items = rows.slice(0, limit).map((row) => ({ seq: row.seq, atUtc: row.at, kind: row.kind, data: JSON.parse(row.data) as HistoryEntry['data'] }));
      return { items, lastSeq: rows.length > limit ? (items[items.length - 1]?.seq ?? null) : null };
    },
  };
}

export type History = ReturnType<typeof makeHistory>;
