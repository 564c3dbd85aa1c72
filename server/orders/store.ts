/** Orders: the order feed, the control plane's list of them newest first, and the three writes of the integration interface. */
import { canArchive, canCancel } from './rules.ts';
import { greatest, portable } from '../store/dialect.ts';
import { makeFeedPage, ORDER_JSON } from '../store/feed-sql.ts';
import { q, type Sql, statement, type Steps } from '../store/sql.ts';
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

const JSON_BY_ID = portable`SELECT ${ORDER_JSON} AS json FROM orders o WHERE o.id = ?`;
const LIVE_BY_EXTERNAL_ID = statement('SELECT id, status, trip_id FROM orders WHERE tenant_id = ? AND external_id = ? AND archived_at IS NULL');
const INSERT_PAYMENT = statement(
  'INSERT INTO order_payments (order_id, payment_id, amount, currency, recorded_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (order_id, payment_id) DO NOTHING',
);
const TOUCH = statement('UPDATE orders SET updated_at = ? WHERE id = ?');
const SET_STATUS = statement('UPDATE orders SET status = ?, trip_id = NULL, updated_at = ? WHERE id = ?');
const ARCHIVE = statement('UPDATE orders SET archived_at = ?, updated_at = ? WHERE id = ?');
const LEAVE_TRIP = portable`UPDATE trips SET stop_count = ${greatest('stop_count - 1', '0')}, updated_at = ? WHERE id = ?`;
const HISTORY = statement('INSERT INTO order_history (order_id, at, kind, data) VALUES (?, ?, ?, ?)');

/** The orders over `sql`: the feed and the integration's writes. */
export function makeOrders(sql: Sql, tenants: Tenants) {
  const recordHistory = (orderId: string, at: string, kind: string, data: object) => q.run(HISTORY, [orderId, at, kind, JSON.stringify(data)]);
  const jsonOf = function* (orderId: string): Steps<string> {
    return (yield* q.one<{ json: string }>(JSON_BY_ID, [orderId]))!.json;
  };

  const steps = {
    // requirement: int.cancel.history
    // requirement: D11
    /** Cancels the live order with `externalId` (D11); a Planned order leaves its trip. */
    *cancel(tenantId: string, externalId: string, reason: string | null): Steps<OrderWriteResult> {
      const found = yield* q.one<LiveOrder>(LIVE_BY_EXTERNAL_ID, [tenantId, externalId]);
      if (found === undefined) return { ok: false, reason: 'notFound' };
      if (!canCancel(found.status)) return { ok: false, reason: 'illegal', status: found.status };
      const stamp = yield* tenants.steps.nextStamp(tenantId);
      yield* q.run(SET_STATUS, ['Cancelled', stamp, found.id]);
      if (found.trip_id !== null) yield* q.run(LEAVE_TRIP, [stamp, found.trip_id]);
      yield* recordHistory(found.id, stamp, 'cancel', { from: found.status, to: 'Cancelled', reason });
      return { ok: true, orderJson: yield* jsonOf(found.id), changed: { orderIds: [found.id], tripIds: found.trip_id === null ? [] : [found.trip_id] } };
    },
  };

  return {
    /** The steps other units of work run inside their own transaction. */
    steps,
    // requirement: int.orders-feed.no-archived
    // requirement: int.archive.gone-from-feed
    /** A page of the tenant's live orders (archived ones are never returned). */
    feedPage: makeFeedPage(sql, {
      select: portable`SELECT o.updated_at, o.id, o.status, ${ORDER_JSON} AS json FROM orders o
        WHERE o.tenant_id = ? AND o.archived_at IS NULL AND (o.updated_at, o.id) > (?, ?)`,
      orderBy: 'o.updated_at, o.id',
      statusColumn: 'o.status',
    }),
    // requirement: D87
    /** A page of the tenant's live orders newest-changed first, before a position (the control plane's list). */
    newestPage: makeFeedPage(sql, {
      select: portable`SELECT o.updated_at, o.id, o.status, ${ORDER_JSON} AS json FROM orders o
        WHERE o.tenant_id = ? AND o.archived_at IS NULL AND (o.updated_at, o.id) < (?, ?)`,
      orderBy: 'o.updated_at DESC, o.id DESC',
      statusColumn: 'o.status',
    }),

    /** The API JSON of the order `id`, or undefined. */
    async json(id: string): Promise<string | undefined> {
      return (await sql.one<{ json: string }>(JSON_BY_ID, [id]))?.json;
    },

    // requirement: int.payment.paymentId
    // requirement: int.orders-feed.follows-changes
    // requirement: D10
    // requirement: D29
    /**
     * Records a payment on the live order with `externalId` (D10): a `paymentId` already
     * recorded on the order is not recorded again and does not move `updatedAtUtc`.
     */
    attachPayment: (tenantId: string, externalId: string, payment: { paymentId: string; amount: number; currency: string }): Promise<OrderWriteResult> =>
      sql.write(tenantId, function* (): Steps<OrderWriteResult> {
        const found = yield* q.one<LiveOrder>(LIVE_BY_EXTERNAL_ID, [tenantId, externalId]);
        if (found === undefined) return { ok: false, reason: 'notFound' };
        const stamp = yield* tenants.steps.nextStamp(tenantId);
        const recorded = (yield* q.run(INSERT_PAYMENT, [found.id, payment.paymentId, payment.amount, payment.currency, stamp])).changes === 1;
        if (recorded) {
          yield* q.run(TOUCH, [stamp, found.id]);
          yield* recordHistory(found.id, stamp, 'payment', payment);
        }
        return { ok: true, orderJson: yield* jsonOf(found.id), changed: { orderIds: recorded ? [found.id] : [], tripIds: [] } };
      }),

    /** Cancels the live order with `externalId` (D11); a Planned order leaves its trip. */
    cancel: (tenantId: string, externalId: string, reason: string | null): Promise<OrderWriteResult> => sql.write(tenantId, () => steps.cancel(tenantId, externalId, reason)),

    // requirement: int.archive.gone-from-feed
    // requirement: D12
    /** Archives the live order with `externalId` (D12). */
    archive: (tenantId: string, externalId: string): Promise<OrderWriteResult> =>
      sql.write(tenantId, function* (): Steps<OrderWriteResult> {
        const found = yield* q.one<LiveOrder>(LIVE_BY_EXTERNAL_ID, [tenantId, externalId]);
        if (found === undefined) return { ok: false, reason: 'notFound' };
        if (!canArchive(found.status)) return { ok: false, reason: 'illegal', status: found.status };
        const stamp = yield* tenants.steps.nextStamp(tenantId);
        yield* q.run(ARCHIVE, [stamp, stamp, found.id]);
        yield* recordHistory(found.id, stamp, 'archive', { status: found.status });
        return { ok: true, orderJson: yield* jsonOf(found.id), changed: { orderIds: [found.id], tripIds: [] } };
      }),
  };
}

export type Orders = ReturnType<typeof makeOrders>;
