/**
 * Feeds, changes: what the order feed shows of writes. An archived order is gone from it; an
 * order that changes while a consumer follows the feed comes back after the consumer's
 * position, once, and nothing else is skipped. Each check writes only the orders of its pool,
 * and first reads their state from the feed: an id whose status does not allow the write skips.
 */
import { randomUUID } from 'node:crypto';
import { CANCELLABLE_STATUSES, ON_TRIP_STATUSES, statusWords } from '../../contract/order-statuses.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpResponse } from '../../engine/types/exchange.ts';
import type { PoolName } from '../../engine/types/profile.ts';
import { type OrderState, qualifyingOrders } from '../support/pool-state.ts';
import {
  continueWalk,
  feedRun,
  type FeedItem,
  lastCursor,
  listItems,
  missingFrom,
  orderFeed,
  repeatedIn,
  shiftStamp,
  stableVersions,
  type Walk,
  walkFeed,
} from './walk.ts';

/** How many pages of 100 a walk to the feed's end may take before the check gives up (skip). */
const MAX_PAGES = 50;

/** The path of an order addressed by external id. */
function orderPath(externalId: string): string {
  return `/api/v1/integration/orders/externalid/${encodeURIComponent(externalId)}`;
}

/** The order feed from its start to its end; skips when it does not end within MAX_PAGES. */
async function wholeFeed(ctx: CheckContext, since?: string): Promise<Walk> {
  const walk = await walkFeed(ctx, orderFeed, { limit: 100, maxPages: MAX_PAGES, ...(since === undefined ? {} : { since }) });
  if (!walk.ended) ctx.skip(`the order feed did not end within ${MAX_PAGES} pages of 100`);
  return walk;
}

/** What an order must be to be archived (D12: any status but Planned and InProgress). */
const ARCHIVABLE = { describe: `an archivable order (any status but ${statusWords(ON_TRIP_STATUSES)}, D12)`, qualifies: (state: OrderState) => !ON_TRIP_STATUSES.includes(state.status) };
/** What an order must be to be cancelled (D11: New, InPlanning or Planned). */
const CANCELLABLE = { describe: `cancellable orders (${statusWords(CANCELLABLE_STATUSES)}, D11)`, qualifies: (state: OrderState) => CANCELLABLE_STATUSES.includes(state.status) };
/** What an order must be to take a payment: live, i.e. in the feed. */
const PAYABLE = { describe: 'live orders (in the order feed)', qualifies: () => true };

/**
 * The ids of `pool` given to this check whose state the order feed says is `wanted` (see
 * qualifyingOrders). A 429 to that read ends the check as skipped, as every feed read does.
 */
async function qualifying(ctx: CheckContext, pool: PoolName, wanted: typeof CANCELLABLE): Promise<OrderState[]> {
  try {
    return await qualifyingOrders(ctx, pool, wanted);
  } catch (error) {
    if (error instanceof Error && /^reading the order feed to verify pool states: 429\b/.test(error.message)) ctx.skip(`the order feed answered 429 while the states of profile orders.${pool} were read`);
    throw error;
  }
}

/** An archived order is returned by no page, filtered by its old status or not. */
const archivedHidden: Check = {
  id: 'feeds.orders.archived.hidden',
  family: 'feeds',
  title: 'an order archived through the API is no longer in the order feed',
  verifies: ['int.orders-feed.no-archived', 'int.archive.gone-from-feed'],
  fix: 'leave an order out of every page of the order feed once it has been archived (int.orders-feed.no-archived, int.archive.gone-from-feed)',
  requires: ['orders:archivable:1'],
  run: feedRun(async (ctx) => {
    const [{ externalId }] = (await qualifying(ctx, 'archivable', ARCHIVABLE)) as [OrderState];
    const before = await walkFeed(ctx, orderFeed, { limit: 100, maxPages: MAX_PAGES, until: (items) => items.some((item) => item.externalId === externalId) });
    const order = before.items.find((item) => item.externalId === externalId);
    if (order === undefined) return ctx.skip(`the archivable order ${externalId} is not among the ${before.items.length} items of the order feed read`);
    const archived = await ctx.http.request({ method: 'DELETE', path: orderPath(externalId) });
    if (archived.status !== 204) return ctx.skip(`archiving ${externalId} was answered ${archived.status}, not 204`);
    // From just before the order's last stamp: it could stay there or move to the tail.
    const since = shiftStamp(order.updatedAtUtc, -1);
    const walks: [string, Walk][] = [['the order feed', await wholeFeed(ctx, since)]];
    if (typeof order.status === 'string') walks.push([`the order feed filtered by its status ${order.status}`, await walkFeed(ctx, orderFeed, { since, limit: 100, status: [order.status], maxPages: MAX_PAGES })]);
    const findings: Finding[] = [];
    for (const [name, walk] of walks) {
      const seen = walk.items.find((item) => item.id === order.id || item.externalId === externalId);
      if (seen !== undefined) {
        findings.push(finding(`${name} still returns ${externalId} after ${describeExchange(archived.exchange)}`, 'no item of the archived order', `${seen.id} @ ${seen.updatedAtUtc} (status ${String(seen.status)})`, seen.exchange));
      }
    }
    return findings;
  }),
};

/** A write to one order of the check's pool. */
type Change = (ctx: CheckContext, externalId: string) => Promise<HttpResponse>;

/**
 * Follows the order feed while `change` writes two orders of `pool` that are `wanted`; the
 * findings of how the changed orders came back and, when `whole`, of every item the follower
 * repeated or skipped. Skips unless two of the pool's ids qualify.
 */
async function followAcrossChanges(ctx: CheckContext, pool: PoolName, wanted: typeof CANCELLABLE, change: Change, what: string, whole: boolean): Promise<Finding[]> {
  const usable = await qualifying(ctx, pool, wanted);
  if (usable.length < 2) return ctx.skip(`needs two ${wanted.describe} from profile orders.${pool}; of its ids given to this check only ${usable[0]!.externalId} qualifies`);
  const externalIds = new Set(usable.map((state) => state.externalId));
  const before = await wholeFeed(ctx);
  const ours = before.items.filter((item) => externalIds.has(item.externalId as string));
  const [first, second] = ours;
  if (first === undefined || second === undefined || ours.length > 2) return ctx.skip(`the order feed holds ${ours.length} items of the ${pool} orders ${[...externalIds].join(', ')}, not one each`);
  const since = shiftStamp(first.updatedAtUtc, -1);

  // The follower reads 5 a page until it has seen the first order, which then changes behind it.
  const follower: Walk = { pages: [], items: [], ended: false };
  await continueWalk(ctx, orderFeed, follower, null, { since, limit: 5, maxPages: 20, until: (items) => items.some((item) => item.id === first.id) });
  if (!follower.items.some((item) => item.id === first.id)) {
    const page = follower.pages[follower.pages.length - 1];
    return [finding(`order feed: since=${since} does not reach ${first.externalId as string}, stamped ${first.updatedAtUtc}`, `${first.id} within ${follower.items.length} items`, listItems(follower.items), page?.exchange)];
  }
  if (follower.ended) return ctx.skip(`the order feed ended on the page holding ${first.externalId as string}; no later page to continue from`);
  const marks: [FeedItem, number, HttpResponse][] = [];
  const write = async (order: FeedItem) => {
    const response = await change(ctx, order.externalId as string);
    if (response.status < 200 || response.status > 299) ctx.skip(`${what} ${order.externalId as string} was answered ${response.status}: ${show(response.json ?? response.text, 200)}`);
    marks.push([order, follower.items.length, response]);
  };
  await write(first);
  // One more page, then the second order changes mid-walk (ahead of the follower or behind it).
  await continueWalk(ctx, orderFeed, follower, lastCursor(follower), { limit: 5, maxPages: 1 });
  if (follower.ended) return ctx.skip('the order feed ended one page after the first change; no later page to continue from');
  await write(second);
  await continueWalk(ctx, orderFeed, follower, lastCursor(follower), { limit: 100, maxPages: MAX_PAGES });
  if (!follower.ended) return ctx.skip(`the follower did not reach the order feed's end within ${MAX_PAGES} pages of 100`);

  const findings: Finding[] = [];
  const end = follower.pages[follower.pages.length - 1]?.exchange;
  for (const [order, mark, response] of marks) {
    const label = order.externalId as string;
    const back = follower.items.slice(mark).filter((item) => item.id === order.id);
    const position = `after ${mark} items read (${describeExchange(response.exchange)})`;
    if (back.length === 0) {
      findings.push(finding(`order feed: ${label}, changed ${position}, never came back to the follower`, `${label} once more, stamped later than ${order.updatedAtUtc}`, `not among the ${follower.items.length - mark} items read after the change`, end));
    } else if (back.length > 1) {
      findings.push(finding(`order feed: ${label}, changed ${position}, came back ${back.length} times`, `${label} once`, listItems(back), back[1]?.exchange));
    } else if (back[0]!.at <= order.at) {
      findings.push(finding(`order feed: ${label}, changed ${position}, came back with the updatedAtUtc it had before`, `updatedAtUtc later than ${order.updatedAtUtc}`, `${back[0]!.updatedAtUtc}`, back[0]!.exchange));
    }
  }
  // What else the follower got is the seeds' rule (follow.changes checks it); a check of a decision's write stops here.
  if (!whole) return findings;
  const after = await wholeFeed(ctx, since);
  const repeats = repeatedIn(follower.items);
  if (repeats.length > 0) findings.push(finding('order feed: the follower got an item twice', 'each item (id and updatedAtUtc) once', listItems(repeats), repeats[0]?.exchange));
  const from = Date.parse(since);
  const missing = missingFrom(follower, stableVersions(before.items, after.items).filter((item) => item.at >= from));
  if (missing.length > 0) {
    findings.push(finding('order feed: the follower skipped items that walks before and after it returned', 'every unchanged item from since to the end', `missing ${listItems(missing)}`, end));
  }
  return findings;
}

/** A cancelled order reappears after a follower's position, once, and the follower misses nothing. */
const followCancels: Check = {
  id: 'feeds.orders.follow.changes',
  family: 'feeds',
  title: 'a follower of the order feed gets orders cancelled behind and ahead of it once more, after its position, and skips nothing',
  verifies: ['int.orders-feed.follows-changes'],
  fix: 'stamp a changed order with a new updatedAtUtc after every stamp already served, so a follower of the feed meets it again after its position and skips nothing (int.orders-feed.follows-changes)',
  requires: ['orders:cancellable:2'],
  run: feedRun((ctx) =>
    followAcrossChanges(ctx, 'cancellable', CANCELLABLE, (context, externalId) => context.http.request({ method: 'POST', path: `${orderPath(externalId)}/cancel`, body: { reason: 'waybill conformance: feeds.orders.follow.changes' } }), 'cancelling', true),
  ),
};

/**
 * A paid order reappears after a follower's position, once (D10: a payment moves updatedAtUtc).
 * Whether the follower skipped or repeated other items is the seeds' rule, left to follow.changes.
 */
const followPayments: Check = {
  id: 'feeds.orders.follow.payment',
  family: 'feeds',
  title: 'a follower of the order feed gets orders paid behind and ahead of it once more, after its position, with a later updatedAtUtc',
  verifies: ['D10'],
  fix: "move a paid order's updatedAtUtc forward when a payment is recorded, so a follower of the order feed meets it again after its position (D10)",
  requires: ['orders:payable:2'],
  run: feedRun((ctx) =>
    followAcrossChanges(ctx, 'payable', PAYABLE, (context, externalId) => context.http.request({ method: 'POST', path: `${orderPath(externalId)}/payment`, body: { paymentId: randomUUID(), amount: 12.5, currency: 'EUR' } }), 'paying', false),
  ),
};

/** The order feed's checks of writes. */
export const changeChecks: Check[] = [archivedHidden, followCancels, followPayments];
