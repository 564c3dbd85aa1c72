/**
 * Reading the order and trip feeds for the `feeds` checks: one page, a bounded walk, and the
 * set arithmetic that keeps comparisons of walks honest while other checks write. Writes of
 * other checks move their orders to the feed's tail or archive them; a version of an item
 * (its id and updatedAtUtc) that one read sees before and another read sees after a walk
 * existed the whole time in between, so the walk must have returned it.
 */
import { orderStatuses, tripStatuses } from '../../../spec/load.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { ExchangeRecord, HttpResponse } from '../../engine/types/exchange.ts';

/** One of the two feeds, and what differs between them. */
export interface FeedSpec {
  name: 'orders' | 'trips';
  path: string;
  /** `order feed` / `trip feed`, for messages. */
  label: string;
  /** The narrowest profile key that reads the feed; its own rate-limit bucket spares the full key's. */
  readKey: 'ordersRead' | 'tripsRead';
  minimum: 'minOrders' | 'minTrips';
  /** The seed's section of the endpoint. */
  section: string;
}

export const orderFeed: FeedSpec = {
  name: 'orders',
  path: '/api/v1/integration/orders',
  label: 'order feed',
  readKey: 'ordersRead',
  minimum: 'minOrders',
  section: 'Pull orders that changed',
};

export const tripFeed: FeedSpec = {
  name: 'trips',
  path: '/api/v1/integration/trips',
  label: 'trip feed',
  readKey: 'tripsRead',
  minimum: 'minTrips',
  section: 'Pull trips that changed',
};

/** An item of a page, reduced to what the checks compare. */
export interface FeedItem {
  id: string;
  updatedAtUtc: string;
  /** `updatedAtUtc` in ms since the epoch. */
  at: number;
  status: unknown;
  externalId: unknown;
  /** The order's type (Delivery, Pickup, Return, Rebox); undefined on trips. */
  type: unknown;
  /** The exchange whose page held the item. */
  exchange: ExchangeRecord;
}

/** A page as read. */
export interface FeedPage {
  items: FeedItem[];
  nextCursor: string | null;
  exchange: ExchangeRecord;
}

/** Query parameters of a feed request. */
export interface FeedQuery {
  since?: string;
  cursor?: string;
  limit?: number | string;
  status?: readonly string[];
}

/**
 * The names the target gives an item's id and its time of last change: the Order's, or on the
 * trip feed the profile's `choices.tripFields` (D15's names when it has none; the seeds name
 * only a trip's `status`).
 */
export function itemNames(ctx: Pick<CheckContext, 'profile'>, feed: FeedSpec): { id: string; updatedAt: string } {
  if (feed.name === 'orders') return { id: 'id', updatedAt: 'updatedAtUtc' };
  const chosen = ctx.profile.choices?.tripFields;
  return { id: chosen?.id ?? 'id', updatedAt: chosen?.updatedAt ?? 'updatedAtUtc' };
}

/** A page could not be read: the check ends with this finding (see `feedRun`). */
export class FeedUnreadable extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
    this.name = 'FeedUnreadable';
  }
}

/** A check's `run` that turns an unreadable page into its finding instead of an error. */
export function feedRun(run: (ctx: CheckContext) => Promise<Finding[]>): Check['run'] {
  return async (ctx) => {
    try {
      return await run(ctx);
    } catch (error) {
      if (error instanceof FeedUnreadable) return [error.finding];
      throw error;
    }
  };
}

/** The key the checks read `feed` with: its narrow key when the profile has one, else the full key. */
export function readKeyOf(ctx: CheckContext, feed: FeedSpec): string {
  return ctx.profile.keys[feed.readKey] === undefined ? 'full' : feed.readKey;
}

/**
 * Sends one feed request with the feed's read key and returns the raw answer. A 429 ends the
 * check as skipped: the rate limit is the target's right, and the suite never waits it out.
 */
export async function requestFeed(ctx: CheckContext, feed: FeedSpec, query: FeedQuery): Promise<HttpResponse> {
  const { status, ...rest } = query;
  const response = await ctx.http.request({ method: 'GET', path: feed.path, key: readKeyOf(ctx, feed), query: { ...rest, ...(status === undefined ? {} : { status }) } });
  if (response.status === 429) ctx.skip(`the ${feed.label} answered 429 (rate limit of the ${readKeyOf(ctx, feed)} key); Retry-After ${response.headers['retry-after'] ?? 'not given'}`);
  return response;
}

/** Reads one page; anything but a 200 with `items` and `nextCursor` ends the check (FeedUnreadable). */
export async function readPage(ctx: CheckContext, feed: FeedSpec, query: FeedQuery): Promise<FeedPage> {
  const response = await requestFeed(ctx, feed, query);
  const where = `${feed.label}: ${describeExchange(response.exchange)}`;
  if (response.status !== 200) {
    throw new FeedUnreadable(finding(`${where}: a valid request was not answered with a page`, '200 with a page', `${response.status} ${show(response.json ?? response.text, 300)}`, response.exchange));
  }
  const body = response.json as { items?: unknown; nextCursor?: unknown } | undefined;
  if (body === null || typeof body !== 'object' || !Array.isArray(body.items) || !(body.nextCursor === null || typeof body.nextCursor === 'string')) {
    throw new FeedUnreadable(finding(`${where}: the body is not a page`, 'items (array) and nextCursor (string or null)', show(response.json ?? response.text, 300), response.exchange));
  }
  const items: FeedItem[] = [];
  const names = itemNames(ctx, feed);
  for (const raw of body.items) {
    const item = raw as Record<string, unknown> | null;
    const id = item?.[names.id];
    const stamp = item?.[names.updatedAt];
    const at = typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
    if (item === null || typeof item !== 'object' || typeof id !== 'string' || Number.isNaN(at)) {
      throw new FeedUnreadable(finding(`${where}: an item without a string ${names.id} and a date-time ${names.updatedAt}`, `every item with ${names.id} (string) and ${names.updatedAt} (date-time)`, show(raw, 300), response.exchange));
    }
    items.push({ id, updatedAtUtc: stamp as string, at, status: item['status'], externalId: item['externalId'], type: item['type'], exchange: response.exchange });
  }
  return { items, nextCursor: body.nextCursor, exchange: response.exchange };
}

/** A walk: the pages read by following nextCursor, their items in order, and whether it reached a null nextCursor. */
export interface Walk {
  pages: FeedPage[];
  items: FeedItem[];
  ended: boolean;
}

/** Options of a walk. */
export interface WalkOptions {
  limit: number;
  since?: string;
  status?: readonly string[];
  maxPages: number;
  /** Stops early (not `ended`) once this holds for the items read so far. */
  until?: (items: readonly FeedItem[]) => boolean;
}

/**
 * Follows the feed from `since` (or its start) by nextCursor, at most `maxPages` pages. Each
 * next page sends the cursor with the same `limit` and `status`, and no `since`.
 */
export async function walkFeed(ctx: CheckContext, feed: FeedSpec, options: WalkOptions): Promise<Walk> {
  return continueWalk(ctx, feed, { pages: [], items: [], ended: false }, null, options);
}

/** Continues `walk` from `cursor` (its first page when null) under `options`; returns the same walk, extended. */
export async function continueWalk(ctx: CheckContext, feed: FeedSpec, walk: Walk, cursor: string | null, options: WalkOptions): Promise<Walk> {
  let next = cursor;
  for (let read = 0; read < options.maxPages; read += 1) {
    // A walk that already ended has no position left to continue from.
    if (next === null && walk.pages.length > 0) break;
    const query: FeedQuery =
      next === null
        ? { limit: options.limit, ...(options.since === undefined ? {} : { since: options.since }), ...(options.status === undefined ? {} : { status: options.status }) }
        : { cursor: next, limit: options.limit, ...(options.status === undefined ? {} : { status: options.status }) };
    const page = await readPage(ctx, feed, query);
    walk.pages.push(page);
    walk.items.push(...page.items);
    next = page.nextCursor;
    if (next === null) {
      walk.ended = true;
      break;
    }
    if (options.until?.(walk.items)) break;
  }
  return walk;
}

/** A page read as a one-page walk. */
export function asWalk(page: FeedPage): Walk {
  return { pages: [page], items: page.items, ended: page.nextCursor === null };
}

/** Statuses of `items` by how often they occur, most frequent first. */
export function statusesByCount(items: readonly FeedItem[]): string[] {
  const counts = new Map<string, number>();
  for (const item of items) if (typeof item.status === 'string') counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([status]) => status);
}

/** A query as the text of its parameters (`limit=2&status=New`), for messages. */
export function describeQuery(query: FeedQuery): string {
  const parts: string[] = [];
  if (query.since !== undefined) parts.push(`since=${query.since}`);
  if (query.cursor !== undefined) parts.push('cursor=…');
  if (query.limit !== undefined) parts.push(`limit=${query.limit}`);
  for (const status of query.status ?? []) parts.push(`status=${status}`);
  return parts.join('&');
}

/** The order statuses the seeds list (01-integration-api.md › Order statuses), read from the contract (`OrderStatusName`). */
export const ORDER_STATUSES: readonly string[] = orderStatuses;

/** The trip statuses the seeds list (01-integration-api.md › Trip statuses), read from the contract (`TripStatus`, D16). */
export const TRIP_STATUSES: readonly string[] = tripStatuses;

/** The statuses the seeds list for `feed`'s items. */
export function statusesOf(feed: FeedSpec): readonly string[] {
  return feed.name === 'orders' ? ORDER_STATUSES : TRIP_STATUSES;
}

/** The nextCursor of the walk's last page (null when it ended or read nothing). */
export function lastCursor(walk: Walk): string | null {
  return walk.pages[walk.pages.length - 1]?.nextCursor ?? null;
}

/** The key of one version of an item: its id and updatedAtUtc. */
export function versionOf(item: FeedItem): string {
  return `${item.id}\u0000${item.updatedAtUtc}`;
}

/** The versions both reads returned: each existed from the first read to the second. */
export function stableVersions(before: readonly FeedItem[], after: readonly FeedItem[]): FeedItem[] {
  const later = new Set(after.map(versionOf));
  const seen = new Set<string>();
  return before.filter((item) => {
    const version = versionOf(item);
    if (!later.has(version) || seen.has(version)) return false;
    seen.add(version);
    return true;
  });
}

/**
 * How far every walk surely reached, in ms: items stamped strictly before it lie inside all of
 * them. A walk that ended reaches everything; one that stopped reaches its last item's stamp
 * (not past it: the target may order a stamp's ties its own way).
 */
export function reachOf(walks: readonly Walk[]): number {
  let reach = Number.POSITIVE_INFINITY;
  for (const walk of walks) {
    if (walk.ended) continue;
    const last = walk.items[walk.items.length - 1];
    reach = Math.min(reach, last === undefined ? Number.NEGATIVE_INFINITY : last.at);
  }
  return reach;
}

/** The versions of `expected` that `walk` lacks. */
export function missingFrom(walk: Walk, expected: readonly FeedItem[]): FeedItem[] {
  const returned = new Set(walk.items.map(versionOf));
  return expected.filter((item) => !returned.has(versionOf(item)));
}

/** Items whose version the walk returned more than once (each repeat once). */
export function repeatedIn(items: readonly FeedItem[]): FeedItem[] {
  const seen = new Set<string>();
  const repeats: FeedItem[] = [];
  for (const item of items) {
    const version = versionOf(item);
    if (seen.has(version)) repeats.push(item);
    seen.add(version);
  }
  return repeats;
}

/** `id @ updatedAtUtc` of up to `limit` items, for `received`. */
export function listItems(items: readonly FeedItem[], limit = 5): string {
  const shown = items.slice(0, limit).map((item) => `${item.id} @ ${item.updatedAtUtc}`);
  return items.length > limit ? `${shown.join(', ')} … (${items.length} in all)` : shown.join(', ');
}

/** `stamp` moved by `ms` milliseconds, as RFC 3339 UTC text. */
export function shiftStamp(stamp: string, ms: number): string {
  return new Date(Date.parse(stamp) + ms).toISOString();
}

/** At most `limit` findings, the rest summed up in a last one. */
export function capFindings(findings: Finding[], limit = 5): Finding[] {
  if (findings.length <= limit) return findings;
  const rest = findings.length - limit;
  return [...findings.slice(0, limit), finding(`… and ${rest} more like these`, 'none', `${rest} more`)];
}

/**
 * What is wrong with a refusal of a bad query parameter as D5/D8/D9 decide it (400
 * `api.malformed_request`, `errors[0].field` = the parameter), or null when nothing is.
 */
export function parameterProblem(response: HttpResponse, field: string): string | null {
  const body = response.json as { type?: unknown; errors?: unknown } | undefined;
  const first = Array.isArray(body?.errors) ? (body.errors[0] as { field?: unknown } | undefined) : undefined;
  if (response.status === 400 && body?.type === 'api.malformed_request' && first?.field === field) return null;
  return `${response.status}, type ${show(body?.type)}, errors[0].field ${show(first?.field)}`;
}
