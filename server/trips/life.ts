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
import { type Db, transaction } from '../store/db.ts';
import { TRIP_JSON } from '../store/feed-sql.ts';
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

/** Trip-life statements, prepared once. */
export function makeTripLife(db: Db, deps: { tenants: Tenants; history: History; stops: TripStops }) {
  const { tenants, history, stops } = deps;
  const tripRow = db.prepare<[string, string], TripRow>('SELECT id, status FROM trips WHERE id = ? AND tenant_id = ?');
  const insertTrip = db.prepare(
    `INSERT INTO trips (id, tenant_id, short_id, status, warehouse_id, driver_id, vehicle_id, stop_count, planned_at, updated_at)
     VALUES (?, ?, ?, 'Confirmed', ?, ?, ?, ?, ?, ?)`,
  );
  const shortIdTaken = db.prepare<[string, string], number>('SELECT 1 FROM trips WHERE tenant_id = ? AND short_id = ?').pluck();
  const setTripStatus = db.prepare('UPDATE trips SET status = ?, updated_at = ? WHERE id = ?');
  const orderRow = db.prepare<[string, string], OrderRow>('SELECT id, status, trip_id, archived_at FROM orders WHERE id = ? AND tenant_id = ?');
  const firstWarehouse = db.prepare<[string], string>('SELECT warehouse_id FROM order_lines WHERE order_id = ? ORDER BY position LIMIT 1').pluck();
  const moveOrder = db.prepare('UPDATE orders SET status = ?, trip_id = ?, updated_at = ? WHERE id = ?');
  const tripJson = db.prepare<[string, string], string>(`SELECT ${TRIP_JSON} FROM trips t WHERE t.id = ? AND t.tenant_id = ?`).pluck();

  /** The tenant's trip, its stops made if it has none yet; refuses an unknown trip. */
  function trip(tenantId: string, tripId: string): TripRow {
    const row = tripRow.get(tripId, tenantId) ?? refuse('planning.trip_not_found', `No trip ${tripId} in the tenant.`);
    stops.ensure(tripId);
    return row;
  }

  /** Moves an order to `to` (on `tripId`, or off every trip when null) and records it. */
  function move(orderId: string, from: string, to: string, tripId: string | null, stamp: string, extra: object = {}): void {
    moveOrder.run(to, tripId, stamp, orderId);
    history.record(orderId, stamp, 'status', { from, to, tripId, ...extra });
  }

  const isLive = (stop: StopState) => stop.status === 'Open';

  /** Starts the trip: it and the orders of its open stops become InProgress. */
  function start(tripId: string, stamp: string): void {
    setTripStatus.run('InProgress', stamp, tripId);
    for (const stop of stops.list(tripId).filter(isLive)) {
      if (stop.orderStatus === 'Planned') move(stop.orderId, 'Planned', 'InProgress', tripId, stamp);
    }
  }

  return {
    /** The tenant's trip with its stops, or undefined. */
    detail: transaction(db, (tenantId: string, tripId: string): TripDetail | undefined => {
      const json = tripJson.get(tripId, tenantId);
      if (json === undefined) return undefined;
      stops.ensure(tripId);
      return { ...(JSON.parse(json) as Trip), stops: stops.view(tripId) };
    }),

    // requirement: D41
    /** Builds a Confirmed trip with one stop per order (with `chosen` ids: the simulation's, D53); the orders become Planned. Returns the trip's id. */
    build: transaction(db, (tenantId: string, input: { orderIds: string[]; driverId?: string | null; vehicleId?: string | null }, chosen?: ChosenIds): string => {
      const orders = input.orderIds.map((orderId, i) => {
        const order = orderRow.get(orderId, tenantId);
        if (order === undefined || order.archived_at !== null) {
          refuse('planning.order_not_plannable', `No live order ${orderId} in the tenant.`, `orderIds[${i}]`, orderId);
        }
        if (ON_LIVE_TRIP.has(order.status) && order.trip_id !== null) {
          refuse('planning.order_line_already_assigned', `Order ${orderId} is already on trip ${order.trip_id}.`);
        }
        if (!PLANNABLE.has(order.status)) {
          refuse('planning.order_not_plannable', `Order ${orderId} is ${order.status} and cannot be planned.`, `orderIds[${i}]`, orderId);
        }
        return order;
      });
      const stamp = tenants.nextStamp(tenantId);
      const tripId = chosen?.id ?? randomUUID();
      const shortId = newShortId('TRP', (code) => shortIdTaken.get(tenantId, code) !== undefined, chosen?.pick);
      const warehouseId = firstWarehouse.get(orders[0]!.id)!;
      insertTrip.run(tripId, tenantId, shortId, warehouseId, input.driverId ?? null, input.vehicleId ?? null, orders.length, stamp, stamp);
      stops.add(tripId, input.orderIds);
      for (const order of orders) move(order.id, order.status, 'Planned', tripId, stamp);
      return tripId;
    }),

    // requirement: int.trip.start
    /** Confirmed → InProgress, with the trip's Planned orders. */
    start: transaction(db, (tenantId: string, tripId: string): void => {
      assertCanStart(trip(tenantId, tripId).status);
      start(tripId, tenants.nextStamp(tenantId));
    }),

    // requirement: D42
    /** Finishes stop `index` with its outcome; the order takes its end status. A Confirmed trip starts first (D42). */
    recordOutcome: transaction(db, (tenantId: string, tripId: string, index: number, input: StopOutcomeInput): void => {
      const current = trip(tenantId, tripId);
      const all = stops.list(tripId);
      const stop = all[index] ?? refuse('trips.stop.notFound', `The trip has ${all.length} stops; there is no stop ${index}.`);
      assertStopsChangeable(current.status);
      if (stop.status !== 'Open') refuse('trips.stop.illegalTransition', `Stop ${index} is ${stop.status}; only an open stop takes an outcome.`);
      const specs = stops.lineSpecs(stop.orderId);
      const reasonCode = input.reasonCode ?? null;
      let lines;
      if (input.status === 'Failed') {
        if (reasonCode === null) refuse('trips.stop.reasonRequired', 'A Failed stop needs a reasonCode.', 'reasonCode', null);
        lines = failedOutcomes(stop.orderType, specs, reasonCode);
      } else {
        lines = checkLineOutcomes(stop.orderType, specs, input.lines);
      }
      const stamp = tenants.nextStamp(tenantId);
      if (current.status === 'Confirmed') start(tripId, stamp);
      const from = current.status === 'Confirmed' && stop.orderStatus === 'Planned' ? 'InProgress' : stop.orderStatus;
      const status = input.status ?? 'Completed';
      stops.finish(tripId, index, { status, reasonCode, lines }, stamp);
      history.record(stop.orderId, stamp, 'outcome', { tripId, stop: index, status, reasonCode, lines });
      move(stop.orderId, from, endStatus(stop.orderType, specs, lines), tripId, stamp);
      setTripStatus.run('InProgress', stamp, tripId);
    }),

    // requirement: int.trip.complete
    // requirement: D43
    /** InProgress → Completed once no stop is open. */
    complete: transaction(db, (tenantId: string, tripId: string): void => {
      const current = trip(tenantId, tripId);
      assertCanComplete(current.status, stops.list(tripId).filter(isLive).length);
      setTripStatus.run('Completed', tenants.nextStamp(tenantId), tripId);
    }),

    // requirement: int.trip.cancel
    /** Confirmed or InProgress → Cancelled; the orders of open stops go back to InPlanning, off the trip (D43). */
    cancel: transaction(db, (tenantId: string, tripId: string, reasonCode: string): void => {
      assertCanCancel(trip(tenantId, tripId).status);
      const stamp = tenants.nextStamp(tenantId);
      for (const stop of stops.list(tripId).filter(isLive)) move(stop.orderId, stop.orderStatus, 'InPlanning', null, stamp, { tripId, reasonCode });
      stops.cancelOpen(tripId, stamp);
      setTripStatus.run('Cancelled', stamp, tripId);
    }),
  };
}

export type TripLife = ReturnType<typeof makeTripLife>;
