/** Orders: the order feed and the three writes of the integration interface. */
import { canArchive, canCancel } from './rules.ts';
import { type Db, transaction } from '../store/db.ts';
import { makeFeedPage, ORDER_JSON } from '../store/feed-sql.ts';
import type { Tenants } from '../tenants/store.ts';

/**
 * The outcome of a write addressed by external id: the order's JSON after it and the order
 * and trip it changed (none for a repeated payment), or why it was refused.
 */
export type OrderWriteResult =
  | { ok: true; orderJson: string; changed?: { orderIds: string[]; tripIds: string[] } }
  | { ok: false; reason: 'notFound' }
  | { ok: false; reason: 'illegal'; status: string };

interface LiveOrder {
  id: string;
  status: string;
  trip_id: string | null;
}

/** Order statements, prepared once. */
export function makeOrders(db: Db, tenants: Tenants) {
  const jsonById = db.prepare<[string], string>(`SELECT ${ORDER_JSON} FROM orders o WHERE o.id = ?`).pluck();
  const liveByExternalId = db.prepare<[string, string], LiveOrder>(
    'SELECT id, status, trip_id FROM orders WHERE tenant_id = ? AND external_id = ? AND archived_at IS NULL',
  );
  const insertPayment = db.prepare(
    'INSERT OR IGNORE INTO order_payments (order_id, payment_id, amount, currency, recorded_at) VALUES (?, ?, ?, ?, ?)',
  );
  const touch = db.prepare('UPDATE orders SET updated_at = ? WHERE id = ?');
  const setStatus = db.prepare('UPDATE orders SET status = ?, trip_id = NULL, updated_at = ? WHERE id = ?');
  const archive = db.prepare('UPDATE orders SET archived_at = ?, updated_at = ? WHERE id = ?');
  const leaveTrip = db.prepare('UPDATE trips SET stop_count = max(stop_count - 1, 0), updated_at = ? WHERE id = ?');
  const history = db.prepare('INSERT INTO order_history (order_id, at, kind, data) VALUES (?, ?, ?, ?)');

  const recordHistory = (orderId: string, at: string, kind: string, data: object) =>
    history.run(orderId, at, kind, JSON.stringify(data));

  return {
    // requirement: int.orders-feed.no-archived
    // requirement: int.archive.gone-from-feed
    /** A page of the tenant's live orders (archived ones are never returned). */
    feedPage: makeFeedPage(db, {
      select: `SELECT o.updated_at, o.id, o.status, ${ORDER_JSON} FROM orders o
        WHERE o.tenant_id = ? AND o.archived_at IS NULL AND (o.updated_at, o.id) > (?, ?)`,
      orderBy: 'o.updated_at, o.id',
      statusColumn: 'o.status',
    }),

    /** The API JSON of the order `id`, or undefined. */
    json(id: string): string | undefined {
      return jsonById.get(id);
    },

    // requirement: int.payment.paymentId
    // requirement: int.orders-feed.follows-changes
    // requirement: D10
    // requirement: D29
    /**
     * Records a payment on the live order with `externalId` (D10): a `paymentId` already
     * recorded on the order is not recorded again and does not move `updatedAtUtc`.
     */
    attachPayment: transaction(db, 
      (tenantId: string, externalId: string, payment: { paymentId: string; amount: number; currency: string }): OrderWriteResult => {
        const found = liveByExternalId.get(tenantId, externalId);
        if (found === undefined) return { ok: false, reason: 'notFound' };
        const stamp = tenants.nextStamp(tenantId);
        const recorded = insertPayment.run(found.id, payment.paymentId, payment.amount, payment.currency, stamp).changes === 1;
        if (recorded) {
          touch.run(stamp, found.id);
          recordHistory(found.id, stamp, 'payment', payment);
        }
        return { ok: true, orderJson: jsonById.get(found.id)!, changed: { orderIds: recorded ? [found.id] : [], tripIds: [] } };
      },
    ),

    // requirement: int.cancel.history
    // requirement: D11
    /** Cancels the live order with `externalId` (D11); a Planned order leaves its trip. */
    cancel: transaction(db, (tenantId: string, externalId: string, reason: string | null): OrderWriteResult => {
      const found = liveByExternalId.get(tenantId, externalId);
      if (found === undefined) return { ok: false, reason: 'notFound' };
      if (!canCancel(found.status)) return { ok: false, reason: 'illegal', status: found.status };
      const stamp = tenants.nextStamp(tenantId);
      setStatus.run('Cancelled', stamp, found.id);
      if (found.trip_id !== null) leaveTrip.run(stamp, found.trip_id);
      recordHistory(found.id, stamp, 'cancel', { from: found.status, to: 'Cancelled', reason });
      return { ok: true, orderJson: jsonById.get(found.id)!, changed: { orderIds: [found.id], tripIds: found.trip_id === null ? [] : [found.trip_id] } };
    }),

    // requirement: int.archive.gone-from-feed
    // requirement: D12
    /** Archives the live order with `externalId` (D12). */
    archive: transaction(db, (tenantId: string, externalId: string): OrderWriteResult => {
      const found = liveByExternalId.get(tenantId, externalId);
      if (found === undefined) return { ok: false, reason: 'notFound' };
      if (!canArchive(found.status)) return { ok: false, reason: 'illegal', status: found.status };
      const stamp = tenants.nextStamp(tenantId);
      archive.run(stamp, stamp, found.id);
      recordHistory(found.id, stamp, 'archive', { status: found.status });
      return { ok: true, orderJson: jsonById.get(found.id)!, changed: { orderIds: [found.id], tripIds: [] } };
    }),
  };
}

export type Orders = ReturnType<typeof makeOrders>;
