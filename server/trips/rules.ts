/** When a trip may be built, started, completed or cancelled, and when its stops may change (seed trip table; D41–D43). */
import type { OrderStatusName } from '../../spec/load.ts';
import { refuse } from '../domain/refusal.ts';

// requirement: D41
/** Order statuses a trip can be built from (D41). */
export const PLANNABLE = new Set<string>(['New', 'InPlanning'] satisfies OrderStatusName[]);

/** Order statuses of an order on a live trip. */
export const ON_LIVE_TRIP = new Set<string>(['Planned', 'InProgress'] satisfies OrderStatusName[]);

// requirement: int.trip.start
/** Refuses a start unless the trip is Confirmed. */
export function assertCanStart(status: string): void {
  if (status !== 'Confirmed') refuse('planning.trip_not_confirmed', `The trip is ${status}; only a Confirmed trip can start.`);
}

// requirement: int.trip.complete
// requirement: D43
/** Refuses a completion unless the trip is InProgress with no open stop. */
export function assertCanComplete(status: string, openStops: number): void {
  if (status !== 'InProgress') refuse('planning.trip_not_in_progress', `The trip is ${status}; only an InProgress trip can complete.`);
  if (openStops > 0) refuse('planning.trip_has_open_stops', `${openStops} ${openStops === 1 ? 'stop is' : 'stops are'} still open.`);
}

// requirement: int.trip.cancel
/** Refuses a cancel unless the trip is Confirmed or InProgress. */
export function assertCanCancel(status: string): void {
  if (status !== 'Confirmed' && status !== 'InProgress') {
    refuse('trips.mutation.tripNotCancelable', `The trip is ${status}; only a Confirmed or InProgress trip can be cancelled.`);
  }
}

/** Refuses a stop change unless the trip is Confirmed or InProgress. */
export function assertStopsChangeable(status: string): void {
  if (status !== 'Confirmed' && status !== 'InProgress') {
    refuse('trips.stop.tripNotActive', `The trip is ${status}; stops change only on a Confirmed or InProgress trip.`);
  }
}
