/** The control plane's view of an order: the API's Order plus its lines, related order, trip and archive time. */
import type { Order } from '../../spec/load.ts';
import type { Db } from '../store/db.ts';
import { ORDER_JSON } from '../store/feed-sql.ts';
import type { components } from '../../spec/sandbox-types.ts';

/** One line of an order; `line` is its index, which stop outcomes address (`OrderLine`). */
export type OrderLineView = components['schemas']['OrderLine'];

/** An order as the control plane shows it (`OrderDetail`). */
export type OrderDetail = components['schemas']['OrderDetail'];

interface DetailRow {
  json: string;
  related_order_id: string | null;
  trip_id: string | null;
  archived_at: string | null;
}

/** Order-view statements, prepared once. */
export function makeOrderDetail(db: Db) {
  const order = db.prepare<[string, string], DetailRow>(
    `SELECT ${ORDER_JSON} AS json, o.related_order_id, o.trip_id, o.archived_at FROM orders o WHERE o.id = ? AND o.tenant_id = ?`,
  );
  const lines = db.prepare<[string], OrderLineView>(
    `SELECT id, position AS line, warehouse_id AS warehouseId, product_id AS productId, quantity, role,
       weight_kg AS weightKg, volume_m3 AS volumeM3, price
     FROM order_lines WHERE order_id = ? ORDER BY position`,
  );

  /** The order `orderId` of the tenant (archived included), or undefined. */
  return function orderDetail(tenantId: string, orderId: string): OrderDetail | undefined {
    const row = order.get(orderId, tenantId);
    if (row === undefined) return undefined;
    return {
      ...(JSON.parse(row.json) as Order),
      relatedToOrderId: row.related_order_id,
      tripId: row.trip_id,
      archivedAtUtc: row.archived_at,
      lines: lines.all(orderId),
    };
  };
}
