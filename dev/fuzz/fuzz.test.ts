/**
 * The fuzz campaign in CI (`npm run fuzz` runs it with a random seed): 10,000 seeded generated
 * requests to every operation of both documents, over fetch and raw sockets, deep and wide
 * bodies among them, eight at a time; and a smaller sample one at a time, as `npm run fuzz`
 * runs by default. Whatever is sent, no answer is a 5xx, every error is problem+json with a
 * catalog type (or about:blank) of its status, every status is one the contract declares for
 * the operation (D60), every answer carries X-Request-Id, and no connection closes without an
 * answer unless nothing asked for one. The figures are printed; the probe's delays are printed
 * but not held to a bound here (a timed assertion on a shared machine would flake).
 */
import { describe, expect, it } from 'vitest';
import { runCampaign } from './campaign.ts';
import { figuresLine, summary } from './summary.ts';

describe('the fuzz campaign', () => {
  it('sends 10,000 seeded requests without a 5xx, a non-problem error, an undeclared status or a dropped connection', async () => {
    const result = await runCampaign({ cases: 10_000, seed: 20261124, concurrency: 8 });
    console.log(`fuzz, seed ${result.seed}: ${figuresLine(result)}; ${(result.durationMs / 1000).toFixed(1)} s; probe worst delay ${result.probe.maxDelayMs.toFixed(0)} ms`);
    const { figures } = result;
    expect(figures.requests + result.unsendable, summary(result)).toBe(10_000);
    expect({ serverErrors: figures.serverErrors, nonProblems: figures.nonProblems, undeclared: figures.undeclared, drops: figures.drops, failing: figures.failing }, summary(result)).toEqual({
      serverErrors: 0,
      nonProblems: 0,
      undeclared: 0,
      drops: 0,
      failing: 0,
    });
    expect(result.serverErrors).toEqual([]);
    expect(result.probe.failures).toEqual([]);
    expect(result.passed).toBe(true);
    // The campaign staged what it claims: both transports, the raw kinds about heads and expectations, answers of every class.
    expect(Object.keys(result.byTransport).sort()).toEqual(['fetch', 'raw']);
    expect(result.byLabel['raw expectation']).toBeGreaterThan(0);
    expect(result.byLabel['raw oversized-head']).toBeGreaterThan(0);
    expect(result.byStatus['417']).toBeGreaterThan(0);
    expect(figures.answers).toBeGreaterThanOrEqual(figures.requests - (result.byStatus['closed unanswered'] ?? 0));
  }, 300_000);

  it('runs a sample one case at a time, as npm run fuzz does, with the same rules', async () => {
    const result = await runCampaign({ cases: 300, seed: 7 });
    expect(result.failure, summary(result)).toBeUndefined();
    expect(result.figures.failing).toBe(0);
    expect(result.serverErrors).toEqual([]);
    expect(result.passed).toBe(true);
  }, 120_000);
});
