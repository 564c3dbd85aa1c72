/**
 * Scenarios of the feeds: a walk that follows `nextCursor` to null while the feed changes under
 * it, a second sync that resumes from the newest `updatedAtUtc` it processed, a walk past an
 * order status the contract does not list, and a 429 on the feed. The client's pages come from
 * the request log's structured pages (D48), so every page size is graded; what it should have
 * seen, from a walk of the grader's own.
 */
import type { Finding } from '../../engine/types/check.ts';
import { type ClientRun, type ClientScenario, type ScenarioSession, StagingError } from '../scenario.ts';
import { currentItems, FEED_PATH, feedNow, followedCursors, missedNothing, newestOf, pagesOf, reachedTheEnd, TRIP_FEED_PATH, unlisted } from './feed-pages.ts';
import { found, retriedAfter } from './grading.ts';
import { faultArmed, faultFired, orderIs, struckFirst } from './staging.ts';

/** Throws unless the feed `path` holds at least `count` items now. */
async function feedHolds(session: ScenarioSession, count: number, path = FEED_PATH): Promise<void> {
  const held = (await currentItems(session, path)).length;
  if (held < count) throw new StagingError(`the feed ${path} holds ${held} items, fewer than the ${count} the setup made`);
}

/** What the grader changed while the client walked: a description, and the new version as `id@updatedAtUtc`. */
interface Change {
  what: string;
  id: string;
  updatedAtUtc: string;
}

/**
 * `during` of a walk that must meet a change. Every page waits (a latency rule) until the grader
 * has changed the feed, which it does once the client's first page is held: `change`, given
 * what `prepare` read before the client started. Then the rule goes, so the change is at the
 * tail before the client can reach it, however late the grader gets to it.
 */
function changeWhileWalking<T>(operation: string, prepare: (session: ScenarioSession) => Promise<T>, change: (session: ScenarioSession, prepared: T) => Promise<Change>) {
  return async (session: ScenarioSession, exited: Promise<unknown>): Promise<void> => {
    const prepared = await prepare(session);
    if (!(await faultFired(session, exited, { operation, fault: 'latency' }))) return;
    const changed = await change(session, prepared);
    await session.control.deleteFaults(session.tenantId);
    session.notes.set('changed', changed.what);
    session.notes.set('changedVersion', `${changed.id}@${Date.parse(changed.updatedAtUtc)}`);
  };
}

/**
 * Findings of a walk graded against the feed now; when they pass, a `StagingError` unless the
 * client's pages hold the version the grader made while it walked (the walk met a change).
 */
async function walkGraded(session: ScenarioSession, run: ClientRun, operation: string, path: string): Promise<Finding[]> {
  const pages = await pagesOf(session, run, operation);
  const findings = [...followedCursors(pages), ...reachedTheEnd(pages, run, path), ...missedNothing(pages, await currentItems(session, path))];
  if (findings.length > 0) return findings;
  const version = session.notes.get('changedVersion');
  const read = pages.some((page) => page.items.some((item) => `${item.id}@${Date.parse(item.updatedAtUtc)}` === version));
  if (!read) throw new StagingError(`the walk met no change made while it went on (${version === undefined ? 'the grader made none' : `${session.notes.get('changed')} is in none of its pages`})`);
  return [];
}

/**
 * Orders a sync scenario stages: more than a page of 100, so every page size reads two pages at
 * least, and few enough that a client reading one a page is done in seconds.
 */
const FEED_ORDERS = 120;

/** Every page waits 300 ms until the grader's change is in (then the rule is deleted). */
const SLOW_PAGES = { fault: 'latency', latencyMs: 300, probability: 1 };

/** (d) 120 orders and a living feed; the grader cancels an order while the client's first page waits: the walk follows nextCursor to null and misses nothing. */
export const followsCursor: ClientScenario = {
  id: 'client.sync.follows-cursor',
  title: 'A sync follows nextCursor to null and sees every change while the feed changes under it',
  verifies: ['int.orders-feed.caught-up'],
  fix: "send each page's nextCursor back as cursor, unchanged, and stop only at a page whose nextCursor is null (int.orders-feed.caught-up)",
  task: 'sync-orders',
  async setup(session) {
    await session.control.importOrders(session.tenantId, 'CC-FEED', FEED_ORDERS);
    await session.control.addFault(session.tenantId, { keyId: session.clientKeyId, operation: 'orderFeed', ...SLOW_PAGES });
    // Slow enough that a client reading one order a page outruns it on a busy machine.
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 120, seed: 20261124 });
    return {};
  },
  async staged(session) {
    await feedHolds(session, FEED_ORDERS);
    await faultArmed(session, { operation: 'orderFeed', fault: 'latency' });
    if (!(await session.control.simulationRunning(session.tenantId))) throw new StagingError('the simulation is not running');
  },
  during: changeWhileWalking('orderFeed', (session) => session.integration(), async (_session, { http, key }) => {
    const answer = await http.request({ method: 'POST', path: '/api/v1/integration/orders/externalid/CC-FEED-7/cancel', key, body: {} });
    if (answer.status !== 200) throw new StagingError(`cancelling CC-FEED-7 while the client walked answered ${answer.status}`);
    return { what: 'the order CC-FEED-7, cancelled', ...(answer.json as { id: string; updatedAtUtc: string }) };
  }),
  grade: (session, runs) => walkGraded(session, runs[0] as ClientRun, 'orderFeed', FEED_PATH),
};

/** (d) Trips built, started and completed by a simulation, still changing, and one the grader builds while the client walks the trip feed. */
export const tripsFollowCursor: ClientScenario = {
  id: 'client.sync.trips-follow-cursor',
  title: 'A trip sync follows nextCursor to null and sees every change while trips change under it',
  verifies: ['int.orders-feed.caught-up', 'int.trips-feed.oldest-first'],
  fix: "walk the trip feed by the order feed's cursor rules: send each page's nextCursor back as cursor, unchanged, and stop only at a page whose nextCursor is null (int.trips-feed.oldest-first, int.orders-feed.caught-up)",
  task: 'sync-trips',
  async setup(session) {
    // Twenty minutes of a simulation at once (a frozen clock, advanced) make about 140 trips;
    // then the clock runs on from there and the simulation goes on changing them.
    await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: new Date(Date.now() + 60_000).toISOString() });
    session.notes.set('orderId', await session.control.createOrder(session.tenantId, 'CC-TRIP'));
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 60, seed: 3 });
    await session.control.advanceClock(session.tenantId, 'PT20M');
    await session.control.setClock(session.tenantId, { mode: 'offset' });
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 120, seed: 4 });
    await session.control.addFault(session.tenantId, { keyId: session.clientKeyId, operation: 'tripFeed', ...SLOW_PAGES });
    return {};
  },
  async staged(session) {
    await feedHolds(session, 101, TRIP_FEED_PATH);
    await faultArmed(session, { operation: 'tripFeed', fault: 'latency' });
    await orderIs(session, 'New');
  },
  // A trip of an order the simulation never tends (it tends only its own SIM- orders), so nothing races it.
  during: changeWhileWalking('tripFeed', async () => undefined, async (session) => {
    const trip = await session.control.buildTrip(session.tenantId, [session.notes.get('orderId') as string]);
    return { what: `the trip ${trip.id}, built`, ...trip };
  }),
  grade: (session, runs) => walkGraded(session, runs[0] as ClientRun, 'tripFeed', TRIP_FEED_PATH),
};

/** (e) A sync, 30 new orders and 3 cancelled, a second sync: it resumes with since = the newest updatedAtUtc of the first. */
export const resumes: ClientScenario = {
  id: 'client.sync.resumes',
  title: 'A second sync resumes with since = the newest updatedAtUtc processed, and misses nothing changed in between',
  verifies: ['client.feed.resume'],
  fix: 'keep the newest updatedAtUtc a sync processed, and start the next sync with since set to it: not from the beginning, nor from later (client.feed.resume)',
  task: 'sync-orders',
  async setup(session) {
    await session.control.importOrders(session.tenantId, 'CC-FIRST', 120);
    return {};
  },
  staged: (session) => feedHolds(session, 120),
  async between(session) {
    await session.control.importOrders(session.tenantId, 'CC-SECOND', 30);
    const { http, key } = await session.integration();
    for (const externalId of ['CC-FIRST-3', 'CC-FIRST-60', 'CC-FIRST-90']) {
      const answer = await http.request({ method: 'POST', path: `/api/v1/integration/orders/externalid/${externalId}/cancel`, key, body: {} });
      if (answer.status !== 200) throw new StagingError(`between the syncs: cancelling ${externalId} answered ${answer.status}`);
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

/** Orders after the first unknown status: a client reading 100 a page still has a page to go when it meets it. */
const AFTER_UNKNOWN = 110;

/**
 * (f) A simulation that moves orders through OnHold (D54), run on a frozen clock until one is
 * held, then 110 more orders: the sync meets OnHold with pages still to read, and walks past it.
 * The clock stays frozen, so the order is OnHold for as long as the client runs.
 */
export const unknownStatus: ClientScenario = {
  id: 'client.sync.unknown-status',
  title: 'A sync keeps going past an order status the contract does not list',
  verifies: ['int.status.unknown-not-final'],
  fix: 'treat an order status it does not know as not final: keep the order and read on to the end of the feed (int.status.unknown-not-final)',
  task: 'sync-orders',
  async setup(session) {
    // Frozen a minute ahead: frozen at its own time, the sandbox sometimes finds that time a few
    // ms behind the tenant's newest stamp and refuses the move back (D52).
    await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: new Date(Date.now() + 60_000).toISOString() });
    await session.control.importOrders(session.tenantId, 'CC-EARLY', 40);
    await session.control.setSimulation(session.tenantId, { changesPerMinute: 30, seed: 7, unknownStatuses: true });
    await session.control.advanceClock(session.tenantId, 'PT10M');
    // A minute at a time until an order is on hold (about one order in six is, for a while).
    for (let minute = 0; minute < 60 && !(await feedNow(session)).some((order) => unlisted(order.status)); minute += 1) await session.control.advanceClock(session.tenantId, 'PT1M');
    await session.control.importOrders(session.tenantId, 'CC-LATE', AFTER_UNKNOWN);
    return {};
  },
  async staged(session) {
    const feed = await feedNow(session);
    const first = feed.findIndex((order) => unlisted(order.status));
    if (first === -1) throw new StagingError('no order of the feed is in a status the contract does not list');
    const after = feed.length - 1 - first;
    if (after < 100) throw new StagingError(`${after} orders follow the first unknown status (${feed[first]?.status}): a client reading 100 a page could meet it on its last page`);
    session.notes.set('unknown', `${feed[first]?.id} ${feed[first]?.status}`);
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
  fix: "read the page again once the 429's Retry-After has passed, no sooner, and go on following nextCursor to the end of the feed (int.errors.rate-limit-429)",
  task: 'sync-orders',
  async setup(session) {
    await session.control.importOrders(session.tenantId, 'CC-THROTTLED', FEED_ORDERS);
    await session.control.addFault(session.tenantId, { keyId: session.clientKeyId, operation: 'orderFeed', fault: 'status', status: 429, retryAfterSeconds: 2 });
    return {};
  },
  async staged(session) {
    await feedHolds(session, FEED_ORDERS);
    await faultArmed(session, { operation: 'orderFeed', fault: 'status', status: 429 });
  },
  async grade(session, runs) {
    const run = runs[0] as ClientRun;
    const feed = run.requests.filter((request) => request.operation === 'orderFeed');
    struckFirst(feed, 'status', 429);
    const findings = retriedAfter(feed, 2, 'int.errors.rate-limit-429');
    return findings.length > 0 ? findings : reachedTheEnd(await pagesOf(session, run), run);
  },
};
