/**
 * Teeth: each naive variant of the example client fails exactly the scenarios of its mistake
 * and passes the others; each failure shows the client's requests from the log.
 */
import { describe, expect, it } from 'vitest';
import { checkClient, NAIVE_CLIENT, notPassed } from './testing.ts';

const variants: [mistake: string, fails: string[]][] = [
  ['new-key-per-retry', ['client.pay.answer-lost']],
  ['no-backoff', ['client.pay.retry-after']],
  ['full-read', ['client.sync.resumes']],
  ['stop-at-unknown-status', ['client.sync.unknown-status']],
  ['retry-client-errors', ['client.no-retry.400', 'client.no-retry.404', 'client.no-retry.409']],
];

describe('naive variants of the example client', () => {
  it.each(variants)('%s fails exactly %j', async (mistake, fails) => {
    const { report, byId } = await checkClient([NAIVE_CLIENT, mistake]);
    expect(notPassed(report)).toEqual(fails);
    for (const id of fails) {
      const findings = byId.get(id)?.findings ?? [];
      expect(findings.length).toBeGreaterThan(0);
      expect(findings.some((finding) => (finding.requests ?? []).length > 0)).toBe(true);
    }
    expect(report.exitCode).toBe(1);
  }, 90_000);

  it('since-paging (since = the last updatedAtUtc instead of nextCursor) fails the sync scenarios: it never leaves a stamp shared by a page of orders', async () => {
    const { report, byId } = await checkClient([NAIVE_CLIENT, 'since-paging'], { only: ['client.sync'], timeoutMs: 3000 });
    expect(notPassed(report)).toEqual(['client.sync.follows-cursor', 'client.sync.resumes', 'client.sync.unknown-status']);
    const messages = byId.get('client.sync.follows-cursor')?.findings.map((finding) => finding.message) ?? [];
    expect(messages.some((message) => message.includes("not read from the previous page's nextCursor"))).toBe(true);
  }, 90_000);
});
