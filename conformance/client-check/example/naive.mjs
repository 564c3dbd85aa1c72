// The example client with one known mistake, for the project's tests of `waybill client-check`:
//
//   waybill client-check -- node conformance/client-check/example/naive.mjs new-key-per-retry
//
// Each mistake is one that integrators make; client-check must catch each one.
import { runTask } from './client.mjs';

const mistakes = {
  'new-key-per-retry': 'newKeyPerRetry', // a retry after a lost answer under a new Idempotency-Key
  'no-backoff': 'noBackoff', // retries at once, Retry-After ignored
  'full-read': 'fullRead', // every sync reads the whole feed again, no saved position
  'since-paging': 'sincePaging', // pages with since = the last item's updatedAtUtc, not nextCursor
  'stop-at-unknown-status': 'stopAtUnknownStatus', // an order status it does not know ends the sync
  'retry-client-errors': 'retryClientErrors', // retries 400, 401, 403, 404 and 409 as if they were 5xx
  'give-up-on-429': 'giveUpOn429', // takes a 429 (rate limit, or a request with the same key in flight) as final
  'ignore-rate-limit': 'ignoreRateLimit', // reads as fast as it can until refused 429
};

const name = process.argv[2];
if (!Object.hasOwn(mistakes, name)) {
  process.stderr.write(`usage: naive.mjs ${Object.keys(mistakes).join('|')}\n`);
  process.exit(2);
}
process.exitCode = await runTask(process.env, { [mistakes[name]]: true });
