/**
 * A tolerant reader (D93): the order feed carries orders with `deliveryWindow`, a member the
 * contract does not list yet, and the trip feed a trip `OnHold`, a trip status it does not list,
 * each with more than a page of items after it. The client syncs orders, then trips, and must
 * read each feed to its end; one that stops or crashes at such an item fails, the item quoted.
 */
import { openapi, tripStatuses } from '../../../spec/load.ts';
import type { Finding } from '../../engine/types/check.ts';
import type { PageItem } from '../control-plane.ts';
import { type ClientRun, type ClientScenario, type ScenarioSession, StagingError } from '../scenario.ts';
import { FEED_PATH, feedNow, missedNothing, pagesOf, type ReadPage, reachedTheEnd, TRIP_FEED_PATH } from './feed-pages.ts';
import { found } from './grading.ts';

/** The members of an Order the contract lists: any other is one a later version added. */
const ORDER_MEMBERS = new Set(Object.keys((openapi['components'] as { schemas: { Order: { properties: object } } }).schemas.Order.properties));

/** The trip statuses the contract lists. */
const TRIP_STATUSES = new Set<string>(tripStatuses);

/** Items after the first unknown one: a client reading 100 a page still has a page to go when it meets it. */
const AFTER_UNKNOWN = 110;

/** An item of a feed as the grader reads it whole: every member it carries. */
type FeedItem = PageItem & Record<string, unknown>;

/** What is unknown about an item of the feed `path`, in words, or null: members the contract does not list on an order, a status it does not list on a trip. */
function unknownIn(path: string, item: FeedItem): string | null {
  if (path === TRIP_FEED_PATH) return TRIP_STATUSES.has(item.status) ? null : `status ${item.status}, a trip status the contract does not list`;
  const members = Object.keys(item).filter((member) => !ORDER_MEMBERS.has(member));
  return members.length === 0 ? null : `${members.join(', ')}, ${members.length === 1 ? 'a member' : 'members'} the contract does not list yet`;
}

/** The feed `path` now, read whole by the grader, and the index of its first item with something unknown (-1: none). */
async function feedWithUnknown(session: ScenarioSession, path: string): Promise<{ items: FeedItem[]; first: number }> {
  const items = (await feedNow(session, path)) as FeedItem[];
  return { items, first: items.findIndex((item) => unknownIn(path, item) !== null) };
}

/** Throws unless the feed `path` holds an item with something unknown and at least 100 items after the first one; notes its id. */
async function stagedIn(session: ScenarioSession, path: string, what: string): Promise<void> {
  const { items, first } = await feedWithUnknown(session, path);
  if (first === -1) throw new StagingError(`no ${what} of the feed ${path} carries ${path === TRIP_FEED_PATH ? 'a status' : 'a member'} the contract does not list`);
  const after = items.length - 1 - first;
  const item = items[first] as FeedItem;
  if (after < 100) throw new StagingError(`${after} ${what}s follow the first with ${unknownIn(path, item)} (${item.id}): a client reading 100 a page could meet it on its last page`);
  session.notes.set(path, item.id);
}

/** Builds a trip of each order whose external id starts with `prefix`, eight at a time: quicker than one by one, without flooding a busy sandbox. */
async function tripEach(session: ScenarioSession, prefix: string): Promise<void> {
  const orders = ((await feedNow(session)) as FeedItem[]).filter((order) => String(order['externalId']).startsWith(prefix));
  for (let start = 0; start < orders.length; start += 8) await Promise.all(orders.slice(start, start + 8).map((order) => session.control.buildTrip(session.tenantId, [order.id])));
}

/**
 * Findings of a sync of the feed `path` (`operation`): when the client stopped with its last
 * page holding an item with something unknown, that item, quoted whole; else whether it reached
 * the end and missed nothing. A passing sync whose pages never held the noted item ends in
 * error: the walk did not meet what the scenario staged.
 */
async function readPast(session: ScenarioSession, run: ClientRun | undefined, operation: string, path: string): Promise<Finding[]> {
  if (run === undefined) throw new Error(`no run of the client synced ${path}`);
  const pages = await pagesOf(session, run, operation);
  const items = (await feedNow(session, path)) as FeedItem[];
  const current = [...new Map(items.map((item) => [item.id, item])).values()];
  const stopper = stoppedAt(run, pages, current, path);
  if (stopper !== null) {
    const [noun, what] = path === TRIP_FEED_PATH ? ['trip', 'trips'] : ['order', 'orders'];
    const fix = `keep the ${noun}, read past what it carries that the contract does not list, and follow nextCursor until a page answers null (client.feed.tolerant-reader)`;
    return [found(`The sync stopped at ${noun} ${stopper.id}, which carries ${unknownIn(path, stopper)}`, `what it does not know ignored: pages read on until one answers nextCursor null (D93)`, `the last page read had a nextCursor; it held ${JSON.stringify(stopper)} and the feed had more ${what} after it`, pages.slice(-2).map((page) => page.entry), fix)];
  }
  const findings = [...reachedTheEnd(pages, run, path), ...missedNothing(pages, current)];
  const staged = session.notes.get(path);
  if (findings.length === 0 && !pages.some((page) => page.items.some((item) => item.id === staged))) throw new StagingError(`the sync's pages never held ${staged}, the item the scenario staged`);
  return findings;
}

/**
 * The first item with something unknown on the last page read, when the client ended by itself
 * with that page's nextCursor unfollowed (it stopped there); else null. A client killed at its
 * time limit was still reading, so the last page it read says nothing of why.
 */
function stoppedAt(run: ClientRun, pages: readonly ReadPage[], current: readonly FeedItem[], path: string): FeedItem | null {
  const last = pages.at(-1);
  if (run.timedOut || last === undefined || last.nextCursor === null) return null;
  const byId = new Map(current.map((item) => [item.id, item]));
  for (const item of last.items) {
    const whole = byId.get(item.id);
    if (whole !== undefined && unknownIn(path, whole) !== null) return whole;
  }
  return null;
}

/**
 * (g) A simulation (D93) on a frozen clock takes in orders with `deliveryWindow` and holds a trip
 * `OnHold`; then 110 orders, and 110 more each planned onto a trip of its own: both feeds hold
 * more than a page after the first unknown item. The client syncs orders, then trips; the clock
 * stays frozen, so the feeds are as staged for as long as it runs.
 */
export const tolerantReader: ClientScenario = {
  id: 'client.sync.tolerant-reader',
  title: 'A sync reads past an order member and a trip status the contract does not list yet, to the end of each feed',
  verifies: ['client.feed.tolerant-reader'],
  fix: 'read an item by the members it knows: ignore a member the contract does not list, keep an item whose trip status it does not know, and go on to the end of the feed (client.feed.tolerant-reader)',
  task: 'sync-orders',
  secondTask: 'sync-trips',
  async setup(session) {
    // Frozen a minute ahead, as client.sync.unknown-status does (D52).
    await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: new Date(Date.now() + 60_000).toISOString() });
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 30, seed: 11, unknownMembers: true, unknownTripStatuses: true });
    await session.control.advanceClock(session.tenantId, 'PT10M');
    // A minute at a time until a trip is on hold.
    for (let minute = 0; minute < 60 && (await feedWithUnknown(session, TRIP_FEED_PATH)).first === -1; minute += 1) await session.control.advanceClock(session.tenantId, 'PT1M');
    // 110 orders after the unknown member, taken in with one stamp as an import is; then 110 more, each planned onto a trip of its own.
    await session.control.importOrders(session.tenantId, 'CC-LATE', AFTER_UNKNOWN);
    await session.control.importOrders(session.tenantId, 'CC-TRIP', AFTER_UNKNOWN);
    await tripEach(session, 'CC-TRIP-');
    return {};
  },
  async staged(session) {
    await stagedIn(session, FEED_PATH, 'order');
    await stagedIn(session, TRIP_FEED_PATH, 'trip');
  },
  async grade(session, runs) {
    return [...(await readPast(session, runs[0], 'orderFeed', FEED_PATH)), ...(await readPast(session, runs[1], 'tripFeed', TRIP_FEED_PATH))];
  },
};
