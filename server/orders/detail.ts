/** The control plane's view of an order: the API's Order plus its lines, related order, trip and archive time. */
import type { Order } from '../../spec/load.ts';
import { portable } from '../store/dialect.ts';
import { ORDER_JSON } from '../store/feed-sql.ts';
import { q, type Sql, statement } from '../store/sql.ts';
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

const ORDER = portable`SELECT ${ORDER_JSON} AS json, o.related_order_id, o.trip_id, o.archived_at FROM orders o WHERE o.id = ? AND o.tenant_id = ?`;
const LINES = statement(
  `SELECT id, position AS line, warehouse_id AS "warehouseId", product_id AS "productId", quantity, role,
     weight_kg AS "weightKg", volume_m3 AS "volumeM3", price
   FROM order_lines WHERE order_id = ? ORDER BY position`,
);

/** The order view over `sql`. */
export function makeOrderDetail(sql: Sql) {
  /** The order `orderId` of the tenant (archived included), or undefined. */
  return function orderDetail(tenantId: string, orderId: string): Promise<OrderDetail | undefined> {
    return sql.read(function* () {
      const row = yield* q.one<DetailRow>(ORDER, [orderId, tenantId]);
      if (row === undefined) return undefined;
      return {
        ...(JSON.parse(row.json) as Order),
        relatedToOrderId: row.related_order_id,
        tripId: row.trip_id,
        archivedAtUtc: row.archived_at,
        lines: yield* q.all<OrderLineView>(LINES, [orderId]),
      };
    });
  };
}
