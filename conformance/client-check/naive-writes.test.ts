/**
 * Teeth, the write mistakes: each naive variant of the example client fails exactly the scenarios of its mistake
 * and passes the others; each failure shows the client's requests from the log.
 */
import { describe, it } from 'vitest';
import { expectFailures } from './testing.ts';

const variants: [mistake: string, fails: string[]][] = [
  ['new-key-per-retry', ['client.archive.answer-lost', 'client.cancel.answer-lost', 'client.pay.answer-lost', 'client.pay.answer-lost-500', 'client.pay.answer-lost-empty', 'client.pay.answer-lost-stall', 'client.pay.in-flight']],
  ['no-backoff', ['client.pay.in-flight', 'client.pay.retry-after', 'client.sync.retry-after']],
  ['retry-client-errors', ['client.no-retry.400', 'client.no-retry.401', 'client.no-retry.403', 'client.no-retry.404', 'client.no-retry.409']],
  ['give-up-on-429', ['client.pay.in-flight', 'client.pay.retry-after', 'client.sync.retry-after']],
];

describe('naive variants of the example client: writes', () => {
  it.each(variants)('%s fails exactly %j', (mistake, fails) => expectFailures(mistake, fails), 90_000);
});
