/**
 * Feeds, cursors: those the target did not issue (a garbage string, an issued cursor with junk
 * appended, cut short, or with one character changed; none of it assumes a cursor format), a
 * nextCursor wherever items remain, and what a cursor carries (D5: its position only, so a
 * `since` sent with it is ignored and the filters apply as sent).
 */
import { finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import {
  asWalk,
  capFindings,
  describeQuery,
  feedRun,
  type FeedItem,
  type FeedPage,
  type FeedQuery,
  type FeedSpec,
  listItems,
  missingFrom,
  parameterProblem,
  reachOf,
  readPage,
  requestFeed,
  stableVersions,
  statusesByCount,
  versionOf,
  walkFeed,
} from './walk.ts';
import { counted } from '../../../cli/counted.ts';

/** A value no server issues as a cursor. */
const GARBAGE = '***not-a-cursor***';

/** A cursor the target issued (the first page's, one item a page); skips when the feed issues none. */
async function issuedCursor(ctx: CheckContext, feed: FeedSpec): Promise<string> {
  const page = await readPage(ctx, feed, { limit: 1 });
  if (page.nextCursor === null) return ctx.skip(`the ${feed.label} holds at most one item, so it issued no cursor to alter`);
  return page.nextCursor;
}

/** `cursor` with its middle character replaced by another (a different letter in either case, or digit). */
export function edited(cursor: string): string {
  const middle = Math.floor(cursor.length / 2);
  const character = cursor[middle] ?? '';
  const replacement = /\d/.test(character) ? String((Number(character) + 1) % 10) : character.toLowerCase() === 'q' ? 'r' : 'q';
  return `${cursor.slice(0, middle)}${replacement}${cursor.slice(middle + 1)}`;
}

/** Damaged cursors by name: those any reading of "malformed" covers, and those D5 adds. */
function damaged(cursor: string, withDecision: boolean): [string, string][] {
  const plain: [string, string][] = [
    ['a garbage string', GARBAGE],
    ['an issued cursor with junk appended', `${cursor}!*~junk`],
  ];
  if (!withDecision) return plain;
  return [...plain, ...(cursor.length > 3 ? [['an issued cursor without its last 3 characters', cursor.slice(0, -3)] as [string, string]] : []), ['an issued cursor with its middle character changed', edited(cursor)]];
}

/** A garbage cursor or an issued one with junk appended is answered 400. */
const malformedCursor = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.cursor.malformed' : 'feeds.trips.cursor.malformed',
  family: 'feeds',
  title: `the ${feed.label} answers 400 to a malformed cursor`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.cursor'] : ['int.trips-feed.refusals'],
  fix: `answer a cursor the ${feed.label} cannot read with 400 (${feed.name === 'orders' ? 'int.orders-feed.cursor' : 'int.trips-feed.refusals'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const cursor = await issuedCursor(ctx, feed);
    const findings: Finding[] = [];
    for (const [name, value] of damaged(cursor, false)) {
      const response = await requestFeed(ctx, feed, { cursor: value, limit: 1 });
      if (response.status !== 400) findings.push(finding(`${feed.label}: ${name} as cursor was not answered 400`, '400', `${response.status} ${show(response.json ?? response.text, 200)}`, response.exchange));
    }
    return findings;
  }),
});

/** Every cursor the target did not issue, cut or edited ones too, is 400 `api.malformed_request` naming `cursor` (D5). */
const unissuedCursor = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.cursor.unissued' : 'feeds.trips.cursor.unissued',
  family: 'feeds',
  title: `the ${feed.label} refuses any cursor it did not issue (garbage, junk appended, cut short, edited) with 400 naming cursor`,
  verifies: ['D5'],
  fix: `sign the cursors the ${feed.label} issues (an HMAC of the position), and refuse any other, edited, cut or extended, with 400 api.malformed_request naming cursor (D5)`,
  requires: [],
  run: feedRun(async (ctx) => {
    const cursor = await issuedCursor(ctx, feed);
    const findings: Finding[] = [];
    for (const [name, value] of damaged(cursor, true)) {
      const response = await requestFeed(ctx, feed, { cursor: value, limit: 1 });
      const problem = parameterProblem(response, 'cursor');
      if (problem !== null) findings.push(finding(`${feed.label}: ${name} as cursor was not refused as malformed`, '400 api.malformed_request with errors[0].field cursor', problem, response.exchange));
    }
    return findings;
  }),
});

/** One walk of `cursor.more`: where it starts, its filters, its page size, and how far it goes. */
interface WalkPlan {
  query: Omit<FeedQuery, 'cursor'> & { limit: number };
  maxPages: number;
}

/** A year in ms: a since this far ahead lies after every item. */
const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * The item `back` places before the end of the feed, read 100 a page from its start (at most 10
 * pages); undefined when the feed does not end within them or holds fewer items.
 */
async function nearTail(ctx: CheckContext, feed: FeedSpec, back: number) {
  const whole = await walkFeed(ctx, feed, { limit: 100, maxPages: 10 });
  return whole.ended ? whole.items[whole.items.length - back] : undefined;
}

/**
 * The walks `cursor.more` makes: small pages from the start, under one and two statuses, from a
 * since in the middle of the first page, and a page one short of the items left near the tail.
 */
async function morePlans(ctx: CheckContext, feed: FeedSpec): Promise<WalkPlan[]> {
  const head = await readPage(ctx, feed, { limit: 100 });
  if (head.items.length < 3) ctx.skip(`the ${feed.label} holds ${counted(head.items.length, 'item')}; walks of small pages need three`);
  const [common, second] = statusesByCount(head.items);
  const plans: WalkPlan[] = [{ query: { limit: 1 }, maxPages: 3 }];
  if (common !== undefined) plans.push({ query: { limit: 2, status: [common] }, maxPages: 3 });
  if (common !== undefined && second !== undefined) plans.push({ query: { limit: 3, status: [common, second] }, maxPages: 3 });
  plans.push({ query: { limit: 2, since: head.items[Math.floor(head.items.length / 2)]!.updatedAtUtc }, maxPages: 3 });
  const tail = await nearTail(ctx, feed, 6);
  if (tail !== undefined) {
    const left = await readPage(ctx, feed, { since: tail.updatedAtUtc, limit: 100 });
    if (left.nextCursor === null && left.items.length >= 2) plans.push({ query: { limit: left.items.length - 1, since: tail.updatedAtUtc }, maxPages: 2 });
  }
  return plans;
}

/**
 * Walks `plan` between two reads of 100 with the same filters. When the walk ends, each version
 * both reads returned (it existed throughout) and stamped within their reach must be in it: a
 * null nextCursor said nothing remained.
 */
async function nullTooEarly(ctx: CheckContext, feed: FeedSpec, plan: WalkPlan): Promise<Finding[]> {
  const { limit, ...filters } = plan.query;
  const before = await readPage(ctx, feed, { ...filters, limit: 100 });
  const walk = await walkFeed(ctx, feed, { ...filters, limit, maxPages: plan.maxPages });
  const after = await readPage(ctx, feed, { ...filters, limit: 100 });
  if (!walk.ended) return [];
  const reach = reachOf([asWalk(before), asWalk(after)]);
  const missing = missingFrom(walk, stableVersions(before.items, after.items).filter((item) => item.at < reach));
  if (missing.length === 0) return [];
  const last = walk.pages[walk.pages.length - 1]!;
  return [
    finding(
      `${feed.label}: walking ${describeQuery(plan.query)}, page ${walk.pages.length} said the feed is caught up while items remained`,
      `a nextCursor on every page until the last matching item (pages of 100 with the same filters returned ${listItems(missing, 3)} before and after the walk)`,
      `${counted(last.items.length, 'item')} and nextCursor null after ${counted(walk.items.length, 'item')} in all; missing ${listItems(missing)}`,
      last.exchange,
    ),
  ];
}

/** nextCursor is not null while items remain, under several page sizes and filters. */
const cursorWhileItemsRemain = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.cursor.more' : 'feeds.trips.cursor.more',
  family: 'feeds',
  title: `the ${feed.label} gives a nextCursor on every page while matching items remain (pages of 1, 2, 3 and one short of the tail; status and since filters)`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.caught-up', 'int.order-page.nextCursor'] : ['int.trips-feed.oldest-first', 'int.trip-page.nextCursor'],
  fix: `give every page of the ${feed.label} with matching items after it a nextCursor, whatever the page size and filters (${feed.name === 'orders' ? 'int.order-page.nextCursor' : 'int.trip-page.nextCursor'})`,
  requires: [],
  // The tail walk is one item short of the end, where every write of other checks lands: look while nothing else runs.
  exclusive: true,
  run: feedRun(async (ctx) => {
    const findings: Finding[] = [];
    for (const plan of await morePlans(ctx, feed)) findings.push(...(await nullTooEarly(ctx, feed, plan)));
    return capFindings(findings);
  }),
});

/** An issued cursor and where it points: the page that issued it and the page it alone gives (limit 10). */
interface IssuedPosition {
  cursor: string;
  first: FeedPage;
}

/** The nextCursor of the feed's first page of 10; skips when the feed ends on it. */
async function positionAfterFirstPage(ctx: CheckContext, feed: FeedSpec): Promise<IssuedPosition> {
  const first = await readPage(ctx, feed, { limit: 10 });
  if (first.nextCursor === null) return ctx.skip(`the ${feed.label} ends within 10 items, so it issued no cursor to continue from`);
  return { cursor: first.nextCursor, first };
}

/** A cursor sent with a since (after every item, before every item) continues after the cursor as the cursor alone does (D5). */
const sinceWithCursor = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.cursor.since-ignored' : 'feeds.trips.cursor.since-ignored',
  family: 'feeds',
  title: `the ${feed.label} follows a cursor sent together with since, and ignores since`,
  verifies: ['D5'],
  fix: `continue the ${feed.label} from the cursor's position when a cursor is sent, ignoring since (D5)`,
  requires: [],
  run: feedRun(async (ctx) => {
    const { cursor, first } = await positionAfterFirstPage(ctx, feed);
    const before = await readPage(ctx, feed, { cursor, limit: 10 });
    const sinces = [new Date(Date.now() + YEAR_MS).toISOString(), '2000-01-01T00:00:00.000Z'];
    const pages: [string, FeedPage][] = [];
    for (const since of sinces) pages.push([since, await readPage(ctx, feed, { cursor, since, limit: 10 })]);
    const after = await readPage(ctx, feed, { cursor, limit: 10 });
    // Each page asked for holds the same 10 places after the cursor: what both plain reads hold there, it must hold.
    const reach = reachOf([asWalk(before), asWalk(after)]);
    const expected = stableVersions(before.items, after.items).filter((item) => item.at < reach);
    if (expected.length === 0) return ctx.skip(`the items after the ${feed.label}'s first page changed during the check`);
    const earlier = new Set(first.items.map(versionOf));
    const findings: Finding[] = [];
    for (const [since, page] of pages) {
      const missing = missingFrom(asWalk(page), expected);
      const restarted = page.items.filter((item) => earlier.has(versionOf(item)));
      if (missing.length > 0 || restarted.length > 0) {
        findings.push(
          finding(
            `${feed.label}: a cursor sent with since=${since} did not continue where the cursor points`,
            `the items the cursor alone gives (${listItems(expected, 3)}), since ignored`,
            `${counted(page.items.length, 'item')}${missing.length > 0 ? `, missing ${listItems(missing, 3)}` : ''}${restarted.length > 0 ? `, the first page's ${listItems(restarted, 3)} again` : ''}`,
            page.exchange,
          ),
        );
      }
    }
    return findings;
  }),
});

/** What a filtered request after a cursor kept and left out, against the stable versions it should hold. */
function filterProblems(feed: FeedSpec, query: FeedQuery, page: FeedPage, expected: readonly FeedItem[], origin: string): Finding[] {
  const asked = query.status;
  const keeps = (status: unknown) => asked === undefined || asked.includes(status as string);
  const sent = `${describeQuery(query)} with the cursor of ${origin}`;
  const findings: Finding[] = [];
  const others = page.items.filter((item) => !keeps(item.status));
  if (others.length > 0) findings.push(finding(`${feed.label}: ${sent} returned items of statuses not sent`, asked === undefined ? 'any status' : `status ${asked.join(' or ')}`, others.slice(0, 3).map((item) => `${item.id} with status ${String(item.status)}`).join(', '), page.exchange));
  const missing = missingFrom(asWalk(page), expected.filter((item) => keeps(item.status)));
  if (missing.length > 0) findings.push(finding(`${feed.label}: ${sent} left out items its filters match`, `every item after the cursor's position that matches ${asked === undefined ? 'no status filter' : `status ${asked.join(' or ')}`}`, `missing ${listItems(missing)}`, page.exchange));
  if (page.nextCursor !== null && page.items.length !== query.limit) findings.push(finding(`${feed.label}: ${sent} did not serve the limit sent`, `${String(query.limit)} items (more follow: nextCursor is set)`, `${page.items.length} items`, page.exchange));
  return findings;
}

/** The status and limit sent with a cursor apply, not those of the walk that issued it (D5). */
const filtersAsSent = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.cursor.filters-as-sent' : 'feeds.trips.cursor.filters-as-sent',
  family: 'feeds',
  title: `the ${feed.label} applies the status and limit sent with a cursor, not those of the request that issued it`,
  verifies: ['D5'],
  fix: `apply the status and limit sent with the cursor to the ${feed.label}'s next page, not those of the request that issued it: a cursor holds a position only (D5)`,
  requires: [],
  run: feedRun(async (ctx) => {
    const head = await readPage(ctx, feed, { limit: 100 });
    const [common, second] = statusesByCount(head.items);
    if (common === undefined || second === undefined) return ctx.skip(`the ${feed.label}'s first page holds fewer than two statuses`);
    const first = await readPage(ctx, feed, { status: [common], limit: 2 });
    const position = first.items[first.items.length - 1];
    if (first.nextCursor === null || position === undefined) return ctx.skip(`the ${feed.label} filtered by status ${common} ends within 2 items`);
    const origin = `a limit=2&status=${common} page`;
    const reference = await readPage(ctx, feed, { since: position.updatedAtUtc, limit: 100 });
    const queries: FeedQuery[] = [{ status: [second], limit: 7 }, { limit: 7 }];
    const pages: FeedPage[] = [];
    for (const query of queries) pages.push(await readPage(ctx, feed, { ...query, cursor: first.nextCursor }));
    const again = await readPage(ctx, feed, { since: position.updatedAtUtc, limit: 100 });
    // Items stamped after the position (never at it: the order of ties is D7's) that both reads returned, up to where each read reached.
    const stable = stableVersions(reference.items, again.items).filter((item) => item.at > position.at);
    return capFindings(
      queries.flatMap((query, index) => {
        const page = pages[index]!;
        // Up to the page's last item, whether or not it said the feed ends there (that is cursor.more's rule).
        const reach = reachOf([asWalk(reference), asWalk(again), { ...asWalk(page), ended: false }]);
        return filterProblems(feed, query, page, stable.filter((item) => item.at < reach), origin);
      }),
    );
  }),
});

/** The cursor checks of `feed`. */
export function cursorChecks(feed: FeedSpec): Check[] {
  return [malformedCursor(feed), unissuedCursor(feed), cursorWhileItemsRemain(feed), sinceWithCursor(feed), filtersAsSent(feed)];
}
