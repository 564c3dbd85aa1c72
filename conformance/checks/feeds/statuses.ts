/**
 * Feeds, order statuses: the status filter takes every status the seeds list, and no order
 * carries an end status of another kind of order (a Delivery or Rebox never ends as a pickup
 * does, a Pickup or Return never as a delivery does), as far as the order feed shows them.
 */
import { COLLECTION_END_STATUSES, DELIVERY_END_STATUSES } from '../../contract/order-statuses.ts';
import { finding, show } from '../../engine/findings.ts';
import type { Check, Finding } from '../../engine/types/check.ts';
import { capFindings, feedRun, type FeedItem, ORDER_STATUSES, orderFeed, requestFeed, walkFeed } from './walk.ts';

/** The end statuses an order of `type` never takes: the other kind's; undefined for a type the seeds do not list. */
function foreignEnds(type: unknown): readonly string[] | undefined {
  if (type === 'Delivery' || type === 'Rebox') return COLLECTION_END_STATUSES;
  if (type === 'Pickup' || type === 'Return') return DELIVERY_END_STATUSES;
  return undefined;
}

/** The order feed's status filter answers 200 with a page to each seed status, alone and all repeated. */
const statusValues: Check = {
  id: 'feeds.orders.status.values',
  family: 'feeds',
  title: `the order feed accepts each of the ${ORDER_STATUSES.length} order statuses the seeds list as a status filter, alone and repeated`,
  verifies: ['int.status.values'],
  fix: 'accept each order status the seeds list, alone or repeated, as a status filter of the order feed (int.status.values)',
  requires: [],
  run: feedRun(async (ctx) => {
    const findings: Finding[] = [];
    for (const status of [...ORDER_STATUSES.map((value) => [value]), [...ORDER_STATUSES]]) {
      const response = await requestFeed(ctx, orderFeed, { status, limit: 1 });
      const items = (response.json as { items?: unknown } | undefined)?.items;
      if (response.status === 200 && Array.isArray(items)) continue;
      const query = status.length === 1 ? `status=${status[0]!}` : `all ${status.length} statuses repeated`;
      findings.push(finding(`order feed: ${query} is not served`, '200 with a page (the seeds list it among the order statuses)', `${response.status} ${show(response.json ?? response.text, 200)}`, response.exchange));
    }
    return findings;
  }),
};

/** The order's end status, when it is one its type never takes. */
function wrongEnd(item: FeedItem): boolean {
  return foreignEnds(item.type)?.includes(item.status as string) ?? false;
}

/** No Delivery or Rebox order carries a pickup end status; no Pickup or Return order a delivery end status. */
const endStatusesByType: Check = {
  id: 'feeds.orders.status.ends',
  family: 'feeds',
  title: 'no order in the order feed ends as another type ends (Delivery and Rebox as delivered or returned, Pickup and Return as collected)',
  verifies: ['int.status.delivery-ends', 'int.status.pickup-ends', 'int.status.rebox'],
  fix: 'end each order as its type ends: a Delivery or Rebox as FullyDelivered, PartiallyDelivered or Returned, a Pickup or Return as Collected, PartiallyCollected or NotCollected (int.status.delivery-ends, int.status.pickup-ends, int.status.rebox)',
  requires: [],
  run: feedRun(async (ctx) => {
    const walk = await walkFeed(ctx, orderFeed, { limit: 100, maxPages: 50 });
    const typed = walk.items.filter((item) => foreignEnds(item.type) !== undefined);
    if (typed.length === 0) return ctx.skip(`none of the ${walk.items.length} orders read has a type the seeds list`);
    const findings = typed.filter(wrongEnd).map((item) => {
      const allowed = foreignEnds(item.type) === COLLECTION_END_STATUSES ? DELIVERY_END_STATUSES : COLLECTION_END_STATUSES;
      return finding(`order feed: a ${String(item.type)} order ends as ${String(item.status)}`, `a ${String(item.type)} order ending as ${allowed.join(', ')} (or any status that is not another type's end)`, `${item.id} (externalId ${show(item.externalId)}) with status ${String(item.status)}`, item.exchange);
    });
    return capFindings(findings);
  }),
};

/** The order feed's checks of order statuses. */
export const statusChecks: Check[] = [statusValues, endStatusesByType];
