/**
 * Feeds, paging: the order items come in, the page size (default, cap, refusals), whether page
 * size changes what a walk returns, and where nextCursor turns null. One builder per rule,
 * applied to the order feed and the trip feed alike.
 */
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import {
  capFindings,
  feedRun,
  type FeedItem,
  type FeedSpec,
  listItems,
  missingFrom,
  parameterProblem,
  readPage,
  reachOf,
  repeatedIn,
  requestFeed,
  stableVersions,
  versionOf,
  type Walk,
  walkFeed,
} from './walk.ts';
import { counted } from '../../../cli/counted.ts';

/** Consecutive pairs of a list. */
function pairs<T>(items: readonly T[]): [T, T][] {
  return items.slice(1).map((item, index) => [items[index] as T, item]);
}

/** The feed read from its start, 100 a page, at most 10 pages; skips when it holds fewer than two items. */
async function headWalk(ctx: CheckContext, feed: FeedSpec): Promise<Walk> {
  const walk = await walkFeed(ctx, feed, { limit: 100, maxPages: 10 });
  if (walk.items.length < 2) ctx.skip(`the ${feed.label} holds ${counted(walk.items.length, 'item')}; ordering needs two`);
  return walk;
}

/** Along a walk, updatedAtUtc never decreases. */
const oldestFirst = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.order' : 'feeds.trips.order',
  family: 'feeds',
  title: `the ${feed.label} comes oldest change first, across pages`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.oldest-first'] : ['int.trips-feed.oldest-first'],
  fix: `order the ${feed.label} by updatedAtUtc, oldest change first, across every page (${feed.name === 'orders' ? 'int.orders-feed.oldest-first' : 'int.trips-feed.oldest-first'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const walk = await headWalk(ctx, feed);
    const findings = pairs(walk.items)
      .filter(([previous, item]) => item.at < previous.at)
      .map(([previous, item]) =>
        finding(`${feed.label}: an item changed earlier comes after one changed later`, `updatedAtUtc ${previous.updatedAtUtc} or later after ${previous.id}`, `${item.id} @ ${item.updatedAtUtc}`, item.exchange),
      );
    return capFindings(findings);
  }),
});

/** Items sharing updatedAtUtc come in id order, each once (D7). */
const tiesById = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.order.ties' : 'feeds.trips.order.ties',
  family: 'feeds',
  title: `items of the ${feed.label} that share updatedAtUtc come in id order, each once`,
  verifies: ['D7'],
  fix: `order the ${feed.label} by (updatedAtUtc, id), so items that share a stamp come in id order and each exactly once (D7)`,
  requires: [],
  run: feedRun(async (ctx) => {
    const walk = await headWalk(ctx, feed);
    const ties = pairs(walk.items).filter(([previous, item]) => item.at === previous.at);
    if (ties.length === 0) ctx.skip(`no two of the ${walk.items.length} items read share an updatedAtUtc`);
    const findings = ties
      .filter(([previous, item]) => !(item.id > previous.id))
      .map(([previous, item]) =>
        finding(`${feed.label}: items that share updatedAtUtc ${item.updatedAtUtc} are not in id order`, `an id after ${previous.id}`, item.id === previous.id ? `${item.id} again` : item.id, item.exchange),
      );
    return capFindings(findings);
  }),
});

/** Without `limit`, a page holds 50 items. */
const defaultLimit = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.limit.default' : 'feeds.trips.limit.default',
  family: 'feeds',
  title: `the ${feed.label} serves 50 items a page when limit is absent`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.limit', 'int.limits.page-size'] : ['int.trips-feed.params', 'int.limits.page-size'],
  fix: `serve 50 items a page on the ${feed.label} when the request sends no limit (int.limits.page-size)`,
  requires: [`feeds:${feed.minimum}`],
  run: feedRun(async (ctx) => {
    const page = await readPage(ctx, feed, {});
    if (page.items.length === 50) return [];
    if (page.items.length < 50 && page.nextCursor === null) ctx.skip(`the ${feed.label} holds ${page.items.length} items, fewer than a default page`);
    return [finding(`${feed.label}: a page without limit is not 50 items`, '50 items', `${page.items.length} items, nextCursor ${show(page.nextCursor, 60)}`, page.exchange)];
  }),
});

/** `limit` above 100 is served as 100, without an error. */
const cappedLimit = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.limit.cap' : 'feeds.trips.limit.cap',
  family: 'feeds',
  title: `the ${feed.label} caps limit at 100 (limit=101 and limit=100000 give pages of 100)`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.limit', 'int.limits.page-size'] : ['int.trips-feed.params', 'int.limits.page-size'],
  fix: `serve a limit above 100 on the ${feed.label} as 100, a page of 100 items, without an error (int.limits.page-size)`,
  requires: [`feeds:${feed.minimum}`],
  run: feedRun(async (ctx) => {
    const findings: Finding[] = [];
    for (const limit of [101, 100_000]) {
      const response = await requestFeed(ctx, feed, { limit });
      const items = (response.json as { items?: unknown } | undefined)?.items;
      const count = Array.isArray(items) ? items.length : null;
      const nextCursor = (response.json as { nextCursor?: unknown } | undefined)?.nextCursor;
      if (response.status === 200 && count === 100) continue;
      if (response.status === 200 && count !== null && count < 100 && nextCursor === null) ctx.skip(`the ${feed.label} holds ${count} items, fewer than a capped page of 100`);
      const received = response.status === 200 ? `${count ?? 'no'} items, nextCursor ${show(nextCursor, 60)}` : `${response.status} ${show(response.json ?? response.text, 200)}`;
      findings.push(finding(`${feed.label}: limit=${limit} is not capped at 100`, '200 with 100 items', received, response.exchange));
    }
    return findings;
  }),
});

/** A `limit` below 1 or not an integer is 400 `api.malformed_request` naming `limit` (D8). */
const invalidLimit = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.limit.invalid' : 'feeds.trips.limit.invalid',
  family: 'feeds',
  title: `the ${feed.label} refuses limit 0, -1, abc and 1.5 with 400 naming limit`,
  verifies: ['D8'],
  fix: `refuse a limit below 1 or that is no integer on the ${feed.label} with 400 api.malformed_request, errors[0].field limit (D8)`,
  requires: [],
  run: feedRun(async (ctx) => {
    const findings: Finding[] = [];
    for (const limit of ['0', '-1', 'abc', '1.5']) {
      const response = await requestFeed(ctx, feed, { limit });
      const problem = parameterProblem(response, 'limit');
      if (problem !== null) findings.push(finding(`${feed.label}: limit=${limit} is not refused as malformed`, '400 api.malformed_request with errors[0].field limit', problem, response.exchange));
    }
    return findings;
  }),
});

/** The exchange of the first page of `walk` past `item`'s stamp (where the walk stepped over it), else its last. */
function pageOver(walk: Walk, item: FeedItem) {
  return (walk.items.find((other) => other.at > item.at) ?? walk.items[walk.items.length - 1])?.exchange ?? walk.pages[0]?.exchange;
}

/**
 * A walk 1 item a page returns each item a page of 100 returns, once. Compared: the versions a
 * page of 100 returned both before and after the slow walk (others' writes move theirs away),
 * stamped before the point every read surely reached.
 */
const sameItemsAnyLimit = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.walk.same-items' : 'feeds.trips.walk.same-items',
  family: 'feeds',
  title: `walking the ${feed.label} 1 item a page returns the items a page of 100 returns, each once`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.caught-up', 'int.order-page.nextCursor', 'int.orders-feed.cursor'] : ['int.trips-feed.oldest-first', 'int.trip-page.nextCursor', 'int.trips-feed.params'],
  fix: `page the ${feed.label} by position, not by count: whatever the page size, following nextCursor returns every item once and skips none (${feed.name === 'orders' ? 'int.order-page.nextCursor' : 'int.trip-page.nextCursor'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const before = await walkFeed(ctx, feed, { limit: 100, maxPages: 1 });
    if (before.items.length < 2) ctx.skip(`the ${feed.label} holds ${counted(before.items.length, 'item')}; a walk needs two`);
    const single = await walkFeed(ctx, feed, { limit: 1, maxPages: 40 });
    const after = await walkFeed(ctx, feed, { limit: 100, maxPages: 1 });
    const findings: Finding[] = [];
    for (const [name, walk] of [['limit=1 walk', single], ['page of 100 read before it', before], ['page of 100 read after it', after]] as const) {
      const repeats = repeatedIn(walk.items);
      if (repeats.length > 0) findings.push(finding(`${feed.label}: the ${name} returned an item twice`, 'each item (id and updatedAtUtc) once', listItems(repeats), repeats[0]?.exchange));
    }
    const reach = reachOf([before, single, after]);
    const expected = stableVersions(before.items, after.items).filter((item) => item.at < reach);
    const missing = missingFrom(single, expected);
    const first = missing[0];
    if (first !== undefined) {
      const where = pageOver(single, first);
      const upTo = Number.isFinite(reach) ? ` stamped before ${new Date(reach).toISOString()}` : '';
      findings.push(
        finding(
          `${feed.label}: the walk with limit=1 skipped items that pages of 100 returned before and after it${where === undefined ? '' : ` (${describeExchange(where)})`}`,
          `all ${expected.length} unchanged items${upTo} in the limit=1 walk`,
          `missing ${listItems(missing)}`,
          where,
        ),
      );
    }
    return findings;
  }),
});

/** A since no item can have reached. */
const FAR_FUTURE = '2999-12-31T00:00:00.000Z';

/** The result of one look at the feed's tail: clean, broken (findings), or changed under the look. */
type TailLook = 'clean' | 'unsettled' | Finding[];

/**
 * Reads the n items from `since` to the end three ways: all at once, n a page (must end with
 * null), and n-1 a page (whose next page must hold the last item and end). A re-read afterwards
 * tells whether the tail changed meanwhile, in which case nothing is concluded.
 */
async function lookAtTail(ctx: CheckContext, feed: FeedSpec, since: string): Promise<TailLook> {
  const whole = await readPage(ctx, feed, { since, limit: 100 });
  const n = whole.items.length;
  if (n === 0 || whole.nextCursor !== null) return 'unsettled';
  const exact = await readPage(ctx, feed, { since, limit: n });
  const short = n >= 2 ? await readPage(ctx, feed, { since, limit: n - 1 }) : null;
  const rest = short?.nextCursor ? await readPage(ctx, feed, { cursor: short.nextCursor, limit: n - 1 }) : null;
  const again = await readPage(ctx, feed, { since, limit: 100 });
  const versions = (items: readonly FeedItem[]) => items.map(versionOf).join('\n');
  if (again.nextCursor !== null || versions(again.items) !== versions(whole.items)) return 'unsettled';

  const findings: Finding[] = [];
  if (exact.items.length !== n || exact.nextCursor !== null) {
    findings.push(finding(`${feed.label}: the page holding the last item does not end the feed`, `${n} items and nextCursor null (limit=${n}, ${n} items match)`, `${exact.items.length} items, nextCursor ${show(exact.nextCursor, 60)}`, exact.exchange));
  }
  // A null nextCursor on the page one short of the end is the seeds' rule, not D6's: feeds.*.cursor.more checks it.
  if (rest !== null && (rest.items.length !== 1 || rest.nextCursor !== null)) {
    findings.push(finding(`${feed.label}: the page after the cursor does not hold exactly the last item and end`, '1 item and nextCursor null', `${rest.items.length} items, nextCursor ${show(rest.nextCursor, 60)}`, rest.exchange));
  }
  return findings.length === 0 ? 'clean' : findings;
}

/** nextCursor is null exactly on the page holding the last item (D6). */
const exactEnd = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.cursor.end' : 'feeds.trips.cursor.end',
  family: 'feeds',
  title: `the ${feed.label}'s nextCursor is null exactly on the page holding the last item`,
  verifies: ['D6'],
  fix: `fetch limit + 1 items and answer nextCursor null exactly when the ${feed.label}'s page holds the last matching item, never on a page with more to come nor after it (D6)`,
  requires: [],
  // The end is the tail, where every write of other checks lands: look at it while nothing else runs.
  exclusive: true,
  run: feedRun(async (ctx) => {
    const findings: Finding[] = [];
    const nothing = await readPage(ctx, feed, { since: FAR_FUTURE, limit: 10 });
    if (nothing.items.length > 0 || nothing.nextCursor !== null) {
      findings.push(finding(`${feed.label}: nothing matches since=${FAR_FUTURE}, yet the page is not an end`, 'items [] and nextCursor null', `${nothing.items.length} items, nextCursor ${show(nothing.nextCursor, 60)}`, nothing.exchange));
    }
    const walk = await walkFeed(ctx, feed, { limit: 100, maxPages: 50 });
    const pivot = walk.items[Math.max(0, walk.items.length - 3)];
    // What the empty page showed stands even when the tail cannot be looked at.
    if (findings.length > 0 && (!walk.ended || walk.items.length < 2)) return findings;
    if (!walk.ended) ctx.skip(`the ${feed.label} did not end within 50 pages of 100`);
    if (pivot === undefined || walk.items.length < 2) return ctx.skip(`the ${feed.label} holds ${counted(walk.items.length, 'item')}; its end needs two`);
    // Other checks' writes land on the tail; look again until one look sees it still.
    let broken: Finding[] | null = null;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const look = await lookAtTail(ctx, feed, pivot.updatedAtUtc);
      if (look === 'clean') return findings;
      if (look !== 'unsettled') broken = look;
    }
    if (broken !== null) return [...findings, ...broken];
    if (findings.length > 0) return findings;
    return ctx.skip(`the ${feed.label}'s tail changed during each of 5 looks`);
  }),
});

/** The paging checks of `feed`. */
export function pagingChecks(feed: FeedSpec): Check[] {
  return [oldestFirst(feed), tiesById(feed), defaultLimit(feed), cappedLimit(feed), invalidLimit(feed), sameItemsAnyLimit(feed), exactEnd(feed)];
}
