/** The order moves of the integration interface and when they are legal (D11, D12), and every move an order's status can make. */
import type { OrderStatusName, OrderType } from '../../spec/load.ts';
import { endStatusesOf } from '../../fixtures/status-rules.ts';
import { ON_LIVE_TRIP, PLANNABLE } from '../trips/rules.ts';

// requirement: int.status.illegal-move
// requirement: D11
/** Statuses an order can be cancelled from (D11); it becomes `Cancelled`. */
export const CANCELLABLE = new Set<string>(['New', 'InPlanning', 'Planned'] satisfies OrderStatusName[]);

// requirement: int.status.illegal-move
// requirement: D12
/** Statuses an order cannot be archived from (D12): it is on a live trip. */
export const NOT_ARCHIVABLE = new Set<string>(['Planned', 'InProgress'] satisfies OrderStatusName[]);

/** True when an order in `status` may be cancelled. */
export function canCancel(status: string): boolean {
  return CANCELLABLE.has(status);
}

/** True when an order in `status` may be archived. */
export function canArchive(status: string): boolean {
  return !NOT_ARCHIVABLE.has(status);
}

/**
 * The listed statuses an order of `type` may move to from `status`. The sandbox's own moves:
 * planned onto a trip (D41), started, ended by its stop's outcome (D42), back to InPlanning
 * when its trip is cancelled (D43), cancelled (D11). And the moves of the product that no
 * operation offers, which seeded datasets show: New → InPlanning (planning took the order
 * in), InProgress → Refused (the customer refused it at the door), an end value → Closed.
 */
export function nextStatuses(type: OrderType, status: string): OrderStatusName[] {
  const ends = endStatusesOf(type);
  const next: OrderStatusName[] = [];
  if (status === 'New') next.push('InPlanning');
  if (PLANNABLE.has(status)) next.push('Planned');
  if (status === 'Planned') next.push('InProgress');
  if (status === 'InProgress') next.push(...ends, 'Refused');
  if (ON_LIVE_TRIP.has(status)) next.push('InPlanning');
  if (CANCELLABLE.has(status)) next.push('Cancelled');
  if ((ends as readonly string[]).includes(status)) next.push('Closed');
  return next;
}
