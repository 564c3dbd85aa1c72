/**
 * The control plane's order writes: intake one by one or as an import (D36, D37), restore
 * of an archived order, and the order's mini-status (D35). Each write takes one stamp
 * (D7) and records what it did in the order's history.
 */
import { randomUUID } from 'node:crypto';
import { checkIntake, type OrderIntake } from './intake-rules.ts';
import { Refusal, refuse } from '../domain/refusal.ts';
import { type ChosenIds, newShortId } from '../domain/short-id.ts';
import { type Db, transaction } from '../store/db.ts';
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

/** Intake statements, prepared once. */
export function makeOrderIntake(db: Db, deps: { tenants: Tenants; history: History; directory: Directory }) {
  const { tenants, history, directory } = deps;
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, tenant_id, external_id, short_id, status, type, custom_id, related_order_id, tags, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'New', ?, ?, ?, ?, ?, ?)`,
  );
  const insertLine = db.prepare(
    'INSERT INTO order_lines (id, order_id, position, warehouse_id, product_id, quantity, role, weight_kg, volume_m3, price) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const liveByExternalId = db.prepare<[string, string], string>('SELECT id FROM orders WHERE tenant_id = ? AND external_id = ? AND archived_at IS NULL').pluck();
  const orderRow = db.prepare<[string, string], OrderRow>('SELECT id, status, external_id, archived_at FROM orders WHERE id = ? AND tenant_id = ?');
  const shortIdTaken = db.prepare<[string, string], number>('SELECT 1 FROM orders WHERE tenant_id = ? AND short_id = ?').pluck();
  const restore = db.prepare('UPDATE orders SET archived_at = NULL, updated_at = ? WHERE id = ?');
  const setMiniStatus = db.prepare('UPDATE orders SET mini_status = ?, updated_at = ? WHERE id = ?');

  // requirement: int.order.id
  // requirement: int.order.createdAtUtc
  // requirement: D36
  /** Inserts one order stamped `stamp` (with `chosen` ids, else random ones); refuses it first if a rule that needs the database says no. */
  function insert(tenantId: string, intake: OrderIntake, stamp: string, chosen?: ChosenIds): string {
    checkIntake(intake);
    const related = intake.relatedToOrderId ?? null;
    if (related !== null && orderRow.get(related, tenantId) === undefined) {
      refuse('orders.return.relatedRequired', `relatedToOrderId must name an order of the tenant; ${related} does not.`, 'relatedToOrderId', related);
    }
    const tags = intake.tags ?? [];
    const unknown = directory.unknownTags(tenantId, tags)[0];
    if (unknown !== undefined) refuse('tags.notFound', `No tag ${unknown} in the tenant.`, `tags[${tags.indexOf(unknown)}]`, unknown);
    if (liveByExternalId.get(tenantId, intake.externalId) !== undefined) {
      refuse('orders.duplicate', `A live order of the tenant has external id ${intake.externalId}.`, 'externalId', intake.externalId);
    }
    const id = chosen?.id ?? randomUUID();
    const shortId = newShortId('ORD', (code) => shortIdTaken.get(tenantId, code) !== undefined, chosen?.pick);
    insertOrder.run(id, tenantId, intake.externalId, shortId, intake.type, intake.customId ?? null, related, JSON.stringify(tags), stamp, stamp);
    intake.lines.forEach((line, position) =>
      insertLine.run(chosen?.lineIds?.[position] ?? randomUUID(), id, position, line.warehouseId, line.productId, line.quantity, line.role ?? 'Delivery', line.weightKg ?? 0, line.volumeM3 ?? 0, line.price ?? 0),
    );
    history.record(id, stamp, 'created', { status: 'New' });
    return id;
  }
  // A row of an import is its own savepoint: a refused row leaves nothing behind.
  const insertRow = transaction(db, insert);

  /** The live order `orderId` of the tenant, or refuses with orders.notFound. */
  const existing = (tenantId: string, orderId: string): OrderRow =>
    orderRow.get(orderId, tenantId) ?? refuse('orders.notFound', `No order ${orderId} in the tenant.`);

  return {
    /** Takes in one order in status New (with `chosen` ids: the simulation's, D53); returns its id. */
    create: transaction(db, (tenantId: string, intake: OrderIntake, chosen?: ChosenIds): string => insert(tenantId, intake, tenants.nextStamp(tenantId), chosen)),

    // requirement: D37
    /** Takes in the rows one by one under one stamp; a refused row is reported and skipped. */
    importRows: transaction(db, (tenantId: string, rows: readonly ImportRow[]): ImportOutcome[] => {
      const stamp = tenants.nextStamp(tenantId);
      return rows.map(({ row, intake }) => {
        try {
          return { row, orderId: insertRow(tenantId, intake, stamp) };
        } catch (error) {
          if (error instanceof Refusal) return { row, refusal: error };
          throw error;
        }
      });
    }),

    /** Makes an archived order live again, in the status it was archived in. */
    restore: transaction(db, (tenantId: string, orderId: string): void => {
      const order = existing(tenantId, orderId);
      if (order.archived_at === null) refuse('orders.notArchived', 'The order is not archived, so it cannot be restored.');
      if (order.external_id !== null && liveByExternalId.get(tenantId, order.external_id) !== undefined) {
        refuse('orders.duplicate', `Another live order of the tenant took external id ${order.external_id}.`);
      }
      const stamp = tenants.nextStamp(tenantId);
      restore.run(stamp, orderId);
      history.record(orderId, stamp, 'restore', { status: order.status });
    }),

    // requirement: int.order.mini-status-rules
    // requirement: D35
    /** Sets the order's mini-status to an active directory entry of its current status (stored as the directory spells it). */
    setMiniStatus: transaction(db, (tenantId: string, orderId: string, label: string): void => {
      const order = existing(tenantId, orderId);
      const entry = directory.activeMiniStatus(tenantId, order.status, label);
      if (entry === undefined) {
        refuse('orders.miniStatus.unknown', `'${label}' is not an active mini-status of the ${order.status} group.`, 'miniStatus', label);
      }
      const stamp = tenants.nextStamp(tenantId);
      setMiniStatus.run(entry.name, stamp, orderId);
      history.record(orderId, stamp, 'miniStatus', { miniStatus: entry.name, status: order.status });
    }),
  };
}

export type OrderIntakeStore = ReturnType<typeof makeOrderIntake>;
