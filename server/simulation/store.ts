/**
 * The living-feed simulation's table (D53) and the reads and the one write it needs beyond
 * the control plane's: the state of the orders and trips it tends, the tenant's reference
 * data, an order's or trip's move to or from a status the contract does not list (D54, D93),
 * and an order's delivery window, a member the contract does not list yet (D93).
 */
import type { OrderStatusName, OrderType, TripStatus } from '../../spec/load.ts';
import type { LineRole } from '../orders/intake-rules.ts';
import { jsonElements, portable } from '../store/dialect.ts';
import { q, type Sql, sqlList, statement, type Steps } from '../store/sql.ts';
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
  /** The orders it takes in carry `deliveryWindow` (D93). */
  unknownMembers: boolean;
  /** Some of its trips pass through `OnHold` (D93). */
  unknownTripStatuses: boolean;
  run: number;
  startedAt: number;
  changes: number;
  position: number;
  nextChangeAt: number | null;
  timeline: number[];
  pool: SimulationPool;
}

/** What a start sets; the rest restarts from zero (the pool stays). */
export type SimulationStart = Pick<SimulationRow, 'changesPerMinute' | 'seed' | 'unknownStatuses' | 'unknownMembers' | 'unknownTripStatuses' | 'startedAt' | 'nextChangeAt' | 'timeline'>;

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
  unknown_members: number;
  unknown_trip_statuses: number;
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
  unknownMembers: row.unknown_members === 1,
  unknownTripStatuses: row.unknown_trip_statuses === 1,
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

/** Trip statuses a trip leaves only through a change: a live trip's, and OnHold, D93's trip status the contract does not list. */
const TENDED_TRIPS = sqlList([...(['Confirmed', 'InProgress'] satisfies TripStatus[]), 'OnHold']);

const COLUMNS = 'tenant_id, running, changes_per_minute, seed, unknown_statuses, unknown_members, unknown_trip_statuses, run, started_at, changes, position, next_change_at, timeline, pool';
const BY_TENANT = statement(`SELECT ${COLUMNS} FROM simulations WHERE tenant_id = ?`);
/** The tenants whose simulation runs: on PostgreSQL each process's timer asks every tick (runner.ts), whatever else it serves. */
export const RUNNING_IDS = statement('SELECT tenant_id FROM simulations WHERE running = 1 ORDER BY tenant_id');
const UPSERT = statement(
  `INSERT INTO simulations (tenant_id, running, changes_per_minute, seed, unknown_statuses, unknown_members, unknown_trip_statuses, run, started_at, changes, position, next_change_at, timeline)
   VALUES (?, 1, ?, ?, ?, ?, ?, 1, ?, 0, 0, ?, ?)
   ON CONFLICT (tenant_id) DO UPDATE SET running = 1, changes_per_minute = excluded.changes_per_minute, seed = excluded.seed,
     unknown_statuses = excluded.unknown_statuses, unknown_members = excluded.unknown_members,
     unknown_trip_statuses = excluded.unknown_trip_statuses, run = simulations.run + 1, started_at = excluded.started_at, changes = 0, position = 0,
     next_change_at = excluded.next_change_at, timeline = excluded.timeline`,
);
const STOP = statement('UPDATE simulations SET running = 0, next_change_at = NULL WHERE tenant_id = ?');
const PROGRESS = statement('UPDATE simulations SET changes = ?, position = ?, next_change_at = ?, timeline = ?, pool = ? WHERE tenant_id = ?');
const ORDERS = portable`SELECT o.id, o.external_id, o.status, o.type, o.trip_id FROM ${jsonElements('?', 'j')} CROSS JOIN orders o
   WHERE o.id = j.value AND o.tenant_id = ? AND o.archived_at IS NULL AND o.status IN ${TENDED} ORDER BY j.key`;
const TRIPS = portable`SELECT t.id, t.status, (SELECT min(s.position) FROM trip_stops s JOIN orders o ON o.id = s.order_id
     WHERE s.trip_id = t.id AND s.status = 'Open' AND o.trip_id = t.id) AS next_open
   FROM ${jsonElements('?', 'j')} CROSS JOIN trips t
   WHERE t.id = j.value AND t.tenant_id = ? AND t.status IN ${TENDED_TRIPS} ORDER BY j.key`;
const LINES = statement('SELECT position AS line, quantity, role FROM order_lines WHERE order_id = ? ORDER BY position');
const ORDER_OF_STOP = statement('SELECT o.id, o.type FROM trip_stops s JOIN orders o ON o.id = s.order_id WHERE s.trip_id = ? AND s.position = ?');
const reference = (table: string) => statement(`SELECT id FROM ${table} WHERE tenant_id = ? ORDER BY id LIMIT 50`);
const REFERENCES = { warehouses: reference('warehouses'), products: reference('products'), drivers: reference('drivers'), vehicles: reference('vehicles') };
const ORDER_STATUS = statement('SELECT status FROM orders WHERE id = ? AND tenant_id = ? AND archived_at IS NULL');
const SET_ORDER_STATUS = statement('UPDATE orders SET status = ?, updated_at = ? WHERE id = ?');
const TRIP_STATUS = statement('SELECT status FROM trips WHERE id = ? AND tenant_id = ?');
const SET_TRIP_STATUS = statement('UPDATE trips SET status = ?, updated_at = ? WHERE id = ?');
const CREATED_AT = statement('SELECT created_at FROM orders WHERE id = ?');
const SET_DELIVERY_WINDOW = statement('UPDATE orders SET delivery_window = ? WHERE id = ?');

type Line = { line: number; quantity: number; role: LineRole };

/** The simulations over `sql`. */
export function makeSimulations(sql: Sql, deps: { tenants: Tenants; history: History }) {
  const { tenants, history } = deps;
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

  const steps = {
    /** The tenant's simulation, or undefined when it never had one. */
    *get(tenantId: string): Steps<SimulationRow | undefined> {
      const row = yield* q.one<Row>(BY_TENANT, [tenantId]);
      return row && toRow(row);
    },
    /** Records how far the simulation got, in the unit of work of its changes. */
    *saveProgress(row: SimulationRow): Steps<void> {
      yield* q.run(PROGRESS, [row.changes, row.position, row.nextChangeAt, JSON.stringify(row.timeline), JSON.stringify(row.pool), row.tenantId]);
    },
    /** The pool's orders still live in a status the simulation moves on from, in pool order. */
    *poolOrders(tenantId: string, orderIds: readonly string[]): Steps<PoolOrder[]> {
      const rows = yield* q.all<{ id: string; external_id: string; status: string; type: OrderType; trip_id: string | null }>(ORDERS, [JSON.stringify(orderIds), tenantId]);
      return rows.map((row) => ({ id: row.id, externalId: row.external_id, status: row.status, type: row.type, onTrip: row.trip_id !== null }));
    },
    /** The pool's trips still Confirmed, InProgress or OnHold, in pool order. */
    *poolTrips(tenantId: string, tripIds: readonly string[]): Steps<PoolTrip[]> {
      const rows = yield* q.all<{ id: string; status: string; next_open: number | null }>(TRIPS, [JSON.stringify(tripIds), tenantId]);
      return rows.map((row) => ({ id: row.id, status: row.status, nextOpenStop: row.next_open }));
    },
    /** The order on stop `index` of the trip, with its lines. */
    *stopOrder(tripId: string, index: number): Steps<{ id: string; type: OrderType; lines: Line[] }> {
      const order = (yield* q.one<{ id: string; type: OrderType }>(ORDER_OF_STOP, [tripId, index]))!;
      return { ...order, lines: yield* q.all<Line>(LINES, [order.id]) };
    },
    /** Up to 50 ids each of the tenant's warehouses, products, drivers and vehicles, by id. */
    *references(tenantId: string): Steps<ReferenceIds> {
      return {
        warehouses: ids(yield* q.all<{ id: string }>(REFERENCES.warehouses, [tenantId])),
        products: ids(yield* q.all<{ id: string }>(REFERENCES.products, [tenantId])),
        drivers: ids(yield* q.all<{ id: string }>(REFERENCES.drivers, [tenantId])),
        vehicles: ids(yield* q.all<{ id: string }>(REFERENCES.vehicles, [tenantId])),
      };
    },
    /**
     * Moves a live order from status `from` to `to` off any trip, with one stamp (D7) and
     * a history entry: the simulation's hold and release (D54), which no operation offers.
     * Answers false, changing nothing, when the order is not in `from`.
     */
    *moveOrder(tenantId: string, orderId: string, from: string, to: string): Steps<boolean> {
      if ((yield* q.one<{ status: string }>(ORDER_STATUS, [orderId, tenantId]))?.status !== from) return false;
      const stamp = yield* tenants.steps.nextStamp(tenantId);
      yield* q.run(SET_ORDER_STATUS, [to, stamp, orderId]);
      yield* history.record(orderId, stamp, 'status', { from, to, tripId: null });
      return true;
    },
    /**
     * Moves a trip from status `from` to `to`, with one stamp (D7): the simulation's trip hold
     * and release (D93), which no operation offers; its orders stay as they are. Answers false,
     * changing nothing, when the trip is not in `from`.
     */
    *moveTrip(tenantId: string, tripId: string, from: string, to: string): Steps<boolean> {
      if ((yield* q.one<{ status: string }>(TRIP_STATUS, [tripId, tenantId]))?.status !== from) return false;
      yield* q.run(SET_TRIP_STATUS, [to, yield* tenants.steps.nextStamp(tenantId), tripId]);
      return true;
    },
    /**
     * Gives the order just taken in its delivery window (D93), in the intake's own write (no
     * stamp of its own): the day `daysAfter` its creation, from `fromHour` UTC for `hours` hours.
     */
    *setDeliveryWindow(orderId: string, window: { daysAfter: number; fromHour: number; hours: number }): Steps<void> {
      const created = (yield* q.one<{ created_at: string }>(CREATED_AT, [orderId]))!.created_at;
      const from = new Date(created);
      from.setUTCDate(from.getUTCDate() + window.daysAfter);
      from.setUTCHours(window.fromHour, 0, 0, 0);
      const to = new Date(from.getTime() + window.hours * 3_600_000);
      yield* q.run(SET_DELIVERY_WINDOW, [JSON.stringify({ fromUtc: from.toISOString(), toUtc: to.toISOString() }), orderId]);
    },
  };

  return {
    /** The steps the simulation's unit of work runs. */
    steps,
    /** The tenant's simulation, or undefined when it never had one. */
    get: (tenantId: string): Promise<SimulationRow | undefined> => sql.read(() => steps.get(tenantId)),
    /** The tenants whose simulation runs. */
    async running(): Promise<string[]> {
      return (await sql.all<{ tenant_id: string }>(RUNNING_IDS)).map((row) => row.tenant_id);
    },
    /** Starts (or restarts) the tenant's simulation: a new run, no changes yet; the pool it tends stays. */
    async start(tenantId: string, start: SimulationStart): Promise<void> {
      const flag = (on: boolean) => (on ? 1 : 0);
      await sql.run(UPSERT, [tenantId, start.changesPerMinute, start.seed, flag(start.unknownStatuses), flag(start.unknownMembers), flag(start.unknownTripStatuses), start.startedAt, start.nextChangeAt, JSON.stringify(start.timeline)]);
    },
    /** Stops the tenant's simulation; what it wrote stays. */
    async stop(tenantId: string): Promise<void> {
      await sql.run(STOP, [tenantId]);
    },
  };
}

export type Simulations = ReturnType<typeof makeSimulations>;
