// The example client with one known mistake, for the project's tests of `waybill client-check`:
//
//   waybill client-check -- node conformance/client-check/example/naive.mjs new-key-per-retry [--page-size N]
//
// Each mistake is one that integrators make; client-check must catch each one. Each variant is
// the example's policy with one decision replaced.
import { defaultPolicy, pageSizeOf, runTask } from './client.mjs';

// The members and trip statuses of spec/openapi.yaml as a client generated from it today holds them.
const MEMBERS = {
  orders: ['id', 'externalId', 'shortId', 'status', 'miniStatus', 'type', 'customId', 'createdAtUtc', 'updatedAtUtc', 'tags'],
  trips: ['id', 'shortId', 'status', 'warehouseId', 'driverId', 'vehicleId', 'stopCount', 'plannedAtUtc', 'updatedAtUtc'],
};
const TRIP_STATUSES = ['Confirmed', 'InProgress', 'Completed', 'Cancelled'];

/** Validates an item as a strict schema would (`additionalProperties: false`, the trip status's closed enum), throwing at the first thing it does not know. */
function strictly(feed, item) {
  const unknown = Object.keys(item).filter((member) => !MEMBERS[feed].includes(member));
  if (unknown.length > 0) throw new TypeError(`${feed} item ${item.id}: unknown members ${unknown.join(', ')} (additionalProperties: false)`);
  if (feed === 'trips' && !TRIP_STATUSES.includes(item.status)) throw new TypeError(`trip ${item.id}: status ${item.status} is not one of ${TRIP_STATUSES.join(', ')}`);
  return item;
}

const variants = {
  // A retry after a lost answer under a new Idempotency-Key.
  'new-key-per-retry': { ...defaultPolicy, idempotencyKeyFor: (key, attempt) => `${key}-${attempt}` },
  // Retries at once, Retry-After ignored.
  'no-backoff': { ...defaultPolicy, waitBefore: () => 0 },
  // Every sync reads the whole feed again, no saved position.
  'full-read': { ...defaultPolicy, startPosition: () => ({ since: null, idsAtSince: [] }) },
  // Pages with since = the last item's updatedAtUtc, not nextCursor.
  'since-paging': { ...defaultPolicy, nextPageQuery: (page, lastItem) => `since=${encodeURIComponent(lastItem.updatedAtUtc)}` },
  // An order status it does not know ends the sync.
  'stop-at-unknown-status': { ...defaultPolicy, onUnknownStatus: () => 'stop' },
  // Retries 400, 401, 403, 404 and 409 as if they were 5xx.
  'retry-client-errors': { ...defaultPolicy, isRetryable: (answer) => answer.error !== undefined || answer.status >= 400 },
  // Takes a 429 (rate limit, or a request with the same key in flight) as final.
  'give-up-on-429': { ...defaultPolicy, isRetryable: (answer) => answer.error !== undefined || answer.status >= 500 },
  // Sends its JSON bodies as text/plain: every write is refused 415.
  'text-plain-body': { ...defaultPolicy, contentType: 'text/plain' },
  // Reads as fast as it can until refused 429.
  'ignore-rate-limit': { ...defaultPolicy, paceBy: () => 0 },
  // Validates each item against today's schema, closed, and crashes on a member or trip status added since.
  'strict-schema': { ...defaultPolicy, readItem: strictly },
};

const name = process.argv[2];
if (!Object.hasOwn(variants, name)) {
  process.stderr.write(`usage: naive.mjs ${Object.keys(variants).join('|')} [--page-size N]\n`);
  process.exit(2);
}
process.exitCode = await runTask(process.env, variants[name], pageSizeOf(process.argv));
