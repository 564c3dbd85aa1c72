/**
 * One change of the living feed (D53): what the simulation's orders and trips allow now,
 * picked with the change's own draws, and made through the same store writes as the
 * control plane's. Orders may pass through `OnHold`, a status the contract does not list
 * (D54), when the simulation asks for it; its trips may too, and the orders it takes in may
 * carry `deliveryWindow`, a member the contract does not list yet (D93).
 */
// The English faker alone: the package's main entry loads every locale (fixtures/generate.ts).
import { faker } from '@faker-js/faker/locale/en';
import type { OrderType } from '../../spec/load.ts';
import type { LineIntake, OrderIntake } from '../orders/intake-rules.ts';
import type { LineOutcomeInput } from '../trips/outcomes.ts';
import { CANCEL_REASONS, FAILURE_REASONS, SHORTFALL_REASONS } from '../domain/reason-codes.ts';
import { Refusal } from '../domain/refusal.ts';
import type { ChosenIds } from '../domain/short-id.ts';
import { scopedId } from '../store/dataset.ts';
import type { Steps } from '../store/sql.ts';
import type { Store } from '../store/index.ts';
import type { PoolOrder, PoolTrip, ReferenceIds, SimulationRow } from './store.ts';
import { changeDraws, type Draw, generator, intOf, pickInt, stateOf } from './draws.ts';

// requirement: D54
/** The status an order passes through when unknown statuses are on (D54). */
export const UNLISTED_STATUS = 'OnHold';

// requirement: D93
/** The status a Confirmed trip passes through when unknown trip statuses are on, before it is confirmed again (D93). */
export const UNLISTED_TRIP_STATUS = 'OnHold';

/** The kinds of change, as the simulation names them. */
export type ChangeKind = 'intake' | 'build' | 'start' | 'outcome' | 'complete' | 'cancelOrder' | 'cancelTrip' | 'hold' | 'release' | 'holdTrip' | 'releaseTrip';

/** How many waiting orders the simulation keeps taking in towards, and how many trips it keeps live at most. */
const WAITING_TARGET = 24;
const LIVE_TRIPS_MAX = 6;

/** What a change can see: the simulation's live orders and trips, sorted by what can happen to them. */
interface Situation {
  waiting: PoolOrder[];
  fresh: PoolOrder[];
  held: PoolOrder[];
  confirmed: PoolTrip[];
  heldTrips: PoolTrip[];
  delivering: PoolTrip[];
  finished: PoolTrip[];
}

/** The simulation's orders and trips as they are now; the pool drops those it no longer tends. */
function* situation(store: Store, row: SimulationRow): Steps<Situation> {
  const orders = yield* store.simulations.steps.poolOrders(row.tenantId, row.pool.orders);
  const trips = yield* store.simulations.steps.poolTrips(row.tenantId, row.pool.trips);
  row.pool = { orders: orders.map((order) => order.id), trips: trips.map((trip) => trip.id) };
  const waiting = orders.filter((order) => !order.onTrip && (order.status === 'New' || order.status === 'InPlanning'));
  return {
    waiting,
    fresh: waiting.filter((order) => order.status === 'New'),
    held: orders.filter((order) => order.status === UNLISTED_STATUS),
    confirmed: trips.filter((trip) => trip.status === 'Confirmed'),
    heldTrips: trips.filter((trip) => trip.status === UNLISTED_TRIP_STATUS),
    delivering: trips.filter((trip) => trip.status === 'InProgress' && trip.nextOpenStop !== null),
    finished: trips.filter((trip) => trip.status === 'InProgress' && trip.nextOpenStop === null),
  };
}

/** How likely each change is in `now`: only what is possible weighs anything, and the flow keeps a pool of waiting orders. */
function weights(now: Situation, row: Pick<SimulationRow, 'unknownStatuses' | 'unknownTripStatuses'>): [ChangeKind, number][] {
  const liveTrips = now.confirmed.length + now.heldTrips.length + now.delivering.length + now.finished.length;
  return [
    ['intake', now.waiting.length < WAITING_TARGET ? 3 : 0.5],
    ['build', liveTrips >= LIVE_TRIPS_MAX || now.waiting.length === 0 ? 0 : now.waiting.length >= 3 ? 2 : 0.3],
    ['start', now.confirmed.length > 0 ? 1.5 : 0],
    ['outcome', now.delivering.length > 0 ? 4 : 0],
    ['complete', now.finished.length > 0 ? 3 : 0],
    ['cancelOrder', now.waiting.length > 5 ? 0.3 : 0],
    ['cancelTrip', now.confirmed.length > 0 ? 0.15 : 0],
    ['hold', row.unknownStatuses && now.fresh.length > 0 ? 0.6 : 0],
    ['release', now.held.length > 0 ? 0.4 + 0.2 * now.held.length : 0],
    ['holdTrip', row.unknownTripStatuses && now.confirmed.length > 0 ? 0.8 : 0],
    ['releaseTrip', now.heldTrips.length > 0 ? 0.4 + 0.2 * now.heldTrips.length : 0],
  ];
}

/** A kind picked from `choices` in proportion to its weight. */
function pickKind(draw: Draw, choices: [ChangeKind, number][]): ChangeKind {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let at = draw() * total;
  for (const [kind, weight] of choices) {
    at -= weight;
    if (weight > 0 && at < 0) return kind;
  }
  return 'intake';
}

/**
 * Makes one change for the simulation `row` (due now, its clock pinned by the caller): steps
 * of the caller's unit of work. Answers its kind.
 */
export function* makeChange(store: Store, row: SimulationRow): Steps<ChangeKind> {
  const draw = changeDraws(row.seed, row.position);
  const now = yield* situation(store, row);
  const kind = pickKind(draw, weights(now, row));
  try {
    yield* perform(store, row, kind, now, draw);
    return kind;
  } catch (error) {
    // Someone else moved an order or trip the simulation tends; an intake is always possible.
    // A refusal comes before the change's first write (the store's writes check, then write).
    if (!(error instanceof Refusal) || kind === 'intake') throw error;
    yield* perform(store, row, 'intake', now, draw);
    return 'intake';
  }
}

/** Makes the change `kind`; throws a Refusal when what it was to act on has moved meanwhile. */
function* perform(store: Store, row: SimulationRow, kind: ChangeKind, now: Situation, draw: Draw): Steps<void> {
  const { tenantId } = row;
  const { tripLife } = store;
  const oldest = <T>(items: T[]): T => items[0]!;
  switch (kind) {
    case 'intake':
      return yield* intake(store, row);
    case 'build':
      return yield* build(store, row, now.waiting, draw);
    case 'start':
      return yield* tripLife.steps.start(tenantId, oldest(now.confirmed).id);
    case 'outcome':
      return yield* outcome(store, tenantId, oldest(now.delivering), draw);
    case 'complete':
      return yield* tripLife.steps.complete(tenantId, oldest(now.finished).id);
    case 'cancelOrder': {
      const order = now.waiting[pickInt(draw, now.waiting.length)]!;
      const result = yield* store.orders.steps.cancel(tenantId, order.externalId, CANCEL_REASONS[pickInt(draw, CANCEL_REASONS.length)]!);
      if (!result.ok) throw new Refusal(result.reason === 'notFound' ? 'orders.notFound' : 'orders.status.illegal', `The order ${order.id} cannot be cancelled.`);
      return;
    }
    case 'cancelTrip':
      return yield* tripLife.steps.cancel(tenantId, oldest(now.confirmed).id, CANCEL_REASONS[pickInt(draw, CANCEL_REASONS.length)]!);
    case 'hold':
      return yield* moveOrder(store, tenantId, oldest(now.fresh).id, 'New', UNLISTED_STATUS);
    case 'release':
      return yield* moveOrder(store, tenantId, oldest(now.held).id, UNLISTED_STATUS, 'InPlanning');
    case 'holdTrip':
      return yield* moveTrip(store, tenantId, oldest(now.confirmed).id, 'Confirmed', UNLISTED_TRIP_STATUS);
    case 'releaseTrip':
      return yield* moveTrip(store, tenantId, oldest(now.heldTrips).id, UNLISTED_TRIP_STATUS, 'Confirmed');
  }
}

function* moveTrip(store: Store, tenantId: string, tripId: string, from: string, to: string): Steps<void> {
  if (!(yield* store.simulations.steps.moveTrip(tenantId, tripId, from, to))) throw new Refusal('planning.trip_not_confirmed', `The trip ${tripId} is no longer ${from}.`);
}

function* moveOrder(store: Store, tenantId: string, orderId: string, from: string, to: string): Steps<void> {
  if (!(yield* store.simulations.steps.moveOrder(tenantId, orderId, from, to))) throw new Refusal('orders.status.illegal', `The order ${orderId} is no longer ${from}.`);
}

/** Ids of the thing `what` the change makes, derived from tenant, seed, run and position, with short-id draws of their own. */
function chosenIds(row: SimulationRow, what: string, lines = 0): ChosenIds {
  const name = `simulation:${row.seed}:${row.run}:${row.position}:${what}`;
  const draw = generator(stateOf(row.tenantId, name));
  return {
    id: scopedId(row.tenantId, name),
    lineIds: Array.from({ length: lines }, (_, line) => scopedId(row.tenantId, `${name}:line:${line}`)),
    pick: (bound) => pickInt(draw, bound),
  };
}

/** Takes in one order, drawn with faker seeded for this change. */
function* intake(store: Store, row: SimulationRow): Steps<void> {
  const references = yield* store.simulations.steps.references(row.tenantId);
  // Seeded after the read: nothing else may draw from faker between the seed and the last draw.
  faker.seed(intOf('faker', row.seed, row.run, row.position));
  const type: OrderType = faker.datatype.boolean(0.2) ? 'Pickup' : 'Delivery';
  const count = faker.number.int({ min: 1, max: 3 });
  const order: OrderIntake = {
    externalId: `SIM-${faker.string.alphanumeric({ length: 10, casing: 'upper' })}`,
    type,
    customId: faker.datatype.boolean(0.3) ? `PO-${faker.string.numeric(7)}` : null,
    lines: Array.from({ length: count }, () => orderLine(row.tenantId, references)),
  };
  // Drawn with the rest, before the first write: faker is shared, and a write may wait.
  const window = row.unknownMembers ? { daysAfter: faker.number.int({ min: 1, max: 3 }), fromHour: faker.number.int({ min: 7, max: 16 }), hours: faker.helpers.arrayElement([2, 3, 4]) } : null;
  const id = yield* store.intake.steps.create(row.tenantId, order, chosenIds(row, 'order', count));
  if (window !== null) yield* store.simulations.steps.setDeliveryWindow(id, window);
  row.pool.orders.push(id);
}

/** One line naming the tenant's own warehouse and product when it has some, else ids of its own (never served). */
function orderLine(tenantId: string, references: ReferenceIds): LineIntake {
  const pick = (ids: string[], name: string) => (ids.length > 0 ? faker.helpers.arrayElement(ids) : scopedId(tenantId, `simulation:${name}`));
  return {
    warehouseId: pick(references.warehouses, 'warehouse'),
    productId: pick(references.products, `product:${faker.number.int({ min: 0, max: 19 })}`),
    quantity: faker.number.int({ min: 1, max: 6 }),
    weightKg: faker.number.float({ min: 0.2, max: 25, fractionDigits: 2 }),
    volumeM3: faker.number.float({ min: 0.001, max: 0.2, fractionDigits: 3 }),
    price: Number(faker.commerce.price({ min: 2, max: 400 })),
  };
}

/** Builds a trip of the oldest waiting orders (one to six of them), with a driver and vehicle of the tenant's when it has any. */
function* build(store: Store, row: SimulationRow, waiting: PoolOrder[], draw: Draw): Steps<void> {
  const size = Math.min(waiting.length, 1 + pickInt(draw, 6));
  const { drivers, vehicles } = yield* store.simulations.steps.references(row.tenantId);
  const input = {
    orderIds: waiting.slice(0, size).map((order) => order.id),
    driverId: drivers.length > 0 ? drivers[pickInt(draw, drivers.length)]! : null,
    vehicleId: vehicles.length > 0 ? vehicles[pickInt(draw, vehicles.length)]! : null,
  };
  row.pool.trips.push(yield* store.tripLife.steps.build(row.tenantId, input, chosenIds(row, 'trip')));
}

/** Records the trip's next open stop: delivered in full mostly, sometimes in part, sometimes failed. */
function* outcome(store: Store, tenantId: string, trip: PoolTrip, draw: Draw): Steps<void> {
  const index = trip.nextOpenStop!;
  const roll = draw();
  if (roll < 0.12) {
    yield* store.tripLife.steps.recordOutcome(tenantId, trip.id, index, { status: 'Failed', reasonCode: FAILURE_REASONS[pickInt(draw, FAILURE_REASONS.length)]! });
    return;
  }
  const stop = yield* store.simulations.steps.stopOrder(trip.id, index);
  const short = roll < 0.27 ? stop.lines.findIndex((line) => line.quantity >= 2) : -1;
  const reasonCode = SHORTFALL_REASONS[pickInt(draw, SHORTFALL_REASONS.length)]!;
  const collects = stop.type === 'Pickup' || stop.type === 'Return';
  const lines: LineOutcomeInput[] = stop.lines.map((line, i) => {
    const missing = i === short ? 1 + pickInt(draw, line.quantity - 1) : 0;
    const shortfall = missing > 0 ? { reasonCode } : {};
    return collects || line.role === 'PickUp'
      ? { line: line.line, collected: line.quantity - missing, notCollected: missing, ...shortfall }
      : { line: line.line, delivered: line.quantity - missing, returned: missing, ...shortfall };
  });
  yield* store.tripLife.steps.recordOutcome(tenantId, trip.id, index, { status: 'Completed', lines });
}
