/** What the write checks expect of an answer, and the pool ids they write. */
import { CANCELLABLE_STATUSES } from '../../contract/order-statuses.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpResponse } from '../../engine/types/exchange.ts';
import { objectOf, received } from './order-requests.ts';
import { poolStates, preferring, qualifyingOrders } from './pool-state.ts';
import { seedContractErrors } from './response-contract.ts';

/** Findings unless `response` is 200 with an Order (as the seeds define it) whose externalId is `externalId`. */
export function expectOrder(ctx: CheckContext, response: HttpResponse, externalId: string, what: string): Finding[] {
  const where = `${what}: ${describeExchange(response.exchange)}`;
  if (response.status !== 200) return [finding(where, `200 with the order ${externalId}`, received(response), response.exchange)];
  const errors = seedContractErrors('Order', response.json, ctx.profile);
  if (errors.length > 0) {
    const text = errors.join('; ');
    return [finding(`${where}: the body is not an Order`, 'an Order (id, externalId, shortId, status, …)', `${text} in ${show(response.json)}`, response.exchange)];
  }
  const actual = objectOf(response)?.['externalId'];
  return actual === externalId ? [] : [finding(`${where}: the answer is another order`, `externalId ${externalId}`, `externalId ${show(actual)}`, response.exchange)];
}

/** The first id of `pool` given to this check whose state the pool promises (read from the feed). */
export async function liveId(ctx: CheckContext, pool: 'payable' | 'archivable'): Promise<string> {
  return (await qualifyingOrders(ctx, pool, poolStates[pool]))[0]!.externalId;
}

/** A cancellable id of this check, New first: the status whose cancel is least in doubt. */
export async function cancellableId(ctx: CheckContext): Promise<string> {
  return preferring(await qualifyingOrders(ctx, 'cancellable', poolStates.cancellable), CANCELLABLE_STATUSES)[0]!.externalId;
}
