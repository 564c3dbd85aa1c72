/**
 * The control plane's order writes: intake one by one or as an import (D36, D37), restore
 * of an archived order, and the order's mini-status (D35). Each write takes one stamp
 * (D7) and records what it did in the order's history.
 */
import { randomUUID } from 'node:crypto';
import { checkIntake, type OrderIntake } from './intake-rules.ts';
import { Refusal, refuse } from '../domain/refusal.ts';
import { type ChosenIds, newShortId } from '../domain/short-id.ts';
import { q, type Sql, statement, type Steps } from '../store/sql.ts';
import type { Directory } from '../directory/store.ts';
import type { History } from './history.ts';
import type { Tenants } from '../tenants/store.ts';

/** One row of an import that passed the schema, with its index in the request. */
export interface ImportRow {
  row: number;
  intake: OrderIntake;
}

/** What became of an import row: the created order's id, or the refusal. */
export type ImportOutcome = { row: number; orderId: string } | { row: number; refusal: Refusal };

interface OrderRow {
  id: string;
  status: string;
  external_id: string | null;
  archived_at: string | null;
}

const INSERT_ORDER = statement(
  `INSERT INTO orders (id, tenant_id, external_id, short_id, status, type, custom_id, related_order_id, tags, created_at, updated_at)
   VALUES (?, ?, ?, ?, 'New', ?, ?, ?, ?, ?, ?)`,
);
const INSERT_LINE = statement(
  'INSERT INTO order_lines (id, order_id, position, warehouse_id, product_id, quantity, role, weight_kg, volume_m3, price) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const LIVE_BY_EXTERNAL_ID = statement('SELECT id FROM orders WHERE tenant_id = ? AND external_id = ? AND archived_at IS NULL');
const ORDER_ROW = statement('SELECT id, status, external_id, archived_at FROM orders WHERE id = ? AND tenant_id = ?');
const SHORT_ID_TAKEN = statement('SELECT 1 AS taken FROM orders WHERE tenant_id = ? AND short_id = ?');
const RESTORE = statement('UPDATE orders SET archived_at = NULL, updated_at = ? WHERE id = ?');
const SET_MINI_STATUS = statement('UPDATE orders SET mini_status = ?, updated_at = ? WHERE id = ?');

/** The control plane's order writes over `sql`. */
export function makeOrderIntake(sql: Sql, deps: { tenants: Tenants; history: History; directory: Directory }) {
  const { tenants, history, directory } = deps;

  // requirement: int.order.id
  // requirement: int.order.createdAtUtc
  // requirement: D36
  /**
   * Inserts one order stamped `stamp` (with `chosen` ids, else random ones); refuses it first
   * if a rule that needs the database says no. Every refusal comes before the first write, so
   * a refused row of an import leaves nothing behind.
   */
  function* insert(tenantId: string, intake: OrderIntake, stamp: string, chosen?: ChosenIds): Steps<string> {
    checkIntake(intake);
    const related = intake.relatedToOrderId ?? null;
    if (related !== null && (yield* q.one(ORDER_ROW, [related, tenantId])) === undefined) {
      refuse('orders.return.relatedRequired', `relatedToOrderId must name an order of the tenant; ${related} does not.`, 'relatedToOrderId', related);
    }
    const tags = intake.tags ?? [];
    const unknown = (yield* directory.steps.unknownTags(tenantId, tags))[0];
    if (unknown !== undefined) refuse('tags.notFound', `No tag ${unknown} in the tenant.`, `tags[${tags.indexOf(unknown)}]`, unknown);
    if ((yield* q.one(LIVE_BY_EXTERNAL_ID, [tenantId, intake.externalId])) !== undefined) {
      refuse('orders.duplicate', `A live order of the tenant has external id ${intake.externalId}.`, 'externalId', intake.externalId);
    }
    const id = chosen?.id ?? randomUUID();
    const shortId = yield* newShortId('ORD', function* (code) {
      return (yield* q.one(SHORT_ID_TAKEN, [tenantId, code])) !== undefined;
    }, chosen?.pick);
    yield* q.run(INSERT_ORDER, [id, tenantId, intake.externalId, shortId, intake.type, intake.customId ?? null, related, JSON.stringify(tags), stamp, stamp]);
    for (const [position, line] of intake.lines.entries()) {
      yield* q.run(INSERT_LINE, [chosen?.lineIds?.[position] ?? randomUUID(), id, position, line.warehouseId, line.productId, line.quantity, line.role ?? 'Delivery', line.weightKg ?? 0, line.volumeM3 ?? 0, line.price ?? 0]);
    }
    yield* history.record(id, stamp, 'created', { status: 'New' });
    return id;
  }

  /** The live order `orderId` of the tenant, or refuses with orders.notFound. */
  function* existing(tenantId: string, orderId: string): Steps<OrderRow> {
    return (yield* q.one<OrderRow>(ORDER_ROW, [orderId, tenantId])) ?? refuse('orders.notFound', `No order ${orderId} in the tenant.`);
  }

  const steps = {
    /** Takes in one order in status New (with `chosen` ids: the simulation's, D53); returns its id. */
    *create(tenantId: string, intake: OrderIntake, chosen?: ChosenIds): Steps<string> {
      return yield* insert(tenantId, intake, yield* tenants.steps.nextStamp(tenantId), chosen);
    },
  };

  return {
    /** The steps other units of work run inside their own transaction. */
    steps,
    /** Takes in one order in status New (with `chosen` ids: the simulation's, D53); returns its id. */
    create: (tenantId: string, intake: OrderIntake, chosen?: ChosenIds): Promise<string> => sql.write(tenantId, () => steps.create(tenantId, intake, chosen)),

    // requirement: D37
    /** Takes in the rows one by one under one stamp; a refused row is reported and skipped. */
    importRows: (tenantId: string, rows: readonly ImportRow[]): Promise<ImportOutcome[]> =>
      sql.write(tenantId, function* () {
        const stamp = yield* tenants.steps.nextStamp(tenantId);
        const outcomes: ImportOutcome[] = [];
        for (const { row, intake } of rows) {
          try {
            outcomes.push({ row, orderId: yield* insert(tenantId, intake, stamp) });
          } catch (error) {
            if (!(error instanceof Refusal)) throw error;
            outcomes.push({ row, refusal: error });
          }
        }
        return outcomes;
      }),

    /** Makes an archived order live again, in the status it was archived in. */
    restore: (tenantId: string, orderId: string): Promise<void> =>
      sql.write(tenantId, function* () {
        const order = yield* existing(tenantId, orderId);
        if (order.archived_at === null) refuse('orders.notArchived', 'The order is not archived, so it cannot be restored.');
        if (order.external_id !== null && (yield* q.one(LIVE_BY_EXTERNAL_ID, [tenantId, order.external_id])) !== undefined) {
          refuse('orders.duplicate', `Another live order of the tenant took external id ${order.external_id}.`);
        }
        const stamp = yield* tenants.steps.nextStamp(tenantId);
        yield* q.run(RESTORE, [stamp, orderId]);
        yield* history.record(orderId, stamp, 'restore', { status: order.status });
      }),

    // requirement: int.order.mini-status-rules
    // requirement: D35
    /** Sets the order's mini-status to an active directory entry of its current status (stored as the directory spells it). */
    setMiniStatus: (tenantId: string, orderId: string, label: string): Promise<void> =>
      sql.write(tenantId, function* () {
        const order = yield* existing(tenantId, orderId);
        const entry = yield* directory.steps.activeMiniStatus(tenantId, order.status, label);
        if (entry === undefined) {
          refuse('orders.miniStatus.unknown', `'${label}' is not an active mini-status of the ${order.status} group.`, 'miniStatus', label);
        }
        const stamp = yield* tenants.steps.nextStamp(tenantId);
        yield* q.run(SET_MINI_STATUS, [entry.name, stamp, orderId]);
        yield* history.record(orderId, stamp, 'miniStatus', { miniStatus: entry.name, status: order.status });
      }),
  };
}

export type OrderIntakeStore = ReturnType<typeof makeOrderIntake>;
