/**
 * Teeth, the feed mistakes: each naive variant of the example client fails exactly the scenarios of its mistake
 * and passes the others; each failure shows the client's requests from the log.
 */
import { describe, expect, it } from 'vitest';
import { checkClient, expectFailures, NAIVE_CLIENT, notPassed } from './testing.ts';

const variants: [mistake: string, fails: string[]][] = [
  ['full-read', ['client.sync.resumes']],
  ['stop-at-unknown-status', ['client.sync.unknown-status']],
  ['ignore-rate-limit', ['client.sync.rate-limit']],
];

describe('naive variants of the example client: feeds', () => {
  it.each(variants)('%s fails exactly %j', (mistake, fails) => expectFailures(mistake, fails), 90_000);

  it('since-paging (since = the last updatedAtUtc instead of nextCursor) fails the sync scenarios: it never leaves a stamp shared by a page of orders', async () => {
    const { report, byId } = await checkClient([NAIVE_CLIENT, 'since-paging'], { only: ['client.sync'], timeoutMs: 3000 });
    expect(notPassed(report)).toEqual(['client.sync.follows-cursor', 'client.sync.rate-limit', 'client.sync.resumes', 'client.sync.retry-after', 'client.sync.trips-follow-cursor', 'client.sync.unknown-status']);
    const messages = byId.get('client.sync.follows-cursor')?.findings.map((finding) => finding.message) ?? [];
    expect(messages.some((message) => message.includes("not read from the previous page's nextCursor"))).toBe(true);
  }, 90_000);
});
