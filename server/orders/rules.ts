/** The order moves of the integration interface and when they are legal (D11, D12). */
import type { OrderStatusName } from '../../spec/load.ts';

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
