/**
 * A 500-case sample of the fuzz campaign (`npm run fuzz` runs 10,000 with a random seed):
 * whatever query, headers, body or bytes a client sends to any operation of either document,
 * over fetch or a raw socket, no answer is a 5xx, every error is problem+json with a catalog
 * type (or about:blank) of its status, every answer carries X-Request-Id, and no connection
 * closes without an answer unless nothing asked for one.
 */
import { describe, expect, it } from 'vitest';
import { runCampaign } from './fuzz/campaign.ts';
import { summary } from './fuzz/summary.ts';

describe('the fuzz campaign, a 500-case sample', () => {
  it('finds no failing case, no server error and no failed probe', async () => {
    const result = await runCampaign({ cases: 500, seed: 20261124 });
    expect(result.failure, summary(result)).toBeUndefined();
    expect(result.serverErrors).toEqual([]);
    expect(result.probe.failures).toEqual([]);
    expect(result.passed).toBe(true);
    expect(Object.keys(result.byTransport).sort()).toEqual(['fetch', 'raw']);
  }, 60_000);
});
