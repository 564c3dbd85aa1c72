/**
 * How a dataset's orders and trips came to be as the dataset leaves them: each order's
 * history and each trip's stops, as the sandbox's own moves would have recorded them (D40–D43).
 * A dataset holds only the state things are in; its import writes this story beside it, so that
 * a seeded FullyDelivered order shows the moves that led there and a completed trip the outcome
 * of every stop. Made from the dataset alone, with no draw: the same dataset, the same story.
 */
import type { Dataset, FixtureOrder, FixtureTrip } from '../../fixtures/dataset.ts';
import { endStatusesOf } from '../../fixtures/status-rules.ts';
import type { OrderStatusName } from '../../spec/load.ts';
import { CANCEL_REASONS, FAILURE_REASONS, SHORTFALL_REASONS } from '../domain/reason-codes.ts';
import { failedOutcomes, type RecordedLine, type StopLineSpec, vocabularyOf } from '../trips/outcomes.ts';
import { ON_LIVE_TRIP } from '../trips/rules.ts';
import type { StopStatus } from '../trips/stops.ts';

/** One entry of an order's history, as `History.record` writes it. */
export interface StoryEntry {
  at: string;
  kind: string;
  data: object;
}

/** A stop of a trip as its story leaves it. */
export interface StoryStop {
  orderId: string;
  status: Exclude<StopStatus, 'Removed'>;
  reasonCode: string | null;
  outcomes: RecordedLine[] | null;
  finishedAt: string | null;
}

/** An order's story: its history, oldest first, and when its payments were recorded. */
export interface OrderStory {
  history: StoryEntry[];
  paidAt: string;
}

/** The story of a dataset, by fixture id: each order's, and each trip's stops in stop order. */
export interface DatasetStory {
  orders: Map<string, OrderStory>;
  stops: Map<string, StoryStop[]>;
}

/** A stop's outcome: how it finished, and each line's quantities. */
interface StopOutcome {
  status: 'Completed' | 'Failed';
  reasonCode: string | null;
  lines: RecordedLine[];
}

const OFF_TRIP = new Set<string>(['New', 'InPlanning', 'Cancelled'] satisfies OrderStatusName[]);

/** A 32-bit FNV-1a hash of `text`: the choices of a story (which reason, which line falls short) follow from ids. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);
const midway = (a: string, b: string) => new Date(Math.floor((Date.parse(a) + Date.parse(b)) / 2)).toISOString();

/**
 * The outcome of the stop that ended `order` in `end` (an end value or Refused): a Refused,
 * Returned or NotCollected order was not served (Failed, with a reason); any other was served,
 * every line in full but, for a partial end, one that fell short.
 */
function stopOutcome(order: FixtureOrder, end: OrderStatusName, choice: number): StopOutcome {
  const specs: StopLineSpec[] = order.lines.map((line, index) => ({ line: index, quantity: line.quantity, role: line.role }));
  const failed = (reasonCode: string): StopOutcome => ({ status: 'Failed', reasonCode, lines: failedOutcomes(order.type, specs, reasonCode) });
  if (end === 'Refused') return failed('CustomerRefused');
  if (end === 'Returned' || end === 'NotCollected') return failed(FAILURE_REASONS[choice % FAILURE_REASONS.length]!);
  // A Rebox order ends partly delivered when the new item was handed over and the old one not collected.
  const candidates = order.type === 'Rebox' ? specs.filter((spec) => spec.role === 'PickUp') : specs;
  const partial = end === 'PartiallyDelivered' || end === 'PartiallyCollected';
  const short = partial ? (candidates.find((spec) => spec.quantity >= 2) ?? candidates[candidates.length - 1]) : undefined;
  const missing = short === undefined ? 0 : short.quantity >= 2 ? 1 + (choice % (short.quantity - 1)) : short.quantity;
  const reason = SHORTFALL_REASONS[choice % SHORTFALL_REASONS.length]!;
  const lines = specs.map((spec): RecordedLine => {
    const lacking = spec === short ? missing : 0;
    const reasonCode = lacking > 0 ? reason : null;
    return vocabularyOf(order.type, spec.role) === 'delivery'
      ? { line: spec.line, delivered: spec.quantity - lacking, returned: lacking, rejected: 0, lost: 0, reasonCode }
      : { line: spec.line, collected: spec.quantity - lacking, notCollected: lacking, reasonCode };
  });
  return { status: 'Completed', reasonCode: null, lines };
}

/** Where an order sits: its trip (the fixture's), that trip's id in the tenant, and its stop on it (undefined when not listed). */
interface Place {
  trip: FixtureTrip;
  tripId: string;
  stop: number | undefined;
}

/** When the trips of a dataset did what their stories say. */
interface TripClock {
  /** When the stop that ended `order` on `trip` finished: a Closed order's halfway through the trip, for it closed later. */
  finishedAt(order: FixtureOrder, trip: FixtureTrip): string;
  /** When `trip` started: halfway from its planning to its first outcome or its InProgress orders' first change. */
  startedAt(trip: FixtureTrip): string;
}

/** The trips' clock over the dataset's orders. */
function tripClock(ordersById: ReadonlyMap<string, FixtureOrder>): TripClock {
  const finishedAt = (order: FixtureOrder, trip: FixtureTrip) => (order.status === 'Closed' ? midway(trip.plannedAtUtc, trip.updatedAtUtc) : order.updatedAtUtc);
  const starts = new Map<string, string>();
  return {
    finishedAt,
    startedAt(trip) {
      let start = starts.get(trip.id);
      if (start === undefined) {
        let first = trip.updatedAtUtc;
        for (const orderId of trip.orderIds) {
          const order = ordersById.get(orderId);
          if (order !== undefined && !OFF_TRIP.has(order.status) && order.status !== 'Planned') first = earlier(first, finishedAt(order, trip));
        }
        start = midway(trip.plannedAtUtc, later(first, trip.plannedAtUtc));
        starts.set(trip.id, start);
      }
      return start;
    },
  };
}

/** An order's story, with the outcome of its stop when its place has one. */
function orderStory(order: FixtureOrder, place: Place | undefined, clock: TripClock): OrderStory & { stop?: StoryStop } {
  const history: StoryEntry[] = [{ at: order.createdAtUtc, kind: 'created', data: { status: 'New' } }];
  let last = order.createdAtUtc;
  // Each entry comes no earlier than the one before and no later than the order's last change.
  const record = (at: string, kind: string, data: object) => {
    last = later(last, earlier(at, order.updatedAtUtc));
    history.push({ at: last, kind, data });
  };
  // The driver takes a payment at the door: right after the end status, else at the last change.
  const pay = (at: string) => {
    for (const { paymentId, amount, currency } of order.payments) record(at, 'payment', { paymentId, amount, currency });
    return last;
  };
  const choice = hashOf(order.id);
  const status = order.status;
  if (status === 'InPlanning') record(order.updatedAtUtc, 'status', { from: 'New', to: 'InPlanning', tripId: null });
  if (status === 'Cancelled') record(order.updatedAtUtc, 'cancel', { from: 'New', to: 'Cancelled', reason: CANCEL_REASONS[choice % CANCEL_REASONS.length] });
  if (OFF_TRIP.has(status)) return { history, paidAt: pay(order.updatedAtUtc) };

  const tripId = place?.tripId ?? null;
  record(place?.trip.plannedAtUtc ?? order.updatedAtUtc, 'status', { from: 'New', to: 'Planned', tripId });
  if (status !== 'Planned') record(place === undefined ? order.updatedAtUtc : clock.startedAt(place.trip), 'status', { from: 'Planned', to: 'InProgress', tripId });
  if (ON_LIVE_TRIP.has(status)) return { history, paidAt: pay(order.updatedAtUtc) };

  const end = status === 'Closed' ? endStatusesOf(order.type)[0]! : status;
  const finish = place === undefined ? order.updatedAtUtc : clock.finishedAt(order, place.trip);
  let stop: StoryStop | undefined;
  if (place?.stop !== undefined) {
    const outcome = stopOutcome(order, end, choice);
    record(finish, 'outcome', { tripId, stop: place.stop, ...outcome });
    stop = { orderId: order.id, status: outcome.status, reasonCode: outcome.reasonCode, outcomes: outcome.lines, finishedAt: last };
  }
  record(finish, 'status', { from: 'InProgress', to: end, tripId });
  const paidAt = pay(finish);
  if (status === 'Closed') record(order.updatedAtUtc, 'status', { from: end, to: 'Closed', tripId });
  return { history, paidAt, ...(stop === undefined ? {} : { stop }) };
}

// requirement: D40
// requirement: D42
// requirement: D88
/** The story of `dataset`; the trip ids its entries name are `idOf` the fixture's (the tenant's ids). */
export function datasetStory(dataset: Dataset, idOf: (fixtureId: string) => string): DatasetStory {
  const tripsById = new Map(dataset.trips.map((trip) => [trip.id, trip]));
  const ordersById = new Map(dataset.orders.map((order) => [order.id, order]));
  const stopIndex = new Map<string, number>();
  for (const trip of dataset.trips) trip.orderIds.forEach((orderId, index) => stopIndex.set(`${trip.id}/${orderId}`, index));
  const clock = tripClock(ordersById);

  const orders = new Map<string, OrderStory>();
  const finished = new Map<string, StoryStop>();
  for (const order of dataset.orders) {
    const trip = order.tripId === null ? undefined : tripsById.get(order.tripId);
    const place = trip === undefined ? undefined : { trip, tripId: idOf(trip.id), stop: stopIndex.get(`${trip.id}/${order.id}`) };
    const { history, paidAt, stop } = orderStory(order, place, clock);
    orders.set(order.id, { history, paidAt });
    if (stop !== undefined) finished.set(`${trip!.id}/${order.id}`, stop);
  }

  const stops = new Map<string, StoryStop[]>();
  for (const trip of dataset.trips) {
    stops.set(trip.id, trip.orderIds.map((orderId): StoryStop => {
      const stop = finished.get(`${trip.id}/${orderId}`);
      if (stop !== undefined) return stop;
      const order = ordersById.get(orderId);
      // An order on a live trip is an open stop; one that is elsewhere now left it.
      const open = order !== undefined && ON_LIVE_TRIP.has(order.status) && order.tripId === trip.id;
      return { orderId, status: open ? 'Open' : 'Cancelled', reasonCode: null, outcomes: null, finishedAt: open ? null : (order?.updatedAtUtc ?? trip.updatedAtUtc) };
    }));
  }
  return { orders, stops };
}
