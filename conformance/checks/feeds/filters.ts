/**
 * Feeds, filters: `status` (single and repeated, unknown values) and `since` (where the feed
 * starts, its boundary, unreadable values). A filtered read is compared with what unfiltered
 * pages returned both before and after it, so others' writes cannot fake a miss.
 */
import { finding } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import {
  asWalk,
  capFindings,
  feedRun,
  type FeedPage,
  type FeedSpec,
  listItems,
  missingFrom,
  parameterProblem,
  readPage,
  reachOf,
  requestFeed,
  stableVersions,
  statusesByCount,
  type Walk,
  walkFeed,
} from './walk.ts';
import { counted } from '../../../cli/counted.ts';

/** A status value no feed knows. */
const UNKNOWN_STATUS = 'NotAStatus';

/** The feed's first page of 100; skips when it holds fewer than `least` items. */
async function firstPage(ctx: CheckContext, feed: FeedSpec, least: number): Promise<FeedPage> {
  const page = await readPage(ctx, feed, { limit: 100 });
  if (page.items.length < least) ctx.skip(`the ${feed.label} holds ${counted(page.items.length, 'item')}; the check needs ${least}`);
  return page;
}

/** A single and a repeated `status` return exactly the items of those statuses. */
const statusFilter = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.status.filter' : 'feeds.trips.status.filter',
  family: 'feeds',
  title: `the ${feed.label}'s status filter, single or repeated, keeps exactly the items of those statuses`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.status'] : ['int.trips-feed.params'],
  fix: `keep on the ${feed.label} exactly the items whose status is among the status parameters sent, one or repeated (${feed.name === 'orders' ? 'int.orders-feed.status' : 'int.trips-feed.params'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const before = await firstPage(ctx, feed, 1);
    const [common, second] = statusesByCount(before.items);
    if (common === undefined) return ctx.skip(`no item of the ${feed.label}'s first page has a string status`);
    const filters = second === undefined ? [[common]] : [[common], [common, second]];
    const walks: [string[], Walk][] = [];
    for (const statuses of filters) walks.push([statuses, await walkFeed(ctx, feed, { limit: 100, status: statuses, maxPages: 2 })]);
    const after = await readPage(ctx, feed, { limit: 100 });
    const stable = stableVersions(before.items, after.items);
    const findings: Finding[] = [];
    for (const [statuses, walk] of walks) {
      const query = statuses.map((status) => `status=${status}`).join('&');
      const others = walk.items.filter((item) => !statuses.includes(item.status as string));
      for (const item of others) findings.push(finding(`${feed.label}: ${query} returned an item of another status`, `status ${statuses.join(' or ')}`, `${item.id} with status ${String(item.status)}`, item.exchange));
      const reach = reachOf([asWalk(before), asWalk(after), walk]);
      const expected = stable.filter((item) => statuses.includes(item.status as string) && item.at < reach);
      const missing = missingFrom(walk, expected);
      if (missing.length > 0) {
        findings.push(finding(`${feed.label}: ${query} left out items of those statuses that unfiltered pages returned before and after it`, `all ${expected.length} such items`, `missing ${listItems(missing)}`, walk.pages[0]?.exchange));
      }
    }
    return capFindings(findings);
  }),
});

/** Requests with an unknown status, alone and next to a known one. */
function unknownStatusQueries(feed: FeedSpec): string[][] {
  const known = feed.name === 'orders' ? 'New' : 'Confirmed';
  return [[UNKNOWN_STATUS], [known, UNKNOWN_STATUS]];
}

/** An unknown status, alone or repeated with a known one, is answered 400. */
const unknownStatus = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.status.unknown' : 'feeds.trips.status.unknown',
  family: 'feeds',
  title: `the ${feed.label} answers 400 to an unknown status filter`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.status'] : ['int.trips-feed.refusals'],
  fix: `answer a status filter the ${feed.label} does not know with 400 (${feed.name === 'orders' ? 'int.orders-feed.status' : 'int.trips-feed.refusals'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const findings: Finding[] = [];
    for (const status of unknownStatusQueries(feed)) {
      const response = await requestFeed(ctx, feed, { status, limit: 1 });
      if (response.status !== 400) findings.push(finding(`${feed.label}: status=${status.join('&status=')} was not answered 400`, '400', String(response.status), response.exchange));
    }
    return findings;
  }),
});

/** The refusal of an unknown status names `status` (D9); the trip feed knows only trip statuses (D16). */
const unknownStatusField = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.status.unknown-field' : 'feeds.trips.status.unknown-field',
  family: 'feeds',
  title: `the ${feed.label} refuses an unknown status as api.malformed_request naming status${feed.name === 'trips' ? ' (Planned included)' : ''}`,
  verifies: feed.name === 'orders' ? ['D9'] : ['D9', 'D16'],
  fix: `refuse an unknown status filter on the ${feed.label} as 400 api.malformed_request with errors[0].field status (${feed.name === 'orders' ? 'D9' : 'D9, D16'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const findings: Finding[] = [];
    const queries = feed.name === 'trips' ? [...unknownStatusQueries(feed), ['Planned']] : unknownStatusQueries(feed);
    for (const status of queries) {
      const response = await requestFeed(ctx, feed, { status, limit: 1 });
      const problem = parameterProblem(response, 'status');
      if (problem !== null) findings.push(finding(`${feed.label}: status=${status.join('&status=')} was not refused as malformed`, '400 api.malformed_request with errors[0].field status', problem, response.exchange));
    }
    return findings;
  }),
});

/** With `since`, every item is stamped at or after it, and the items stamped after it are there. */
const sinceFilter = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.since.filter' : 'feeds.trips.since.filter',
  family: 'feeds',
  title: `the ${feed.label} from since holds the items changed since then and none changed before`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.since'] : ['int.trips-feed.params'],
  fix: `serve from since every item of the ${feed.label} changed at or after it and none changed before (${feed.name === 'orders' ? 'int.orders-feed.since' : 'int.trips-feed.params'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const before = await firstPage(ctx, feed, 2);
    const pivot = before.items[Math.floor(before.items.length / 2)]!;
    const walk = await walkFeed(ctx, feed, { since: pivot.updatedAtUtc, limit: 100, maxPages: 2 });
    const after = await readPage(ctx, feed, { limit: 100 });
    const findings: Finding[] = walk.items
      .filter((item) => item.at < pivot.at)
      .map((item) => finding(`${feed.label}: since=${pivot.updatedAtUtc} returned an item changed before it`, `updatedAtUtc ${pivot.updatedAtUtc} or later`, `${item.id} @ ${item.updatedAtUtc}`, item.exchange));
    const reach = reachOf([asWalk(before), asWalk(after), walk]);
    const expected = stableVersions(before.items, after.items).filter((item) => item.at > pivot.at && item.at < reach);
    const missing = missingFrom(walk, expected);
    if (missing.length > 0) {
      findings.push(finding(`${feed.label}: since=${pivot.updatedAtUtc} left out items changed after it`, `all ${expected.length} unchanged items stamped after since`, `missing ${listItems(missing)}`, walk.pages[0]?.exchange));
    }
    return capFindings(findings);
  }),
});

/** Items stamped exactly `since` are included (D4). */
const sinceInclusive = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.since.inclusive' : 'feeds.trips.since.inclusive',
  family: 'feeds',
  title: `the ${feed.label} from since includes the items stamped exactly since`,
  verifies: ['D4'],
  fix: `include on the ${feed.label} the items whose updatedAtUtc equals since: the boundary is inclusive (D4)`,
  requires: [],
  run: feedRun(async (ctx) => {
    const before = await firstPage(ctx, feed, 1);
    // Prefer stamps several items share: the boundary then holds more than one item.
    const shared = before.items.filter((item) => before.items.filter((other) => other.updatedAtUtc === item.updatedAtUtc).length > 1);
    const middle = Math.floor(before.items.length / 2);
    const candidates = [...shared.filter((item) => before.items.indexOf(item) >= middle), ...before.items.slice(middle), ...before.items];
    const tried = new Set<string>();
    for (const pivot of candidates) {
      if (tried.has(pivot.updatedAtUtc) || tried.size === 3) continue;
      tried.add(pivot.updatedAtUtc);
      const page = await readPage(ctx, feed, { since: pivot.updatedAtUtc, limit: 100 });
      const after = await readPage(ctx, feed, { limit: 100 });
      const expected = stableVersions(before.items, after.items).filter((item) => item.updatedAtUtc === pivot.updatedAtUtc);
      // The pivot's items were all rewritten meanwhile: try another stamp.
      if (expected.length === 0) continue;
      const missing = missingFrom(asWalk(page), expected);
      if (missing.length === 0) return [];
      return [finding(`${feed.label}: since=${pivot.updatedAtUtc} left out items stamped exactly then`, `all ${expected.length} items with updatedAtUtc ${pivot.updatedAtUtc}`, `missing ${listItems(missing)}`, page.exchange)];
    }
    return ctx.skip(`the items at each stamp tried (${[...tried].join(', ')}) changed during the check`);
  }),
});

/** An RFC 3339 date-time: the date and time to the second, any fraction, and the zone. */
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** Offsets `since` is written in besides Z, in minutes east of UTC. */
const SINCE_OFFSETS = [120, -330];

/**
 * `stamp` (an RFC 3339 date-time) as the same instant written with an offset of `minutes`
 * (e.g. `+02:00`), its fraction digits kept as they are; undefined when it is not RFC 3339.
 */
function withOffset(stamp: string, minutes: number): string | undefined {
  const parts = RFC3339.exec(stamp);
  if (parts === null) return undefined;
  const [, seconds, fraction = '', zone] = parts;
  const utcSeconds = Date.parse(`${seconds!}${zone!.toUpperCase()}`);
  if (Number.isNaN(utcSeconds)) return undefined;
  const local = new Date(utcSeconds + minutes * 60_000).toISOString().slice(0, 19);
  const size = Math.abs(minutes);
  const offset = `${minutes < 0 ? '-' : '+'}${String(Math.floor(size / 60)).padStart(2, '0')}:${String(size % 60).padStart(2, '0')}`;
  return `${local}${fraction}${offset}`;
}

/** `since` written with an offset denotes the same instant as its Z form (D20). */
const sinceOffset = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.since.offset' : 'feeds.trips.since.offset',
  family: 'feeds',
  title: `the ${feed.label} reads a since written with an offset (+02:00, -05:30) as the same instant as its Z form`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.since'] : ['int.trips-feed.params'],
  fix: `read a since with an offset (+02:00, -05:30) on the ${feed.label} as the instant it names, the same as its Z form (${feed.name === 'orders' ? 'int.orders-feed.since' : 'int.trips-feed.params'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const before = await firstPage(ctx, feed, 2);
    const pivot = before.items[Math.floor(before.items.length / 2)]!;
    const forms = SINCE_OFFSETS.map((minutes) => withOffset(pivot.updatedAtUtc, minutes));
    if (forms.some((form) => form === undefined)) return ctx.skip(`the stamp ${pivot.updatedAtUtc} the ${feed.label} served is not an RFC 3339 date-time to rewrite with an offset`);
    const zPage = await readPage(ctx, feed, { since: pivot.updatedAtUtc, limit: 100 });
    const offsetPages: [string, FeedPage][] = [];
    for (const since of forms as string[]) offsetPages.push([since, await readPage(ctx, feed, { since, limit: 100 })]);
    const zAgain = await readPage(ctx, feed, { since: pivot.updatedAtUtc, limit: 100 });
    // The versions both Z reads returned existed throughout; each offset read, in between, must return those it reached.
    const reach = reachOf([asWalk(zPage), asWalk(zAgain), ...offsetPages.map(([, page]) => asWalk(page))]);
    const expected = stableVersions(zPage.items, zAgain.items).filter((item) => item.at < reach);
    const findings: Finding[] = [];
    for (const [since, page] of offsetPages) {
      const early = page.items.filter((item) => item.at < pivot.at);
      if (early.length > 0) {
        findings.push(finding(`${feed.label}: since=${since} (the instant ${pivot.updatedAtUtc}) returned items changed before it`, `updatedAtUtc ${pivot.updatedAtUtc} or later, as with since=${pivot.updatedAtUtc}`, listItems(early), page.exchange));
      }
      const missing = missingFrom(asWalk(page), expected);
      if (missing.length > 0) {
        findings.push(finding(`${feed.label}: since=${since} (the instant ${pivot.updatedAtUtc}) left out items that since=${pivot.updatedAtUtc} returned before and after it`, `all ${expected.length} such items`, `missing ${listItems(missing)}`, page.exchange));
      }
    }
    return findings;
  }),
});

/** A `since` that is not an RFC 3339 date-time is 400 `api.malformed_request` naming `since` (D9). */
const invalidSince = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.since.invalid' : 'feeds.trips.since.invalid',
  family: 'feeds',
  title: `the ${feed.label} refuses a since that is not a date-time with 400 naming since`,
  verifies: ['D9'],
  fix: `refuse a since on the ${feed.label} that is not an RFC 3339 date-time with 400 api.malformed_request, errors[0].field since (D9)`,
  requires: [],
  run: feedRun(async (ctx) => {
    const findings: Finding[] = [];
    // A date alone and a space for `T` are the forms a lenient date parser reads anyway (D9 refuses them too).
    for (const since of ['yesterday', '2026-13-01T00:00:00Z', '1700000000', '2026-01-01', '2026-01-01 00:00:00Z']) {
      const response = await requestFeed(ctx, feed, { since, limit: 1 });
      const problem = parameterProblem(response, 'since');
      if (problem !== null) findings.push(finding(`${feed.label}: since=${since} was not refused as malformed`, '400 api.malformed_request with errors[0].field since', problem, response.exchange));
    }
    return findings;
  }),
});

/** A year in ms. */
const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * A since a year ahead, after every item, gives a page without items (pages of 100 and of 1).
 * Whether that page's nextCursor is null is D6's exactness, checked by `feeds.*.cursor.end`.
 */
const sinceFuture = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.since.future' : 'feeds.trips.since.future',
  family: 'feeds',
  title: `the ${feed.label} from a since a year ahead holds no item`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.since'] : ['int.trips-feed.params'],
  fix: `answer a since later than every change on the ${feed.label} with an empty page, not with older items (${feed.name === 'orders' ? 'int.orders-feed.since' : 'int.trips-feed.params'})`,
  requires: [],
  run: feedRun(async (ctx) => {
    const since = new Date(Date.now() + YEAR_MS).toISOString();
    const findings: Finding[] = [];
    for (const limit of [100, 1]) {
      const page = await readPage(ctx, feed, { since, limit });
      const later = page.items.filter((item) => item.at >= Date.parse(since));
      if (later.length > 0) return ctx.skip(`the ${feed.label} holds items stamped a year ahead (${listItems(later, 2)})`);
      if (page.items.length > 0) findings.push(finding(`${feed.label}: since=${since} (a year ahead) returned items changed before it`, 'items [] (nothing has changed since then)', listItems(page.items), page.exchange));
    }
    return findings;
  }),
});

/** The filter checks of `feed`. */
export function filterChecks(feed: FeedSpec): Check[] {
  return [statusFilter(feed), unknownStatus(feed), unknownStatusField(feed), sinceFilter(feed), sinceInclusive(feed), sinceFuture(feed), sinceOffset(feed), invalidSince(feed)];
}
