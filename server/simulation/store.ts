/**
 * The living-feed simulation's table (D53) and the reads and the one write it needs beyond
 * the control plane's: the state of the orders and trips it tends, the tenant's reference
 * data, and an order's move to or from a status the contract does not list (D54).
 */
import type { OrderStatusName, OrderType, TripStatus } from '../../spec/load.ts';
import type { LineRole } from '../orders/intake-rules.ts';
import { type Db, sqlList, transaction } from '../store/db.ts';
import type { History } from '../orders/history.ts';
import type { Tenants } from '../tenants/store.ts';

/** The orders and trips a simulation still tends, oldest first. */
export interface SimulationPool {
  orders: string[];
  trips: string[];
}

/** A tenant's simulation as stored. Times are tenant time, ms since the epoch. */
export interface SimulationRow {
  tenantId: string;
  running: boolean;
  changesPerMinute: number;
  seed: number;
  unknownStatuses: boolean;
  run: number;
  startedAt: number;
  changes: number;
  position: number;
  nextChangeAt: number | null;
  timeline: number[];
  pool: SimulationPool;
}

/** What a start sets; the rest restarts from zero (the pool stays). */
export type SimulationStart = Pick<SimulationRow, 'changesPerMinute' | 'seed' | 'unknownStatuses' | 'startedAt' | 'nextChangeAt' | 'timeline'>;

/** An order of the pool as the simulation sees it. */
export interface PoolOrder {
  id: string;
  externalId: string;
  status: string;
  type: OrderType;
  onTrip: boolean;
}

/** A trip of the pool: its status and its first open stop, if any. */
export interface PoolTrip {
  id: string;
  status: string;
  nextOpenStop: number | null;
}

/** The tenant's reference data a simulated order or trip may name. */
export interface ReferenceIds {
  warehouses: string[];
  products: string[];
  drivers: string[];
  vehicles: string[];
}

interface Row {
  tenant_id: string;
  running: number;
  changes_per_minute: number;
  seed: number;
  unknown_statuses: number;
  run: number;
  started_at: number;
  changes: number;
  position: number;
  next_change_at: number | null;
  timeline: string;
  pool: string;
}

const toRow = (row: Row): SimulationRow => ({
  tenantId: row.tenant_id,
  running: row.running === 1,
  changesPerMinute: row.changes_per_minute,
  seed: row.seed,
  unknownStatuses: row.unknown_statuses === 1,
  run: row.run,
  startedAt: row.started_at,
  changes: row.changes,
  position: row.position,
  nextChangeAt: row.next_change_at,
  timeline: JSON.parse(row.timeline) as number[],
  pool: JSON.parse(row.pool) as SimulationPool,
});

/** Order statuses an order leaves only through a change: the pool keeps orders in them (OnHold is D54's status the contract does not list). */
const TENDED = sqlList([...(['New', 'InPlanning', 'Planned', 'InProgress'] satisfies OrderStatusName[]), 'OnHold']);

/** Trip statuses of a live trip, whose stops a change may still serve. */
const LIVE_TRIPS = sqlList(['Confirmed', 'InProgress'] satisfies TripStatus[]);

/** Simulation statements, prepared once. */
export function makeSimulations(db: Db, deps: { tenants: Tenants; history: History }) {
  const { tenants, history } = deps;
  const byTenant = db.prepare<[string], Row>('SELECT * FROM simulations WHERE tenant_id = ?');
  const runningIds = db.prepare<[], string>('SELECT tenant_id FROM simulations WHERE running = 1 ORDER BY tenant_id').pluck();
  const upsert = db.prepare(
    `INSERT INTO simulations (tenant_id, running, changes_per_minute, seed, unknown_statuses, run, started_at, changes, position, next_change_at, timeline)
     VALUES (@tenantId, 1, @changesPerMinute, @seed, @unknownStatuses, 1, @startedAt, 0, 0, @nextChangeAt, @timeline)
     ON CONFLICT (tenant_id) DO UPDATE SET running = 1, changes_per_minute = excluded.changes_per_minute, seed = excluded.seed,
       unknown_statuses = excluded.unknown_statuses, run = run + 1, started_at = excluded.started_at, changes = 0, position = 0,
       next_change_at = excluded.next_change_at, timeline = excluded.timeline`,
  );
  const stop = db.prepare('UPDATE simulations SET running = 0, next_change_at = NULL WHERE tenant_id = ?');
  const progress = db.prepare(
    'UPDATE simulations SET changes = @changes, position = @position, next_change_at = @nextChangeAt, timeline = @timeline, pool = @pool WHERE tenant_id = @tenantId',
  );
  const orders = db.prepare<[string, string], { id: string; external_id: string; status: string; type: OrderType; trip_id: string | null }>(
    `SELECT o.id, o.external_id, o.status, o.type, o.trip_id FROM json_each(?) j CROSS JOIN orders o ON o.id = j.value
     WHERE o.tenant_id = ? AND o.archived_at IS NULL AND o.status IN ${TENDED} ORDER BY j.key`,
  );
  const trips = db.prepare<[string, string], { id: string; status: string; next_open: number | null }>(
    `SELECT t.id, t.status, (SELECT min(s.position) FROM trip_stops s JOIN orders o ON o.id = s.order_id
       WHERE s.trip_id = t.id AND s.status = 'Open' AND o.trip_id = t.id) AS next_open
     FROM json_each(?) j CROSS JOIN trips t ON t.id = j.value
     WHERE t.tenant_id = ? AND t.status IN ${LIVE_TRIPS} ORDER BY j.key`,
  );
  const lines = db.prepare<[string], { line: number; quantity: number; role: LineRole }>(
    'SELECT position AS line, quantity, role FROM order_lines WHERE order_id = ? ORDER BY position',
  );
  const orderOfStop = db.prepare<[string, number], { id: string; type: OrderType }>(
    'SELECT o.id, o.type FROM trip_stops s JOIN orders o ON o.id = s.order_id WHERE s.trip_id = ? AND s.position = ?',
  );
  const reference = (table: string) => db.prepare<[string], string>(`SELECT id FROM ${table} WHERE tenant_id = ? ORDER BY id LIMIT 50`).pluck();
  const references = { warehouses: reference('warehouses'), products: reference('products'), drivers: reference('drivers'), vehicles: reference('vehicles') };
  const orderStatus = db.prepare<[string, string], string>('SELECT status FROM orders WHERE id = ? AND tenant_id = ? AND archived_at IS NULL').pluck();
  const setOrderStatus = db.prepare('UPDATE orders SET status = ?, updated_at = ? WHERE id = ?');

  return {
    /** The tenant's simulation, or undefined when it never had one. */
    get(tenantId: string): SimulationRow | undefined {
      const row = byTenant.get(tenantId);
      return row && toRow(row);
    },
    /** The tenants whose simulation runs. */
    running(): string[] {
      return runningIds.all();
    },
    /** Starts (or restarts) the tenant's simulation: a new run, no changes yet; the pool it tends stays. */
    start(tenantId: string, start: SimulationStart): void {
      upsert.run({ ...start, tenantId, unknownStatuses: start.unknownStatuses ? 1 : 0, timeline: JSON.stringify(start.timeline) });
    },
    /** Stops the tenant's simulation; what it wrote stays. */
    stop(tenantId: string): void {
      stop.run(tenantId);
    },
    /** Records how far the simulation got; call in the transaction of its changes. */
    saveProgress(row: SimulationRow): void {
      progress.run({
        tenantId: row.tenantId,
        changes: row.changes,
        position: row.position,
        nextChangeAt: row.nextChangeAt,
        timeline: JSON.stringify(row.timeline),
        pool: JSON.stringify(row.pool),
      });
    },
    /** The pool's orders still live in a status the simulation moves on from, in pool order. */
    poolOrders(tenantId: string, ids: readonly string[]): PoolOrder[] {
      return orders.all(JSON.stringify(ids), tenantId).map((row) => ({
        id: row.id,
        externalId: row.external_id,
        status: row.status,
        type: row.type,
        onTrip: row.trip_id !== null,
      }));
    },
    /** The pool's trips still Confirmed or InProgress, in pool order. */
    poolTrips(tenantId: string, ids: readonly string[]): PoolTrip[] {
      return trips.all(JSON.stringify(ids), tenantId).map((row) => ({ id: row.id, status: row.status, nextOpenStop: row.next_open }));
    },
    /** The order on stop `index` of the trip, with its lines. */
    stopOrder(tripId: string, index: number): { id: string; type: OrderType; lines: { line: number; quantity: number; role: LineRole }[] } {
      const order = orderOfStop.get(tripId, index)!;
      return { ...order, lines: lines.all(order.id) };
    },
    /** Up to 50 ids each of the tenant's warehouses, products, drivers and vehicles, by id. */
    references(tenantId: string): ReferenceIds {
      return {
        warehouses: references.warehouses.all(tenantId),
        products: references.products.all(tenantId),
        drivers: references.drivers.all(tenantId),
        vehicles: references.vehicles.all(tenantId),
      };
    },
    /**
     * Moves a live order from status `from` to `to` off any trip, with one stamp (D7) and
     * a history entry: the simulation's hold and release (D54), which no operation offers.
     * Answers false, changing nothing, when the order is not in `from`.
     */
    moveOrder: transaction(db, (tenantId: string, orderId: string, from: string, to: string): boolean => {
      if (orderStatus.get(orderId, tenantId) !== from) return false;
      const stamp = tenants.nextStamp(tenantId);
      setOrderStatus.run(to, stamp, orderId);
      history.record(orderId, stamp, 'status', { from, to, tripId: null });
      return true;
    }),
  };
}

export type Simulations = ReturnType<typeof makeSimulations>;
