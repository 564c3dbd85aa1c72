/**
 * Scenarios of the order feed: a walk that follows `nextCursor` to null while the feed changes
 * under it, a second sync that resumes from the newest `updatedAtUtc` it processed, and a walk
 * past an order status the contract does not list. The client's pages are read back from the
 * request log's response bodies; what it should have seen, from a walk of the grader's own.
 */
import type { Finding } from '../../types.ts';
import type { LogSummary } from '../control-plane.ts';
import type { ClientRun, ClientScenario, ScenarioSession } from '../scenario.ts';
import { found, retriedAfter } from './grading.ts';

/** An order or trip of a feed page, as far as grading needs it. */
interface FeedItem {
  id: string;
  status: string;
  updatedAtUtc: string;
}

/** A page the client read: its request, its query and what it answered. */
interface ReadPage {
  entry: LogSummary;
  query: URLSearchParams;
  items: FeedItem[];
  nextCursor: string | null;
}

const FEED_PATH = '/api/v1/integration/orders';
const TRIP_FEED_PATH = '/api/v1/integration/trips';
const LISTED_STATUSES = new Set(['New', 'InPlanning', 'Planned', 'InProgress', 'FullyDelivered', 'Cancelled', 'Returned', 'Refused', 'Closed']);

/** `id@updatedAtUtc`: one version of an order, as consumers dedupe on it (D4). */
const versionOf = (order: FeedItem) => `${order.id}@${Date.parse(order.updatedAtUtc)}`;

/** The pages of a feed (`orderFeed`, `tripFeed`) the client read in `run` (answered 200), with their bodies from the log. */
async function pagesOf(session: ScenarioSession, run: ClientRun, operation = 'orderFeed'): Promise<ReadPage[]> {
  const pages: ReadPage[] = [];
  for (const entry of run.requests.filter((request) => request.operation === operation && request.status === 200)) {
    const { response } = await session.entry(entry);
    if (response.truncated || response.body === null) {
      session.skip(`the page ${entry.path} answered ${response.bytes} bytes, more than the request log keeps (16 KiB), so its nextCursor cannot be read back: give the client a limit of 50 or less to be graded`);
    }
    const body = JSON.parse(response.body) as { items: FeedItem[]; nextCursor: string | null };
    pages.push({ entry, query: new URL(entry.path, 'http://log').searchParams, items: body.items, nextCursor: body.nextCursor });
  }
  return pages;
}

/** A feed (`path`) as it stands now, read by the grader to the end: the newest version of every item. */
async function currentItems(session: ScenarioSession, path = FEED_PATH): Promise<FeedItem[]> {
  const { http, key } = await session.integration();
  const newest = new Map<string, FeedItem>();
  let cursor: string | null = null;
  do {
    const answer = await http.request({ method: 'GET', path, key, query: { limit: 100, cursor: cursor ?? undefined } });
    if (answer.status !== 200) throw new Error(`the grader's feed read answered ${answer.status}`);
    const page = answer.json as { items: FeedItem[]; nextCursor: string | null };
    for (const order of page.items) newest.set(order.id, order);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return [...newest.values()];
}

/** The newest `updatedAtUtc` among `pages`' items, in ms; null when they hold none. */
function newestOf(pages: readonly ReadPage[]): number | null {
  const stamps = pages.flatMap((page) => page.items.map((order) => Date.parse(order.updatedAtUtc)));
  return stamps.length === 0 ? null : Math.max(...stamps);
}

/** Findings unless some page of the feed was read and the last one ended the feed (`nextCursor` null). */
function reachedTheEnd(pages: readonly ReadPage[], run: ClientRun, path = FEED_PATH): Finding[] {
  const last = pages.at(-1);
  if (last === undefined) return [found('The client never read a page of the feed', `GET ${path} answered 200`, 'no such request in the request log', run.requests.slice(-3))];
  if (last.nextCursor === null) return [];
  return [found('The sync stopped before the feed was caught up', 'pages read until one answers nextCursor null', `the last page read had nextCursor ${last.nextCursor.slice(0, 24)}…`, pages.slice(-2).map((page) => page.entry))];
}

/** Findings for each page not read from the previous page's `nextCursor` (while that was not null). */
function followedCursors(pages: readonly ReadPage[]): Finding[] {
  const broken = pages.slice(1).filter((page, index) => {
    const previous = pages[index] as ReadPage;
    return previous.nextCursor !== null && page.query.get('cursor') !== previous.nextCursor;
  });
  const first = broken[0];
  if (first === undefined) return [];
  const previous = pages[pages.indexOf(first) - 1] as ReadPage;
  const sent = first.query.get('cursor') === null ? `no cursor (${first.query.toString() || 'no query'})` : `another cursor`;
  return [found(`${broken.length} page(s) were not read from the previous page's nextCursor`, `cursor=${(previous.nextCursor as string).slice(0, 24)}… (the previous page's nextCursor)`, sent, [previous.entry, first.entry])];
}

/**
 * A finding when an order changed between the walk's start (`since`, when it gave one) and the
 * newest change it read is missing from its pages in that version. An order that changed while
 * the walk went on moves to the feed's tail, so a walk that follows `nextCursor` to null reads it.
 */
function missedNothing(pages: readonly ReadPage[], current: readonly FeedItem[]): Finding[] {
  const newest = newestOf(pages);
  if (newest === null) return [];
  const since = pages[0]?.query.get('cursor') === null ? pages[0]?.query.get('since') : null;
  const from = since === null || since === undefined ? -Infinity : Date.parse(since);
  const read = new Set(pages.flatMap((page) => page.items.map(versionOf)));
  const missed = current.filter((item) => {
    const stamp = Date.parse(item.updatedAtUtc);
    return stamp >= from && stamp <= newest && !read.has(versionOf(item));
  });
  if (missed.length === 0) return [];
  const examples = missed.slice(0, 3).map((item) => `${item.id} ${item.status} at ${item.updatedAtUtc}`).join('; ');
  return [found('The sync missed changes', `every item changed from ${since ?? 'the start'} to ${new Date(newest).toISOString()} (the newest change it read), in that version`, `${missed.length} missed, e.g. ${examples}`, pages.map((page) => page.entry).slice(-3))];
}

/** (d) 200 orders, a simulation writing 10 changes a second, a slow feed: the walk follows nextCursor to null and misses nothing. */
export const followsCursor: ClientScenario = {
  id: 'client.sync.follows-cursor',
  title: 'A sync follows nextCursor to null and sees every change while the feed changes under it',
  verifies: ['int.orders-feed.caught-up'],
  task: 'sync-orders',
  async setup(session) {
    await session.control.importOrders(session.tenantId, 'CC-FEED', 200);
    // The first pages are slow, so the living feed's changes land while the client walks.
    await session.control.addFault(session.tenantId, { operation: 'orderFeed', fault: 'latency', latencyMs: 150, times: 3 });
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 600, seed: 20261124 });
    return {};
  },
  async grade(session, runs) {
    const run = runs[0] as ClientRun;
    const pages = await pagesOf(session, run);
    return [...followedCursors(pages), ...reachedTheEnd(pages, run), ...missedNothing(pages, await currentItems(session))];
  },
};

/** (d) Trips built, started and completed by a simulation, still changing while the client walks the trip feed. */
export const tripsFollowCursor: ClientScenario = {
  id: 'client.sync.trips-follow-cursor',
  title: 'A trip sync follows nextCursor to null and sees every change while trips change under it',
  verifies: ['int.orders-feed.caught-up', 'int.trips-feed.oldest-first'],
  task: 'sync-trips',
  async setup(session) {
    // Twenty minutes of a simulation at once (a frozen clock, advanced) make about 140 trips;
    // then the clock runs on from there and the simulation goes on changing them.
    await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: new Date(Date.now() + 60_000).toISOString() });
    await session.control.importOrders(session.tenantId, 'CC-TRIP', 150);
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 60, seed: 3 });
    await session.control.advanceClock(session.tenantId, 'PT20M');
    await session.control.setClock(session.tenantId, { mode: 'offset' });
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 600, seed: 4 });
    await session.control.addFault(session.tenantId, { operation: 'tripFeed', fault: 'latency', latencyMs: 150, times: 2 });
    return {};
  },
  async grade(session, runs) {
    const run = runs[0] as ClientRun;
    const pages = await pagesOf(session, run, 'tripFeed');
    return [...followedCursors(pages), ...reachedTheEnd(pages, run, TRIP_FEED_PATH), ...missedNothing(pages, await currentItems(session, TRIP_FEED_PATH))];
  },
};

/** (e) A sync, 30 new orders and 3 cancelled, a second sync: it resumes with since = the newest updatedAtUtc of the first. */
export const resumes: ClientScenario = {
  id: 'client.sync.resumes',
  title: 'A second sync resumes with since = the newest updatedAtUtc processed, and misses nothing changed in between',
  verifies: ['client.feed.resume'],
  task: 'sync-orders',
  async setup(session) {
    await session.control.importOrders(session.tenantId, 'CC-FIRST', 120);
    return {};
  },
  async between(session) {
    await session.control.importOrders(session.tenantId, 'CC-SECOND', 30);
    const { http, key } = await session.integration();
    for (const externalId of ['CC-FIRST-3', 'CC-FIRST-60', 'CC-FIRST-90']) {
      const answer = await http.request({ method: 'POST', path: `/api/v1/integration/orders/externalid/${externalId}/cancel`, key, body: {} });
      if (answer.status !== 200) throw new Error(`between the syncs: cancelling ${externalId} answered ${answer.status}`);
    }
  },
  async grade(session, runs) {
    const [first, second] = runs as [ClientRun, ClientRun];
    const newest = newestOf(await pagesOf(session, first));
    if (newest === null) return [found('The first sync read no order', `GET ${FEED_PATH} pages holding the 120 orders`, 'no page with an order', first.requests.slice(-3))];
    const start = second.requests.find((request) => request.operation === 'orderFeed');
    if (start === undefined) return [found('The second sync never read the feed', `GET ${FEED_PATH}?since=${new Date(newest).toISOString()}`, 'no feed request in the second run', [])];
    const query = new URL(start.path, 'http://log').searchParams;
    const since = query.get('since');
    const expected = `since=${new Date(newest).toISOString()} (the newest updatedAtUtc of the first sync)`;
    if (since === null) return [found('The second sync started again from the beginning', expected, query.get('cursor') === null ? 'no since' : 'a cursor and no since', [start])];
    if (Number.isNaN(Date.parse(since)) || Date.parse(since) !== newest) {
      const direction = Date.parse(since) > newest ? 'after the newest change it processed (changes in between can be lost)' : 'before the newest change it processed';
      return [found(`The second sync resumed ${direction}`, expected, `since=${since}`, [start])];
    }
    return missedNothing(await pagesOf(session, second), await currentItems(session));
  },
};

/** (f) A simulation that moves orders through OnHold, then 150 more orders: the sync walks past the unknown status to the end. */
export const unknownStatus: ClientScenario = {
  id: 'client.sync.unknown-status',
  title: 'A sync keeps going past an order status the contract does not list',
  verifies: ['int.status.unknown-not-final'],
  task: 'sync-orders',
  async setup(session) {
    // Frozen a minute ahead: frozen at its own time, the sandbox sometimes finds that time a few
    // ms behind the tenant's newest stamp and refuses the move back (D52).
    await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: new Date(Date.now() + 60_000).toISOString() });
    await session.control.importOrders(session.tenantId, 'CC-EARLY', 40);
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 30, seed: 7, unknownStatuses: true });
    await session.control.advanceClock(session.tenantId, 'PT20M');
    const unknown = (await currentItems(session)).filter((order) => !LISTED_STATUSES.has(order.status));
    if (unknown.length === 0) throw new Error('setup: the simulation left no order in a status the contract does not list');
    // Pages after the unknown status: a client that stops there stops short of the end.
    await session.control.importOrders(session.tenantId, 'CC-LATE', 150);
    return {};
  },
  async grade(session, runs) {
    const run = runs[0] as ClientRun;
    const pages = await pagesOf(session, run);
    return [...reachedTheEnd(pages, run), ...missedNothing(pages, await currentItems(session))];
  },
};

/** (c) The feed's first call answers 429 with `Retry-After: 2`: the sync waits, retries and still reaches the end. */
export const feedRetryAfter: ClientScenario = {
  id: 'client.sync.retry-after',
  title: 'A 429 on the feed is retried no sooner than its Retry-After, and the sync still reaches the end',
  verifies: ['int.errors.rate-limit-429'],
  task: 'sync-orders',
  async setup(session) {
    await session.control.importOrders(session.tenantId, 'CC-THROTTLED', 120);
    await session.control.addFault(session.tenantId, { operation: 'orderFeed', fault: 'status', status: 429, retryAfterSeconds: 2 });
    return {};
  },
  async grade(session, runs) {
    const run = runs[0] as ClientRun;
    const feed = run.requests.filter((request) => request.operation === 'orderFeed');
    const findings = retriedAfter(feed, 2);
    return findings.length > 0 ? findings : reachedTheEnd(await pagesOf(session, run), run);
  },
};

/** Orders enough for more pages of 50 than the key's bucket holds. */
const RATE_LIMIT = 60;

/** (h) A key of 60 requests a minute and 3,100 orders (63 pages): the sync paces itself and is never refused 429. */
export const rateLimit: ClientScenario = {
  id: 'client.sync.rate-limit',
  title: "A sync paces itself by the RateLimit headers: the key's rate limit is never exceeded",
  verifies: ['client.rate-limit.pace'],
  task: 'sync-orders',
  key: { rateLimitPerMinute: RATE_LIMIT },
  async setup(session) {
    for (const [prefix, count] of [['CC-RL-A', 1000], ['CC-RL-B', 1000], ['CC-RL-C', 1000], ['CC-RL-D', 100]] as const) await session.control.importOrders(session.tenantId, prefix, count);
    return {};
  },
  async grade(session, runs) {
    const run = runs[0] as ClientRun;
    const refused = run.requests.filter((request) => request.status === 429 && request.fault === null);
    if (refused.length > 0) {
      return [found(`The client exceeded its key's rate limit (${RATE_LIMIT} a minute)`, 'no 429 api.rate_limited: slow down when RateLimit-Remaining reaches 0', `${refused.length} request(s) refused 429`, refused.slice(0, 5))];
    }
    return reachedTheEnd(await pagesOf(session, run), run);
  },
};
