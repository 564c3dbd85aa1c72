/**
 * The order statuses the suite's rules name, read from the contract's list (`orderStatuses`,
 * spec/load.ts) and narrowed by the rule each comes from: the seeds' end rules (01-integration-api.md
 * › Order statuses, rules 1–3), D11 and D12. order-statuses.test.ts holds each to the contract's
 * enum and to the sentence of its rule in the register.
 */
import { type OrderStatusName, orderStatuses, type OrderType } from '../../spec/load.ts';

/** The contract's order statuses among `names`, in the contract's order. */
function listed(names: readonly OrderStatusName[]): readonly OrderStatusName[] {
  return orderStatuses.filter((status) => names.includes(status));
}

/** The end statuses of a delivery (rule 1; a Rebox uses them, rule 3). */
export const DELIVERY_END_STATUSES: readonly string[] = listed(['FullyDelivered', 'PartiallyDelivered', 'Returned']);
/** The end statuses of a pickup or return (rule 2). */
export const COLLECTION_END_STATUSES: readonly string[] = listed(['Collected', 'PartiallyCollected', 'NotCollected']);

/** The statuses the seeds say an order of each type ends in (rules 1–3). */
export const END_STATUSES_BY_TYPE: Readonly<Record<OrderType, readonly string[]>> = {
  Delivery: DELIVERY_END_STATUSES,
  Rebox: DELIVERY_END_STATUSES,
  Pickup: COLLECTION_END_STATUSES,
  Return: COLLECTION_END_STATUSES,
};

/** D11: the statuses a cancel is legal from, in the contract's order (New first). */
export const CANCELLABLE_STATUSES: readonly string[] = listed(['New', 'InPlanning', 'Planned']);
/** D12: the statuses of an order on a trip, from which an archive is refused. */
export const ON_TRIP_STATUSES: readonly string[] = listed(['Planned', 'InProgress']);

/** `statuses` as a reader says them: `New, InPlanning or Planned` (`conjunction` joins the last). */
export function statusWords(statuses: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
  return statuses.length < 2 ? statuses.join('') : `${statuses.slice(0, -1).join(', ')} ${conjunction} ${statuses.at(-1)!}`;
}
