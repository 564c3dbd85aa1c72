/**
 * Feeds, the run as a whole: once every other check has finished, every page the run read from
 * a feed with the keys of the profile's tenant (any filter, page size or since, any family) is
 * looked through. No page may hold an item of the other tenant, and no order page read after a
 * 204 to an archive may hold that order. Each check first walks the feed itself under the
 * filters where such an item would hide, so a run of that check alone still looks there.
 */
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { ExchangeRecord } from '../../engine/types/exchange.ts';
import { capFindings, FeedUnreadable, type FeedSpec, itemNames, orderFeed, statusesOf, tripFeed, type Walk, walkFeed, type WalkOptions } from './walk.ts';

/** The profile keys of the tenant under test that read the feeds. */
const TENANT_KEYS = new Set(['full', 'ordersRead', 'tripsRead']);

/** Pages a walk of a run-level check reads at most. */
const MAX_PAGES = 20;

/** The profile key an exchange was sent with: the one redaction mark its request headers carry, else null. */
function keyOf(exchange: ExchangeRecord): string | null {
  const marks = new Set<string>();
  for (const value of Object.values(exchange.request.headers)) for (const match of value.matchAll(/<redacted:([^>]+)>/g)) marks.add(match[1]!);
  return marks.size === 1 ? [...marks][0]! : null;
}

/** The JSON of a recorded answer's body; undefined when it is cut short or not JSON. */
function bodyOf(exchange: ExchangeRecord): unknown {
  const response = exchange.response;
  if (response === null || response.body === null || response.bodyTruncated) return undefined;
  try {
    return JSON.parse(response.bodyEncoding === 'base64' ? Buffer.from(response.body, 'base64').toString('utf8') : response.body) as unknown;
  } catch {
    return undefined;
  }
}

/** An item of a page the run read, as it came, with the exchange of its page. */
interface RunItem {
  id: unknown;
  externalId: unknown;
  status: unknown;
  updatedAtUtc: unknown;
  exchange: ExchangeRecord;
}

/** The operation id of `feed` in the contract. */
function operationOf(feed: FeedSpec): string {
  return feed.name === 'orders' ? 'orderFeed' : 'tripFeed';
}

/** The items of every 200 page of `feed` the run read with the tenant's keys, in the order the pages were answered. */
function runItems(ctx: CheckContext, feed: FeedSpec): RunItem[] {
  const items: RunItem[] = [];
  const names = itemNames(ctx, feed);
  for (const exchange of ctx.exchanges()) {
    if (exchange.channel !== 'api' || exchange.operationId !== operationOf(feed) || exchange.response?.status !== 200 || !TENANT_KEYS.has(keyOf(exchange) ?? '')) continue;
    const page = bodyOf(exchange) as { items?: unknown } | undefined;
    if (!Array.isArray(page?.items)) continue;
    for (const raw of page.items as Record<string, unknown>[]) {
      if (raw !== null && typeof raw === 'object') items.push({ id: raw[names.id], externalId: raw['externalId'], status: raw['status'], updatedAtUtc: raw[names.updatedAt], exchange });
    }
  }
  return items;
}

/** Walks `feed` with its read key; a page it cannot read ends the walk quietly (other checks report such pages). */
async function lookUnder(ctx: CheckContext, feed: FeedSpec, options: WalkOptions): Promise<Walk | undefined> {
  try {
    return await walkFeed(ctx, feed, options);
  } catch (error) {
    if (!(error instanceof FeedUnreadable)) throw error;
    return undefined;
  }
}

/** What the run knows belongs to the other tenant: its ids (with where each is known from), external ids, statuses and earliest stamp. */
interface OtherTenant {
  ids: Map<string, string>;
  externalIds: Map<string, string>;
  statuses: Set<string>;
  earliest: string | undefined;
}

/** The other tenant's own feed read with the otherTenant key, 100 a page, when the profile has the key; what it answers is added to `known`. */
async function readOtherFeed(ctx: CheckContext, feed: FeedSpec, known: OtherTenant): Promise<void> {
  if (ctx.profile.keys.otherTenant === undefined) return;
  const names = itemNames(ctx, feed);
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const response = await ctx.http.request({ method: 'GET', path: feed.path, key: 'otherTenant', query: { limit: 100, ...(cursor === null ? {} : { cursor }) } });
    const body = response.json as { items?: unknown; nextCursor?: unknown } | undefined;
    if (response.status !== 200 || !Array.isArray(body?.items)) return;
    for (const item of body.items as Record<string, unknown>[]) {
      const id = item?.[names.id];
      if (typeof id === 'string') known.ids.set(id, `the otherTenant key's ${feed.label}`);
      if (typeof item?.['status'] === 'string') known.statuses.add(item['status']);
      const stamp = item?.[names.updatedAt];
      if (typeof stamp === 'string' && !Number.isNaN(Date.parse(stamp)) && (known.earliest === undefined || Date.parse(stamp) < Date.parse(known.earliest))) known.earliest = stamp;
    }
    cursor = typeof body.nextCursor === 'string' && body.items.length > 0 ? body.nextCursor : null;
    if (cursor === null) return;
  }
}

/**
 * What belongs to the other tenant: its own feed (otherTenant key), the trip ids of profile
 * trips.otherTenant and, for orders, the external ids of profile orders.otherTenant (by external
 * id only when its feed could not be read: two tenants may use the same external id).
 */
async function otherTenantOf(ctx: CheckContext, feed: FeedSpec): Promise<OtherTenant> {
  const known: OtherTenant = { ids: new Map(), externalIds: new Map(), statuses: new Set(), earliest: undefined };
  await readOtherFeed(ctx, feed, known);
  if (feed.name === 'trips') for (const id of ctx.profile.trips?.otherTenant ?? []) known.ids.set(id, 'profile trips.otherTenant');
  if (feed.name === 'orders' && known.ids.size === 0) for (const id of ctx.profile.orders?.otherTenant ?? []) known.externalIds.set(id, 'profile orders.otherTenant');
  return known;
}

/** Where an item is known from, when it belongs to the other tenant. */
function otherTenantSource(item: RunItem, known: OtherTenant): string | undefined {
  return (typeof item.id === 'string' ? known.ids.get(item.id) : undefined) ?? (typeof item.externalId === 'string' ? known.externalIds.get(item.externalId) : undefined);
}

/** The walks a run-level check makes itself: filtered by `statuses`, from `since`, and from it in small pages. */
async function ownWalks(ctx: CheckContext, feed: FeedSpec, statuses: readonly string[], since: string | undefined): Promise<void> {
  if (statuses.length > 0) await lookUnder(ctx, feed, { limit: 100, status: statuses, maxPages: MAX_PAGES });
  if (since !== undefined) {
    await lookUnder(ctx, feed, { limit: 100, since, maxPages: MAX_PAGES });
    await lookUnder(ctx, feed, { limit: 7, since, maxPages: 3 });
  }
}

/** Every page of the feed the run read with the tenant's keys holds none of the other tenant's items. */
const tenantOnlyWalks = (feed: FeedSpec): Check => ({
  id: feed.name === 'orders' ? 'feeds.orders.walks.tenant' : 'feeds.trips.walks.tenant',
  family: 'feeds',
  title: `every page of the ${feed.label} the run read with the tenant's keys (any filter, page size or since) holds only that tenant's ${feed.name}`,
  verifies: ['int.service.tenant-only', 'int.auth.one-tenant'],
  fix: `filter every page of the ${feed.label} by the key's tenant, whatever the filters, page size or since: no other tenant's item ever (int.service.tenant-only, int.auth.one-tenant)`,
  requires: [],
  after: 'all',
  async run(ctx) {
    const known = await otherTenantOf(ctx, feed);
    if (known.ids.size === 0 && known.externalIds.size === 0) return ctx.skip(`nothing of the other tenant's ${feed.name} is known: the profile has no otherTenant key whose ${feed.label} holds items${feed.name === 'trips' ? ', and no trips.otherTenant' : ', and no orders.otherTenant'}`);
    const seedStatuses = statusesOf(feed);
    const statuses = known.statuses.size > 0 ? seedStatuses.filter((status) => known.statuses.has(status)) : seedStatuses;
    await ownWalks(ctx, feed, statuses, known.earliest);
    const items = runItems(ctx, feed);
    if (items.length === 0) return ctx.skip(`the run read no page of the ${feed.label} with the tenant's keys`);
    const findings: Finding[] = [];
    for (const item of items) {
      const source = otherTenantSource(item, known);
      if (source === undefined) continue;
      findings.push(
        finding(
          `${feed.label}: ${describeExchange(item.exchange)}, read with the ${keyOf(item.exchange)!} key, holds an item of the other tenant`,
          "only the key's own tenant's items",
          `${show(item.id)}${feed.name === 'orders' ? ` (externalId ${show(item.externalId)})` : ''}, known from ${source}`,
          item.exchange,
        ),
      );
    }
    return capFindings(findings);
  },
});

/** An archive the run made: a 204 to DELETE by external id, with the tenant's key. */
interface Archive {
  externalId: string;
  exchange: ExchangeRecord;
  /** When its answer had surely arrived, in ms since the epoch. */
  answered: number;
  /** The order as the last page before the archive showed it, if any did. */
  last?: RunItem;
}

/** Where `exchange` was sent, in ms since the epoch (its start; recorded to the millisecond). */
function sentAt(exchange: ExchangeRecord): number {
  return Date.parse(exchange.startedAt);
}

/** The run's first 204 archive of each external id, with the order as pages before it last showed it. */
function archivesOf(ctx: CheckContext, items: readonly RunItem[]): Archive[] {
  const archives = new Map<string, Archive>();
  for (const exchange of ctx.exchanges()) {
    if (exchange.channel !== 'api' || exchange.request.method !== 'DELETE' || exchange.response?.status !== 204 || !TENANT_KEYS.has(keyOf(exchange) ?? '')) continue;
    const match = /\/orders\/externalid\/([^/]+)$/.exec(new URL(exchange.request.url).pathname);
    if (match === null) continue;
    const externalId = decodeURIComponent(match[1]!);
    // Start and duration are whole milliseconds: 2 ms more is surely after the answer.
    if (!archives.has(externalId)) archives.set(externalId, { externalId, exchange, answered: sentAt(exchange) + exchange.durationMs + 2 });
  }
  for (const archive of archives.values()) {
    archive.last = items.filter((item) => item.externalId === archive.externalId && item.exchange.id < archive.exchange.id).pop();
  }
  return [...archives.values()];
}

/**
 * Whether a control-plane exchange after the archive names the order in its request or its
 * answer (a restore, or a new intake of its external id): the order may then be live again.
 */
function revived(ctx: CheckContext, archive: Archive): boolean {
  const names = [archive.externalId, ...(typeof archive.last?.id === 'string' ? [archive.last.id] : [])];
  const mentions = (exchange: ExchangeRecord) => [exchange.request.url, exchange.request.body ?? '', exchange.response?.body ?? ''].some((text) => names.some((name) => text.includes(name) || text.includes(encodeURIComponent(name))));
  return ctx.exchanges().some((exchange) => exchange.channel === 'sandbox' && sentAt(exchange) >= sentAt(archive.exchange) && mentions(exchange));
}

/** Whether `item` is the archived order of `archive`. */
function isArchived(item: RunItem, archive: Archive): boolean {
  return item.externalId === archive.externalId || (archive.last !== undefined && item.id === archive.last.id);
}

/** Items from the feed's end the tail walks of walks.archived cover: an archive that moves an order moves it there. */
const TAIL = 40;

/**
 * The walks after every archive: the whole feed, filtered by the archived orders' last statuses,
 * the last TAIL items in small pages (filtered and not), and one item a page from where each was.
 */
async function walksAfterArchives(ctx: CheckContext, archives: readonly Archive[]): Promise<void> {
  const whole = await lookUnder(ctx, orderFeed, { limit: 100, maxPages: MAX_PAGES });
  const statuses = [...new Set(archives.map((archive) => archive.last?.status))].filter((status): status is string => typeof status === 'string' && statusesOf(orderFeed).includes(status));
  if (statuses.length > 0) await lookUnder(ctx, orderFeed, { limit: 100, status: statuses, maxPages: MAX_PAGES });
  const tail = whole?.ended ? whole.items[Math.max(0, whole.items.length - TAIL)] : undefined;
  if (tail !== undefined) {
    await lookUnder(ctx, orderFeed, { limit: 7, since: tail.updatedAtUtc, maxPages: Math.ceil(TAIL / 7) + 1 });
    if (statuses.length > 0) await lookUnder(ctx, orderFeed, { limit: 3, since: tail.updatedAtUtc, status: statuses, maxPages: 5 });
  }
  for (const archive of archives.slice(0, 5)) {
    const stamp = archive.last?.updatedAtUtc;
    if (typeof stamp === 'string' && !Number.isNaN(Date.parse(stamp))) await lookUnder(ctx, orderFeed, { limit: 1, since: new Date(Date.parse(stamp) - 1).toISOString(), maxPages: 4 });
  }
}

/** No order page the run read after a 204 archive holds the archived order. */
const archivedOutOfWalks: Check = {
  id: 'feeds.orders.walks.archived',
  family: 'feeds',
  title: "no page of the order feed the run read after an order's archive was answered 204 (any filter, page size or since) holds that order",
  verifies: ['int.orders-feed.no-archived', 'int.archive.gone-from-feed'],
  fix: 'leave an archived order out of every page of the order feed from the moment its archive is answered, whatever the filters, page size or since (int.orders-feed.no-archived, int.archive.gone-from-feed)',
  requires: [],
  after: 'all',
  async run(ctx) {
    const archives = archivesOf(ctx, runItems(ctx, orderFeed)).filter((archive) => !revived(ctx, archive));
    if (archives.length === 0) return ctx.skip('no order was archived (204) with the tenant\'s keys in this run, or each was restored through the control plane');
    await walksAfterArchives(ctx, archives);
    const findings: Finding[] = [];
    for (const item of runItems(ctx, orderFeed)) {
      const archive = archives.find((candidate) => isArchived(item, candidate) && sentAt(item.exchange) >= candidate.answered);
      if (archive === undefined) continue;
      findings.push(
        finding(
          `order feed: ${describeExchange(item.exchange)} holds ${archive.externalId}, archived by ${describeExchange(archive.exchange)} before that page was asked for`,
          'no item of the archived order',
          `${show(item.id)} @ ${show(item.updatedAtUtc)} (status ${show(item.status)})`,
          item.exchange,
        ),
      );
    }
    return capFindings(findings);
  },
};

/** The run-level checks of the feeds. */
export const runLevelChecks: Check[] = [tenantOnlyWalks(orderFeed), archivedOutOfWalks, tenantOnlyWalks(tripFeed)];
