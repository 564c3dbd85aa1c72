/**
 * The rate-limit scenario (D56): a sync that must pace itself by the RateLimit headers at any
 * page size. The client's key (300 a minute: a request every 200 ms) holds one request when the
 * client starts, however long the client takes to start: its bucket is drained on a frozen
 * clock, and the clock starts, as if it had run since then, at the client's first request. The
 * feed holds 101 orders, so every page size from 1 to 100 needs at least two requests: the
 * client has to wait for its bucket at least once, and at 1 a page it reads 101 pages in about
 * 20 s. A client that waits a whole minute when RateLimit-Remaining is 0 has its bucket full
 * again, so the 120 s budget holds every pacing the headers justify.
 */
import type { LogSummary } from '../control-plane.ts';
import { type ClientRun, type ClientScenario, GRADER_REQUEST_ID, type ScenarioSession, StagingError } from '../scenario.ts';
import { FEED_PATH, feedNow, pagesOf, reachedTheEnd } from './feed-pages.ts';
import { found } from './grading.ts';
import { firstRequest } from './staging.ts';
import { counted } from '../../../cli/counted.ts';

/** The key's rate limit: a request every 200 ms, slow enough that no client meets it by accident. */
export const PER_MINUTE = 300;
/** Requests the key's bucket holds when the client's first request arrives. */
export const LEFT = 1;
/** More orders than one page of 100: two requests at least, whatever the page size. */
const ORDERS = 101;
/**
 * The key's clock starts this much ahead of the client's first request, in the client's favour:
 * it makes up for the time the clock's setting takes to reach the sandbox, so once it runs a
 * client paced exactly by the headers is never refused for the grader's lateness (a naive
 * client's next request, a few ms after its first, still finds no token: this is half of one).
 */
export const HEAD_START_MS = 100;
/** Slack of the replay of the bucket from the log's times (request starts, in ms): 20 ms of refill. */
export const SLACK = 0.1;

/** Spends all but `LEFT` of the client key's requests (its bucket is made full at its first use), on the frozen clock; throws unless that left exactly `LEFT`. */
async function drain(session: ScenarioSession): Promise<void> {
  const { http } = await session.integration();
  const remaining: number[] = [];
  for (let start = 0; start < PER_MINUTE - LEFT; start += 25) {
    const batch = Array.from({ length: Math.min(25, PER_MINUTE - LEFT - start) }, (_, i) => `${GRADER_REQUEST_ID}drain-${start + i}`);
    const answers = await Promise.all(batch.map((id) => http.request({ method: 'GET', path: '/api/v1/integration/whoami', key: session.clientKey, headers: { 'x-request-id': id } })));
    for (const answer of answers) {
      if (answer.status !== 200) throw new StagingError(`draining the client's key: whoami answered ${answer.status}`);
      remaining.push(Number(answer.headers['ratelimit-remaining']));
    }
  }
  session.notes.set('left', String(Math.min(...remaining)));
}

/**
 * True when a running clock would have served `refused` (a request refused while the clock was
 * still frozen): replayed from the client's first request (the bucket holding `LEFT`), each
 * served request taking one, refilled at the key's rate.
 */
function servedByRunningClock(requests: readonly LogSummary[], refused: LogSummary): boolean {
  let tokens = LEFT;
  let at = Date.parse(requests[0]?.atUtc ?? refused.atUtc);
  for (const request of requests) {
    const now = Date.parse(request.atUtc);
    tokens = Math.min(PER_MINUTE, tokens + (Math.max(0, now - at) * PER_MINUTE) / 60_000);
    at = Math.max(at, now);
    if (request.id === refused.id) return tokens >= 1 - SLACK;
    if (request.status !== 429) tokens -= 1;
  }
  return false;
}

/** (h) A key drained to one request: the sync paces itself by the RateLimit headers, is never refused 429, and reaches the end. */
export const rateLimit: ClientScenario = {
  id: 'client.sync.rate-limit',
  title: "A sync paces itself by the RateLimit headers: the key's rate limit is never exceeded, at any page size",
  verifies: ['client.rate-limit.pace'],
  fix: 'read RateLimit-Remaining and RateLimit-Reset on every answer, and when the remaining requests run out, wait for the reset instead of sending the next one (client.rate-limit.pace)',
  task: 'sync-orders',
  key: { rateLimitPerMinute: PER_MINUTE },
  timeBudgetMs: 120_000,
  async setup(session) {
    // A minute ahead, as the other frozen setups (D52 refuses a move behind the newest stamp).
    const frozenAt = new Date(Date.now() + 60_000).toISOString();
    await session.control.setClock(session.tenantId, { mode: 'frozen', atUtc: frozenAt });
    session.notes.set('frozenAt', frozenAt);
    await session.control.importOrders(session.tenantId, 'CC-RL', ORDERS);
    await drain(session);
    return {};
  },
  async staged(session) {
    if (session.notes.get('left') !== String(LEFT)) throw new StagingError(`the client's key holds ${session.notes.get('left')} requests after the drain, not ${LEFT}`);
    const held = (await feedNow(session)).length;
    if (held !== ORDERS) throw new StagingError(`the feed holds ${held} orders, not ${ORDERS}`);
  },
  async during(session, exited) {
    const first = await firstRequest(session, exited);
    if (first === null) return;
    // The key's clock runs from the client's first request, however late it was seen.
    const atUtc = new Date(Date.parse(session.notes.get('frozenAt') as string) + Date.now() - Date.parse(first.atUtc) + HEAD_START_MS).toISOString();
    await session.control.setClock(session.tenantId, { mode: 'offset', atUtc });
    session.notes.set('clockStartedAt', new Date().toISOString());
  },
  async grade(session, runs) {
    const run = runs[0] as ClientRun;
    const refused = run.requests.filter((request) => request.status === 429 && request.problemType === 'api.rate_limited' && request.fault === null);
    // Only a request refused before the clock ran can be the grader's doing (a running clock starts ahead).
    const startedAt = Date.parse(session.notes.get('clockStartedAt') ?? '');
    const early = refused.filter((request) => !(Date.parse(request.atUtc) >= startedAt) && servedByRunningClock(run.requests, request));
    if (early.length > 0) {
      throw new StagingError(`the key's clock started at ${session.notes.get('clockStartedAt') ?? 'no time'}, too late for the client's request #${early[0]?.id} at ${early[0]?.atUtc}, which a running clock would have served`);
    }
    if (refused.length > 0) {
      return [found(`The client exceeded its key's rate limit (${PER_MINUTE} a minute)`, 'no 429 api.rate_limited: with RateLimit-Remaining 0, wait RateLimit-Reset seconds before the next request', `${counted(refused.length, 'request')} refused 429`, refused.slice(0, 5))];
    }
    return reachedTheEnd(await pagesOf(session, run), run, FEED_PATH);
  },
};
