/**
 * The stops of a trip: one per order, each with the order's lines and, once finished, each
 * line's outcome (D41, D42). A dataset's import writes its trips' stops (dataset-story.ts);
 * a trip a waybill before it imported has no stop rows, and they are made from its orders,
 * without outcomes, the first time the control plane touches it.
 */
import type { components } from '../../spec/sandbox-types.ts';
import type { OrderType } from '../../spec/load.ts';
import type { LineRole } from '../orders/intake-rules.ts';
import { type RecordedLine, type StopLineSpec, vocabularyOf } from './outcomes.ts';
import { q, sqlList, statement, type Steps } from '../store/sql.ts';
import { ON_LIVE_TRIP } from './rules.ts';

/** A stop's status; Removed when its order left the trip while the stop was open (`StopStatus` of spec/sandbox.yaml, D43). */
export type StopStatus = components['schemas']['StopStatus'];

/** A stop as the trip rules need it. */
export interface StopState {
  index: number;
  orderId: string;
  orderType: OrderType;
  orderStatus: string;
  status: StopStatus;
  reasonCode: string | null;
  finishedAtUtc: string | null;
  outcomes: RecordedLine[] | null;
}

/** A stop as the control plane shows it (`Stop`). */
export type StopView = components['schemas']['Stop'];

interface StopRow {
  position: number;
  order_id: string;
  status: Exclude<StopStatus, 'Removed'>;
  reason_code: string | null;
  outcomes: string | null;
  finished_at: string | null;
  type: OrderType;
  order_status: string;
  order_trip: string | null;
}

const COUNT = statement('SELECT count(*) AS n FROM trip_stops WHERE trip_id = ?');
// A fixture trip served its stops in creation order; an order still Planned or InProgress is an open stop.
const BACKFILL = statement(
  `INSERT INTO trip_stops (trip_id, position, order_id, status, finished_at)
   SELECT o.trip_id, row_number() OVER (ORDER BY o.created_at, o.id) - 1, o.id,
     CASE WHEN o.status IN ${sqlList(ON_LIVE_TRIP)} THEN 'Open' WHEN o.status = 'Refused' THEN 'Failed' ELSE 'Completed' END,
     CASE WHEN o.status IN ${sqlList(ON_LIVE_TRIP)} THEN NULL ELSE o.updated_at END
   FROM orders o WHERE o.trip_id = ?`,
);
const ROWS = statement(
  `SELECT s.position, s.order_id, s.status, s.reason_code, s.outcomes, s.finished_at, o.type, o.status AS order_status, o.trip_id AS order_trip
   FROM trip_stops s JOIN orders o ON o.id = s.order_id WHERE s.trip_id = ? ORDER BY s.position`,
);
const LINES = statement('SELECT id, position AS line, quantity, role FROM order_lines WHERE order_id = ? ORDER BY position');
const INSERT = statement('INSERT INTO trip_stops (trip_id, position, order_id) VALUES (?, ?, ?)');
const FINISH = statement('UPDATE trip_stops SET status = ?, reason_code = ?, outcomes = ?, finished_at = ? WHERE trip_id = ? AND position = ?');
const CANCEL_OPEN = statement("UPDATE trip_stops SET status = 'Cancelled', finished_at = ? WHERE trip_id = ? AND status = 'Open'");

type LineRow = { id: string; line: number; quantity: number; role: LineRole };

/** The stops of trips: steps of the trips' units of work. */
export function makeTripStops() {
  const toState = (tripId: string) => (row: StopRow): StopState => ({
    index: row.position,
    orderId: row.order_id,
    orderType: row.type,
    orderStatus: row.order_status,
    status: row.status === 'Open' && row.order_trip !== tripId ? 'Removed' : row.status,
    reasonCode: row.reason_code,
    finishedAtUtc: row.finished_at,
    outcomes: row.outcomes === null ? null : (JSON.parse(row.outcomes) as RecordedLine[]),
  });

  /** The trip's stops in order. */
  function* list(tripId: string): Steps<StopState[]> {
    return (yield* q.all<StopRow>(ROWS, [tripId])).map(toState(tripId));
  }

  return {
    /** Makes the stops of a trip that has none from its orders (a fixture trip imported by an older waybill). */
    *ensure(tripId: string): Steps<void> {
      if ((yield* q.one<{ n: number }>(COUNT, [tripId]))!.n === 0) yield* q.run(BACKFILL, [tripId]);
    },
    list,
    /** The lines of an order as the outcome rules need them. */
    *lineSpecs(orderId: string): Steps<StopLineSpec[]> {
      return (yield* q.all<LineRow>(LINES, [orderId])).map(({ line, quantity, role }) => ({ line, quantity, role }));
    },
    /** Adds one stop per order, in order, from index 0. */
    *add(tripId: string, orderIds: readonly string[]): Steps<void> {
      for (const [position, orderId] of orderIds.entries()) yield* q.run(INSERT, [tripId, position, orderId]);
    },
    /** Finishes a stop with its outcomes. */
    *finish(tripId: string, index: number, outcome: { status: 'Completed' | 'Failed'; reasonCode: string | null; lines: RecordedLine[] }, stamp: string): Steps<void> {
      yield* q.run(FINISH, [outcome.status, outcome.reasonCode, JSON.stringify(outcome.lines), stamp, tripId, index]);
    },
    /** Marks every open stop Cancelled (the trip was cancelled). */
    *cancelOpen(tripId: string, stamp: string): Steps<void> {
      yield* q.run(CANCEL_OPEN, [stamp, tripId]);
    },
    /** The trip's stops as the control plane shows them. */
    *view(tripId: string): Steps<StopView[]> {
      const views: StopView[] = [];
      for (const stop of yield* list(tripId)) {
        const lines = yield* q.all<LineRow>(LINES, [stop.orderId]);
        views.push({
          index: stop.index,
          orderId: stop.orderId,
          status: stop.status,
          reasonCode: stop.reasonCode,
          finishedAtUtc: stop.finishedAtUtc,
          lines: lines.map((spec) => {
            const recorded = stop.outcomes?.find((outcome) => outcome.line === spec.line);
            const { line: _line, ...outcome } = recorded ?? { line: spec.line };
            return {
              line: spec.line,
              lineId: spec.id,
              role: spec.role,
              quantity: spec.quantity,
              vocabulary: vocabularyOf(stop.orderType, spec.role),
              outcome: recorded === undefined ? null : (outcome as Omit<RecordedLine, 'line'>),
            };
          }),
        });
      }
      return views;
    },
  };
}

export type TripStops = ReturnType<typeof makeTripStops>;
