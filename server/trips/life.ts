/**
 * A trip's life in the control plane (seed trip table; D41–D43): build it from orders,
 * start it, record each stop's outcome, complete or cancel it. The orders move with it the
 * way a driver's work moves them; each move takes one stamp (D7) for every order and trip
 * it changes and is recorded in the orders' history.
 */
import { randomUUID } from 'node:crypto';
import { checkLineOutcomes, endStatus, failedOutcomes, type LineOutcomeInput } from './outcomes.ts';
import { refuse } from '../domain/refusal.ts';
import { type ChosenIds, newShortId } from '../domain/short-id.ts';
import { assertCanCancel, assertCanComplete, assertCanStart, assertStopsChangeable, ON_LIVE_TRIP, PLANNABLE } from './rules.ts';
import type { Trip } from '../../spec/load.ts';
import { portable } from '../store/dialect.ts';
import { TRIP_JSON } from '../store/feed-sql.ts';
import { q, type Sql, statement, type Steps } from '../store/sql.ts';
import type { History } from '../orders/history.ts';
import type { Tenants } from '../tenants/store.ts';
import type { StopState, StopView, TripStops } from './stops.ts';
import type { components } from '../../spec/sandbox-types.ts';

/** A trip as the control plane shows it: the API's Trip with its stops (`TripDetail`). */
export type TripDetail = components['schemas']['TripDetail'];

/** A stop's outcome as the request gives it, validated by the schema (`StopOutcomeRequest`). */
export type StopOutcomeInput = components['schemas']['StopOutcomeRequest'];

interface TripRow {
  id: string;
  status: string;
}

interface OrderRow {
  id: string;
  status: string;
  trip_id: string | null;
  archived_at: string | null;
}

const TRIP_ROW = statement('SELECT id, status FROM trips WHERE id = ? AND tenant_id = ?');
const INSERT_TRIP = statement(
  `INSERT INTO trips (id, tenant_id, short_id, status, warehouse_id, driver_id, vehicle_id, stop_count, planned_at, updated_at)
   VALUES (?, ?, ?, 'Confirmed', ?, ?, ?, ?, ?, ?)`,
);
const SHORT_ID_TAKEN = statement('SELECT 1 AS taken FROM trips WHERE tenant_id = ? AND short_id = ?');
const SET_TRIP_STATUS = statement('UPDATE trips SET status = ?, updated_at = ? WHERE id = ?');
const ORDER_ROW = statement('SELECT id, status, trip_id, archived_at FROM orders WHERE id = ? AND tenant_id = ?');
const FIRST_WAREHOUSE = statement('SELECT warehouse_id FROM order_lines WHERE order_id = ? ORDER BY position LIMIT 1');
const MOVE_ORDER = statement('UPDATE orders SET status = ?, trip_id = ?, updated_at = ? WHERE id = ?');
const TRIP_JSON_BY_ID = portable`SELECT ${TRIP_JSON} AS json FROM trips t WHERE t.id = ? AND t.tenant_id = ?`;

/** A trip's life over `sql`. */
export function makeTripLife(sql: Sql, deps: { tenants: Tenants; history: History; stops: TripStops }) {
  const { tenants, history, stops } = deps;

  /** The tenant's trip, its stops made if it has none yet; refuses an unknown trip. */
  function* trip(tenantId: string, tripId: string): Steps<TripRow> {
    const row = (yield* q.one<TripRow>(TRIP_ROW, [tripId, tenantId])) ?? refuse('planning.trip_not_found', `No trip ${tripId} in the tenant.`);
    yield* stops.ensure(tripId);
    return row;
  }

  /** Moves an order to `to` (on `tripId`, or off every trip when null) and records it. */
  function* move(orderId: string, from: string, to: string, tripId: string | null, stamp: string, extra: object = {}): Steps<void> {
    yield* q.run(MOVE_ORDER, [to, tripId, stamp, orderId]);
    yield* history.record(orderId, stamp, 'status', { from, to, tripId, ...extra });
  }

  const isLive = (stop: StopState) => stop.status === 'Open';

  /** Starts the trip: it and the orders of its open stops become InProgress. */
  function* start(tripId: string, stamp: string): Steps<void> {
    yield* q.run(SET_TRIP_STATUS, ['InProgress', stamp, tripId]);
    for (const stop of (yield* stops.list(tripId)).filter(isLive)) {
      if (stop.orderStatus === 'Planned') yield* move(stop.orderId, 'Planned', 'InProgress', tripId, stamp);
    }
  }

  const steps = {
    // requirement: D41
    /** Builds a Confirmed trip with one stop per order (with `chosen` ids: the simulation's, D53); the orders become Planned. Returns the trip's id. */
    *build(tenantId: string, input: { orderIds: string[]; driverId?: string | null; vehicleId?: string | null }, chosen?: ChosenIds): Steps<string> {
      const orders: OrderRow[] = [];
      for (const [i, orderId] of input.orderIds.entries()) {
        const order = yield* q.one<OrderRow>(ORDER_ROW, [orderId, tenantId]);
        if (order === undefined || order.archived_at !== null) {
          refuse('planning.order_not_plannable', `No live order ${orderId} in the tenant.`, `orderIds[${i}]`, orderId);
        }
        if (ON_LIVE_TRIP.has(order.status) && order.trip_id !== null) {
          refuse('planning.order_line_already_assigned', `Order ${orderId} is already on trip ${order.trip_id}.`);
        }
        if (!PLANNABLE.has(order.status)) {
          refuse('planning.order_not_plannable', `Order ${orderId} is ${order.status} and cannot be planned.`, `orderIds[${i}]`, orderId);
        }
        orders.push(order);
      }
      const stamp = yield* tenants.steps.nextStamp(tenantId);
      const tripId = chosen?.id ?? randomUUID();
      const shortId = yield* newShortId('TRP', function* (code) {
        return (yield* q.one(SHORT_ID_TAKEN, [tenantId, code])) !== undefined;
      }, chosen?.pick);
      const warehouseId = (yield* q.one<{ warehouse_id: string }>(FIRST_WAREHOUSE, [orders[0]!.id]))!.warehouse_id;
      yield* q.run(INSERT_TRIP, [tripId, tenantId, shortId, warehouseId, input.driverId ?? null, input.vehicleId ?? null, orders.length, stamp, stamp]);
      yield* stops.add(tripId, input.orderIds);
      for (const order of orders) yield* move(order.id, order.status, 'Planned', tripId, stamp);
      return tripId;
    },

    // requirement: int.trip.start
    /** Confirmed → InProgress, with the trip's Planned orders. */
    *start(tenantId: string, tripId: string): Steps<void> {
      assertCanStart((yield* trip(tenantId, tripId)).status);
      yield* start(tripId, yield* tenants.steps.nextStamp(tenantId));
    },

    // requirement: D42
    /** Finishes stop `index` with its outcome; the order takes its end status. A Confirmed trip starts first (D42). */
    *recordOutcome(tenantId: string, tripId: string, index: number, input: StopOutcomeInput): Steps<void> {
      const current = yield* trip(tenantId, tripId);
      const all = yield* stops.list(tripId);
      const stop = all[index] ?? refuse('trips.stop.notFound', `The trip has ${all.length} stops; there is no stop ${index}.`);
      assertStopsChangeable(current.status);
      if (stop.status !== 'Open') refuse('trips.stop.illegalTransition', `Stop ${index} is ${stop.status}; only an open stop takes an outcome.`);
      const specs = yield* stops.lineSpecs(stop.orderId);
      const reasonCode = input.reasonCode ?? null;
      let lines;
      if (input.status === 'Failed') {
        if (reasonCode === null) refuse('trips.stop.reasonRequired', 'A Failed stop needs a reasonCode.', 'reasonCode', null);
        lines = failedOutcomes(stop.orderType, specs, reasonCode);
      } else {
        lines = checkLineOutcomes(stop.orderType, specs, input.lines);
      }
      const stamp = yield* tenants.steps.nextStamp(tenantId);
      if (current.status === 'Confirmed') yield* start(tripId, stamp);
      const from = current.status === 'Confirmed' && stop.orderStatus === 'Planned' ? 'InProgress' : stop.orderStatus;
      const status = input.status ?? 'Completed';
      yield* stops.finish(tripId, index, { status, reasonCode, lines }, stamp);
      yield* history.record(stop.orderId, stamp, 'outcome', { tripId, stop: index, status, reasonCode, lines });
      yield* move(stop.orderId, from, endStatus(stop.orderType, specs, lines), tripId, stamp);
      yield* q.run(SET_TRIP_STATUS, ['InProgress', stamp, tripId]);
    },

    // requirement: int.trip.complete
    // requirement: D43
    /** InProgress → Completed once no stop is open. */
    *complete(tenantId: string, tripId: string): Steps<void> {
      const current = yield* trip(tenantId, tripId);
      assertCanComplete(current.status, (yield* stops.list(tripId)).filter(isLive).length);
      yield* q.run(SET_TRIP_STATUS, ['Completed', yield* tenants.steps.nextStamp(tenantId), tripId]);
    },

    // requirement: int.trip.cancel
    /** Confirmed or InProgress → Cancelled; the orders of open stops go back to InPlanning, off the trip (D43). */
    *cancel(tenantId: string, tripId: string, reasonCode: string): Steps<void> {
      assertCanCancel((yield* trip(tenantId, tripId)).status);
      const stamp = yield* tenants.steps.nextStamp(tenantId);
      for (const stop of (yield* stops.list(tripId)).filter(isLive)) yield* move(stop.orderId, stop.orderStatus, 'InPlanning', null, stamp, { tripId, reasonCode });
      yield* stops.cancelOpen(tripId, stamp);
      yield* q.run(SET_TRIP_STATUS, ['Cancelled', stamp, tripId]);
    },
  };

  return {
    /** The steps other units of work run inside their own transaction. */
    steps,
    /** The tenant's trip with its stops, or undefined (a write: a fixture trip gets its stops the first time it is shown). */
    detail: (tenantId: string, tripId: string): Promise<TripDetail | undefined> =>
      sql.write(tenantId, function* () {
        const json = (yield* q.one<{ json: string }>(TRIP_JSON_BY_ID, [tripId, tenantId]))?.json;
        if (json === undefined) return undefined;
        yield* stops.ensure(tripId);
        return { ...(JSON.parse(json) as Trip), stops: yield* stops.view(tripId) };
      }),
    /** Builds a Confirmed trip of the orders (`steps.build`, as a transaction of its own); returns its id. */
    build: (tenantId: string, input: { orderIds: string[]; driverId?: string | null; vehicleId?: string | null }, chosen?: ChosenIds): Promise<string> =>
      sql.write(tenantId, () => steps.build(tenantId, input, chosen)),
    /** Starts the trip (`steps.start`). */
    start: (tenantId: string, tripId: string): Promise<void> => sql.write(tenantId, () => steps.start(tenantId, tripId)),
    /** Finishes a stop with its outcome (`steps.recordOutcome`). */
    recordOutcome: (tenantId: string, tripId: string, index: number, input: StopOutcomeInput): Promise<void> =>
      sql.write(tenantId, () => steps.recordOutcome(tenantId, tripId, index, input)),
    /** Completes the trip (`steps.complete`). */
    complete: (tenantId: string, tripId: string): Promise<void> => sql.write(tenantId, () => steps.complete(tenantId, tripId)),
    /** Cancels the trip (`steps.cancel`). */
    cancel: (tenantId: string, tripId: string, reasonCode: string): Promise<void> => sql.write(tenantId, () => steps.cancel(tenantId, tripId, reasonCode)),
  };
}

export type TripLife = ReturnType<typeof makeTripLife>;
