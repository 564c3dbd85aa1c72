/** Trips in the control plane: list (D87), build, read, start, stop outcomes, complete, cancel (D41–D43). */
import type { components } from '../../spec/sandbox-types.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import { refuse } from '../domain/refusal.ts';
import type { Store } from '../store/index.ts';
import type { StopOutcomeInput } from './life.ts';
import { makeListHandler } from '../control-plane/lists.ts';
import { bodyOf, type Handler, paramsOf, sendJson } from '../control-plane/respond.ts';

/** Handlers of the trip operations: the list, and the moves, each of which answers the trip with its stops. */
export function makeTripHandlers(options: { store: Store; cursors: CursorCodec }): Record<string, Handler> {
  const { store, cursors } = options;
  const { tripLife } = store;
  const target = (res: Parameters<Handler>[1]) => ({ tenantId: paramsOf(res)['tenantId']!, tripId: paramsOf(res)['tripId']! });
  const answerTrip = async (res: Parameters<Handler>[1], status: number, tenantId: string, tripId: string) =>
    sendJson(res, status, (await tripLife.detail(tenantId, tripId)) ?? refuse('planning.trip_not_found', `No trip ${tripId} in the tenant.`));
  /** A handler that applies `move` to the trip the path names, then answers the trip. */
  const onTrip =
    (move: (trip: { tenantId: string; tripId: string }, res: Parameters<Handler>[1]) => Promise<void>): Handler =>
    async (_req, res) => {
      const trip = target(res);
      await move(trip, res);
      await answerTrip(res, 200, trip.tenantId, trip.tripId);
    };

  return {
    listTrips: makeListHandler('trip-list', { pages: { newest: store.trips.newestPage, oldest: store.trips.feedPage }, cursors, noun: 'trip' }),
    async buildTrip(_req, res) {
      const tenantId = paramsOf(res)['tenantId']!;
      const tripId = await tripLife.build(tenantId, bodyOf<components['schemas']['TripBuild']>(res));
      await answerTrip(res, 201, tenantId, tripId);
    },
    getTrip: onTrip(async () => undefined),
    startTrip: onTrip(({ tenantId, tripId }) => tripLife.start(tenantId, tripId)),
    recordStopOutcome: onTrip(({ tenantId, tripId }, res) =>
      tripLife.recordOutcome(tenantId, tripId, Number(paramsOf(res)['stopIndex']), bodyOf<StopOutcomeInput>(res)),
    ),
    completeTrip: onTrip(({ tenantId, tripId }) => tripLife.complete(tenantId, tripId)),
    cancelTrip: onTrip(({ tenantId, tripId }, res) => tripLife.cancel(tenantId, tripId, bodyOf<components['schemas']['TripCancelRequest']>(res).reasonCode)),
  };
}
