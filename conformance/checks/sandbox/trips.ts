/**
 * Sandbox, trips: building a trip from orders, the trip's moves (start, complete, cancel), what
 * cancelling a trip does to its stops and orders, and the rules of a stop's outcome, each
 * produced on trips of a tenant the check builds.
 */
import { randomUUID } from 'node:crypto';
import type { OrderStatusName, TripStatus } from '../../../spec/load.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check } from '../../engine/types/check.ts';
import { onControlPlane } from '../support/control-plane.ts';
import { paths, received } from '../support/order-requests.ts';

/** Empty, unplannable and already planned orders; an unknown trip. */
export const tripBuild: Check = {
  id: 'sandbox.trips.build',
  family: 'sandbox',
  title: 'a trip of no orders, of an order that cannot be planned or of an order already on a trip is refused; an unknown trip is 404 planning.trip_not_found',
  verifies: ['D41'],
  fix: 'refuse a trip of no orders, of an order that cannot be planned or of one already on a trip, each with its code, and answer an unknown trip with 404 planning.trip_not_found (D41)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const build = (orderIds: string[]) => ({ method: 'POST', path: `${tenant}/trips`, body: { orderIds } });
    const orderId = await plane.order(tenant, 'WAYBILL-TRIP-1');
    await plane.expect({ what: 'a trip of no orders', code: 'planning.trip_no_lines', field: 'orderIds', request: build([]) });
    await plane.expect({ what: 'a trip of a New order and an order id nobody issued', code: 'planning.order_not_plannable', field: 'orderIds[1]', request: build([orderId, randomUUID()]) });
    await plane.trip(tenant, [orderId]);
    await plane.expect({ what: 'a second trip of the planned order', code: 'planning.order_line_already_assigned', request: build([orderId]) });
    await plane.expect({ what: 'reading a trip id nobody issued', code: 'planning.trip_not_found', request: { method: 'GET', path: `${tenant}/trips/${randomUUID()}` } });
  }),
};

/** Start needs Confirmed, complete InProgress and no open stop, cancel a reason and Confirmed or InProgress. */
export const tripLifecycle: Check = {
  id: 'sandbox.trips.lifecycle',
  family: 'sandbox',
  title: 'start of a started trip, complete of a Confirmed trip or one with an open stop, cancel without a reason and cancel of a cancelled trip are refused with their codes',
  verifies: ['int.trip.start', 'int.trip.complete', 'int.trip.cancel'],
  fix: 'start only a Confirmed trip, complete only an InProgress trip with no open stop, cancel only with a reason and only a Confirmed or InProgress trip, refusing each other move with its code (int.trip.start, int.trip.complete, int.trip.cancel)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const trip = await plane.trip(tenant, [await plane.order(tenant, 'WAYBILL-TRIP-1')]);
    await plane.expect({ what: 'completing a Confirmed trip', code: 'planning.trip_not_in_progress', request: { method: 'POST', path: `${trip}/complete` } });
    await plane.need('starting the trip', { method: 'POST', path: `${trip}/start` });
    await plane.expect({ what: 'starting the started trip again', code: 'planning.trip_not_confirmed', request: { method: 'POST', path: `${trip}/start` } });
    await plane.expect({ what: 'completing a trip whose stop is open', code: 'planning.trip_has_open_stops', request: { method: 'POST', path: `${trip}/complete` } });
    await plane.expect({ what: 'cancelling a trip without reasonCode', code: 'trips.mutation.cancelReasonRequired', field: 'reasonCode', request: { method: 'POST', path: `${trip}/cancel`, body: {} } });
    await plane.need('cancelling the trip', { method: 'POST', path: `${trip}/cancel`, body: { reasonCode: 'Weather' } });
    await plane.expect({ what: 'cancelling the cancelled trip again', code: 'trips.mutation.tripNotCancelable', request: { method: 'POST', path: `${trip}/cancel`, body: { reasonCode: 'Weather' } } });
  }),
};

/** The statuses of a trip answer's stops, in stop order. */
function stopStatuses(trip: Record<string, unknown>): unknown[] {
  const stops = trip['stops'];
  return Array.isArray(stops) ? stops.map((stop: unknown) => (stop !== null && typeof stop === 'object' ? (stop as Record<string, unknown>)['status'] : undefined)) : [];
}

/**
 * Cancelling a trip (D43): its open stops are Cancelled and their orders go back to InPlanning,
 * plannable again, while a finished stop and its order's end status stay; a stop whose order
 * was cancelled through the integration API shows Removed and does not block completion.
 */
export const tripCancelDecided: Check = {
  id: 'sandbox.trips.cancel',
  family: 'sandbox',
  title: "a cancelled trip's open stops are Cancelled and their orders InPlanning and plannable again, a finished stop keeps its outcome; a stop whose order was cancelled shows Removed and does not block completion",
  verifies: ['D43'],
  fix: "on a trip's cancel, cancel its open stops and put their orders back InPlanning, plannable again, keep a finished stop's outcome, and show a stop whose order was cancelled as Removed, never blocking completion (D43)",
  requires: ['sandbox'],
  run: onControlPlane(async (plane, ctx) => {
    const tenant = await plane.tenant();
    const order = (externalId: string) => plane.order(tenant, externalId);
    const statusOf = async (orderId: string) => (await plane.need(`reading order ${orderId}`, { method: 'GET', path: `${tenant}/orders/${encodeURIComponent(orderId)}` }))['status'];
    const outcome = (trip: string, stop: number) => ({ method: 'POST', path: `${trip}/stops/${stop}/outcome`, body: { lines: [{ line: 0, delivered: 2 }] } });
    const [delivered, open] = [await order('WAYBILL-TRIPCANCEL-1'), await order('WAYBILL-TRIPCANCEL-2')];
    const trip = await plane.trip(tenant, [delivered, open], { start: true });
    await plane.need('delivering stop 0', outcome(trip, 0));
    const cancelled = await plane.need('cancelling the trip', { method: 'POST', path: `${trip}/cancel`, body: { reasonCode: 'VehicleBreakdown' } });
    const expected = { status: 'Cancelled' satisfies TripStatus, stops: ['Completed', 'Cancelled'], orders: ['FullyDelivered', 'InPlanning'] satisfies OrderStatusName[] };
    const actual = { status: cancelled['status'], stops: stopStatuses(cancelled), orders: [await statusOf(delivered), await statusOf(open)] };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) plane.findings.push(finding('cancelling a started trip after its first stop was delivered', show(expected), show(actual)));
    await plane.trip(tenant, [open]);

    // An order the integration API cancels leaves its trip (D11): its stop shows Removed.
    const created = await plane.need('creating a key that may cancel', { method: 'POST', path: `${tenant}/keys`, body: { name: 'waybill trip cancel', scopes: [ctx.profile.choices?.writeScope ?? 'orders:write'] } });
    const [gone, kept] = [await order('WAYBILL-TRIPCANCEL-3'), await order('WAYBILL-TRIPCANCEL-4')];
    const second = await plane.trip(tenant, [gone, kept]);
    const cancel = await ctx.http.request({ method: 'POST', path: paths.cancel('WAYBILL-TRIPCANCEL-3'), key: String(created['secret']), body: { reason: 'waybill conformance' } });
    if (cancel.status !== 200) return plane.stop(finding(`cancelling the Planned order WAYBILL-TRIPCANCEL-3 through the integration API (needed by this check): ${describeExchange(cancel.exchange)}`, '200', received(cancel), cancel.exchange));
    const removed = stopStatuses(await plane.need('reading the second trip', { method: 'GET', path: second }));
    if (removed[0] !== 'Removed') plane.findings.push(finding("the trip after its first stop's order was cancelled: the stop shows Removed", 'stop 0 Removed', `stop 0 ${show(removed[0])}`));
    await plane.need('starting the second trip', { method: 'POST', path: `${second}/start` });
    await plane.need('delivering stop 1', outcome(second, 1));
    await plane.need('completing the trip, its removed stop not open', { method: 'POST', path: `${second}/complete` });
    await plane.need('revoking the key this check made', { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(String(created['id']))}/revoke` });
  }),
};

/** Stop outcomes: lines, quantities, vocabulary and reasons; no stop, an inactive trip, a finished stop. */
export const stopOutcomes: Check = {
  id: 'sandbox.outcomes',
  family: 'sandbox',
  title: "a stop outcome that breaks a line rule, lacks a reason, names no stop, is on an inactive trip or on a finished stop is refused with its trips.* code",
  verifies: ['D42'],
  fix: 'refuse a stop outcome that breaks a line rule, lacks a reason, names no stop, or is on an inactive trip or a finished stop, each with its trips.* code (D42)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const first = await plane.order(tenant, 'WAYBILL-STOP-1');
    const second = await plane.order(tenant, 'WAYBILL-STOP-2');
    const trip = await plane.trip(tenant, [first, second], { start: true });
    const outcome = (body: unknown, stop = 0, path = trip) => ({ method: 'POST', path: `${path}/stops/${stop}/outcome`, body });
    // Each stop is a Delivery of one line of 2.
    await plane.expect({ what: 'an outcome of no lines', code: 'trips.outcomes.lineMismatch', field: 'lines', request: outcome({ lines: [] }) });
    await plane.expect({ what: 'delivered 1 of 2 with nothing returned or lost', code: 'trips.outcomes.invariantViolation', field: 'lines[0]', request: outcome({ lines: [{ line: 0, delivered: 1 }] }) });
    await plane.expect({ what: 'collected 2 on a Delivery line', code: 'trips.outcomes.wrongVocabulary', field: 'lines[0]', request: outcome({ lines: [{ line: 0, collected: 2 }] }) });
    await plane.expect({ what: 'returned 1 without reasonCode', code: 'trips.outcomes.reasonRequired', field: 'lines[0].reasonCode', request: outcome({ lines: [{ line: 0, delivered: 1, returned: 1 }] }) });
    await plane.expect({ what: 'a Failed stop without reasonCode', code: 'trips.stop.reasonRequired', field: 'reasonCode', request: outcome({ status: 'Failed' }) });
    await plane.expect({ what: 'an outcome for stop 5 of a trip of 2 stops', code: 'trips.stop.notFound', request: outcome({ lines: [{ line: 0, delivered: 2 }] }, 5) });
    await plane.need('delivering stop 0', outcome({ lines: [{ line: 0, delivered: 2 }] }));
    await plane.expect({ what: 'a second outcome for the finished stop 0', code: 'trips.stop.illegalTransition', request: outcome({ lines: [{ line: 0, delivered: 2 }] }) });
    const cancelled = await plane.trip(tenant, [await plane.order(tenant, 'WAYBILL-STOP-3')]);
    await plane.need('cancelling the second trip', { method: 'POST', path: `${cancelled}/cancel`, body: { reasonCode: 'VehicleBreakdown' } });
    await plane.expect({ what: 'an outcome on a cancelled trip', code: 'trips.stop.tripNotActive', request: outcome({ lines: [{ line: 0, delivered: 2 }] }, 0, cancelled) });
  }),
};

/** The trips checks. */
export const sandboxTripChecks: Check[] = [tripBuild, tripLifecycle, tripCancelDecided, stopOutcomes];
