// An example client of the Delivery Integration API: plain JavaScript, Node 20's built-in
// fetch, no dependencies. It is a pattern to copy, and the client `waybill client-check`
// grades in the project's own tests:
//
//   waybill client-check -- node conformance/client-check/example/client.mjs
//
// It reads its task from the environment, as client-check gives it:
//   WAYBILL_BASE_URL, WAYBILL_API_KEY   where the API is, and the key (sent as X-Api-Key)
//   WAYBILL_TASK                        sync-orders | sync-trips | pay | cancel | archive
//   WAYBILL_EXTERNAL_ID                 the order of pay, cancel and archive
//   WAYBILL_PAYMENT_ID, WAYBILL_AMOUNT, WAYBILL_CURRENCY   the payment of pay
//   WAYBILL_STATE_FILE                  where a sync keeps its position between runs
//
// A sync reads 100 orders or trips a page, the most the API serves; `--page-size N` (1 to 100)
// reads N. Exit 0 when the task got a success, 1 when the API refused it or could not be reached.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

const API = '/api/v1/integration';
const MAX_ATTEMPTS = 6;

/** The page size a sync asks for: `--page-size N` among `argv`, else 100 (the most a page holds). */
export function pageSizeOf(argv) {
  const at = argv.indexOf('--page-size');
  const size = at === -1 ? 100 : Number(argv[at + 1]);
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new Error('--page-size takes a whole number from 1 to 100');
  return size;
}

/** Waits `ms` milliseconds. */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in ms: delay-seconds (what waybill sends) or an HTTP-date; 0 when absent. */
function retryAfterMs(value) {
  if (value === null || value === undefined) return 0;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.max(ms, 0) : 0;
}

/** The client's decisions, in one place. (The project's tests run it with one of them wrong: naive.mjs.) */
export const defaultPolicy = {
  /**
   * Network errors, 5xx and 429 say "not done, try again": retry. Any other 4xx is the
   * server's verdict on this request: sending it again cannot change it, so never retry it.
   */
  isRetryable: (answer) => answer.error !== undefined || answer.status >= 500 || answer.status === 429,

  /**
   * The wait before attempt `attempt + 1`: at least what Retry-After asks (a 429, a 503), and an
   * exponential backoff with jitter otherwise (0.25 s, 0.5 s, 1 s … up to 8 s), so that clients
   * hit by the same outage do not all come back in the same millisecond.
   */
  waitBefore(attempt, answer) {
    const backoff = Math.min(250 * 2 ** (attempt - 1), 8000) * (0.5 + Math.random() / 2);
    return Math.max(retryAfterMs(answer.headers?.get('retry-after')), backoff);
  },

  /** A body goes as JSON and says so: the API reads no other media type (415, D17). */
  contentType: 'application/json',

  /** A write keeps one Idempotency-Key over all its attempts: a retry after a lost answer is replayed, not done twice. */
  idempotencyKeyFor: (key, attempt) => key,

  /** Where a sync starts: the position the last run saved. */
  startPosition: (saved) => saved,

  /** The query of the next page: the previous page's `nextCursor`, never a `since` of our own. */
  nextPageQuery: (page, lastItem) => `cursor=${encodeURIComponent(page.json.nextCursor)}`,

  /** An order status this client does not know, one added after it was written, is not final: keep the order open and go on. */
  onUnknownStatus: (order) => 'go on',

  /**
   * An item as this client reads it: by the members it knows, whatever else it carries. A later
   * version may add members and values (D93), so an item is never checked against a closed list
   * of members or trip statuses: what it does not know it leaves alone, and the sync goes on.
   */
  readItem: (feed, item) => item,

  /**
   * The wait before the next request, by the RateLimit headers every answer carries: while
   * RateLimit-Remaining is above 0 a request may go at once; at 0, RateLimit-Reset says in how
   * many seconds one more is available (D14), so wait that long rather than be refused.
   */
  paceBy(headers) {
    const remaining = Number(headers.get('ratelimit-remaining') ?? NaN);
    const reset = Number(headers.get('ratelimit-reset') ?? NaN);
    return remaining === 0 && reset > 0 ? reset * 1000 : 0;
  },
};

/** Not before this time (ms since the epoch) does the next request go: see `paceBy`. */
let nextRequestAt = 0;

/** One attempt: the answer's status, headers and JSON body, or `{ error }` when none (or a broken one) arrived. */
async function attempt(env, method, path, { body, idempotencyKey }, policy) {
  if (nextRequestAt > Date.now()) await sleep(nextRequestAt - Date.now());
  const headers = { 'X-Api-Key': env.WAYBILL_API_KEY, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = policy.contentType;
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  try {
    const response = await fetch(new URL(path, env.WAYBILL_BASE_URL), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // The API answers in milliseconds: an answer still incomplete after 5 s is treated as lost.
      signal: AbortSignal.timeout(5_000),
    });
    nextRequestAt = Date.now() + policy.paceBy(response.headers);
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text === '' ? null : JSON.parse(text) };
  } catch (error) {
    // A reset, a timeout, an answer cut short: nobody knows whether a write happened.
    return { error };
  }
}

/** Sends a request until it gets an answer that decides it (see `isRetryable`), waiting between attempts. */
export async function request(env, method, path, options = {}, policy = defaultPolicy) {
  for (let number = 1; ; number += 1) {
    const idempotencyKey = options.idempotencyKey === undefined ? undefined : policy.idempotencyKeyFor(options.idempotencyKey, number);
    const answer = await attempt(env, method, path, { ...options, idempotencyKey }, policy);
    if (!policy.isRetryable(answer) || number === MAX_ATTEMPTS) return answer;
    await sleep(policy.waitBefore(number, answer));
  }
}

/**
 * The order statuses this client knows to be final: the end values the seeds give each type
 * (a Delivery or Rebox ends FullyDelivered, PartiallyDelivered or Returned; a Pickup or Return
 * Collected, PartiallyCollected or NotCollected), Cancelled (D11: nothing moves an order out of
 * it), and Refused and Closed (D41: every status but New, InPlanning, Planned and InProgress "is
 * on a trip or final"; D12). The project's tests hold these lists to spec/openapi.yaml.
 */
export const FINAL_ORDER_STATUSES = new Set([
  'FullyDelivered', 'PartiallyDelivered', 'Returned', 'Collected', 'PartiallyCollected', 'NotCollected', 'Cancelled', 'Refused', 'Closed',
]);
/** Every order status this client was written for. Any other, one added since, is not final (the seeds' rule). */
export const KNOWN_ORDER_STATUSES = new Set(['New', 'InPlanning', 'Planned', 'InProgress', ...FINAL_ORDER_STATUSES]);

/** The state file: each feed's saved position, `{}` before the first save. */
const readState = (file) => readFile(file, 'utf8').then(JSON.parse).catch(() => ({}));

/** The saved position of a feed: the newest `updatedAtUtc` processed, and the ids processed at that instant. */
const loadPosition = async (file, feed) => (await readState(file))[feed] ?? { since: null, idsAtSince: [] };

/** Saves the position atomically (write, then rename), so a crash never leaves half a file. */
async function savePosition(file, feed, position) {
  const state = await readState(file);
  await writeFile(`${file}.tmp`, JSON.stringify({ ...state, [feed]: position }));
  await rename(`${file}.tmp`, file);
}

/**
 * Reads a feed (`orders` or `trips`) from the saved position: `since` = the newest
 * `updatedAtUtc` processed last time, then `nextCursor` page after page until it is null.
 * The feed is at-least-once (`since` is inclusive), so items are deduplicated on id +
 * `updatedAtUtc`. The position is saved after every page: a crash resumes where it stopped.
 */
async function sync(env, feed, handle, policy, pageSize) {
  let position = policy.startPosition(await loadPosition(env.WAYBILL_STATE_FILE, feed));
  let query = position.since === null ? '' : `since=${encodeURIComponent(position.since)}`;
  for (;;) {
    const page = await request(env, 'GET', `${API}/${feed}?limit=${pageSize}${query === '' ? '' : `&${query}`}`, {}, policy);
    if (page.status !== 200) return page;
    for (const item of page.json.items) {
      const atSince = item.updatedAtUtc === position.since;
      if (atSince && position.idsAtSince.includes(item.id)) continue; // seen already: the same version again
      if (handle(policy.readItem(feed, item)) === 'stop') return page;
      position = atSince ? { since: position.since, idsAtSince: [...position.idsAtSince, item.id] } : { since: item.updatedAtUtc, idsAtSince: [item.id] };
    }
    await savePosition(env.WAYBILL_STATE_FILE, feed, position);
    if (page.json.nextCursor === null) return page; // caught up: next time, start from `since`
    query = policy.nextPageQuery(page, page.json.items.at(-1));
  }
}

/** What this example does with an order change: a line on stderr. Yours would update your own system. */
function handleOrder(order, policy) {
  if (!KNOWN_ORDER_STATUSES.has(order.status) && policy.onUnknownStatus(order) === 'stop') return 'stop';
  const final = FINAL_ORDER_STATUSES.has(order.status);
  process.stderr.write(`order ${order.externalId}: ${order.status}${final ? ' (final)' : ''}\n`);
  return 'go on';
}

/** The path of an order's operation by external id. */
const orderPath = (env, suffix = '') => `${API}/orders/externalid/${encodeURIComponent(env.WAYBILL_EXTERNAL_ID)}${suffix}`;

/** Runs the task `env` names, reading `pageSize` items a page; resolves to the exit code. */
export async function runTask(env, policy = defaultPolicy, pageSize = 100) {
  let answer;
  switch (env.WAYBILL_TASK) {
    case 'sync-orders':
      answer = await sync(env, 'orders', (order) => handleOrder(order, policy), policy, pageSize);
      break;
    case 'sync-trips':
      answer = await sync(env, 'trips', (trip) => void process.stderr.write(`trip ${trip.id}: ${trip.status}\n`), policy, pageSize);
      break;
    case 'pay': {
      // One logical payment, one Idempotency-Key, derived from the payment's own id: a
      // restarted process retries under the same key too.
      const body = { paymentId: env.WAYBILL_PAYMENT_ID, amount: Number(env.WAYBILL_AMOUNT), currency: env.WAYBILL_CURRENCY };
      answer = await request(env, 'POST', orderPath(env, '/payment'), { body, idempotencyKey: `pay-${env.WAYBILL_PAYMENT_ID}` }, policy);
      break;
    }
    case 'cancel':
      answer = await request(env, 'POST', orderPath(env, '/cancel'), { body: {}, idempotencyKey: `cancel-${crypto.randomUUID()}` }, policy);
      break;
    case 'archive':
      answer = await request(env, 'DELETE', orderPath(env), { idempotencyKey: `archive-${crypto.randomUUID()}` }, policy);
      break;
    default:
      process.stderr.write(`unknown WAYBILL_TASK ${env.WAYBILL_TASK}\n`);
      return 2;
  }
  if (answer.error !== undefined) {
    process.stderr.write(`${env.WAYBILL_TASK}: no answer (${answer.error.cause?.code ?? answer.error.message})\n`);
    return 1;
  }
  const ok = answer.status >= 200 && answer.status <= 299;
  process.stderr.write(`${env.WAYBILL_TASK}: ${answer.status}${ok ? '' : ` ${answer.json?.type ?? ''} ${answer.json?.detail ?? ''}`}\n`);
  return ok ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runTask(process.env, defaultPolicy, pageSizeOf(process.argv));
}
