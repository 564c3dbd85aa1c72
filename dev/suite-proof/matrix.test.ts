/**
 * The suite-proof matrix as a whole: the reference passes everything (also with its rateLimited key
 * used just before the run, as a profile run again is), every testable MUST and SHOULD
 * requirement has a broken variant that a check meant for it catches, and there are at least
 * twelve seed-valid alternatives. The variants themselves run in broken-*.test.ts and
 * alternatives-*.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checks } from '../../conformance/checks/index.ts';
import { integrationRequirements } from '../../conformance/contract/contract.ts';
import { resolveChecks } from '../../conformance/engine/verifies.ts';
import { alternativeVariants } from './alternatives.ts';
import { brokenVariants } from './broken.ts';
import { errored, failed, runAgainst, skipped } from './harness.ts';

const resolved = new Map(resolveChecks(checks, integrationRequirements).map((check) => [check.id, check]));
const requirements = [...integrationRequirements.values()];

describe('the reference, provisioned as --provision does', () => {
  it('passes every check, skips none, even under --strict', async () => {
    const report = await runAgainst({}, { strict: true });
    expect(errored(report)).toEqual([]);
    expect(failed(report)).toEqual([]);
    expect(skipped(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
  }, 60_000);
});

describe('the reference whose rateLimited key an earlier run used just before', () => {
  // A profile saved and run again: the key's bucket is not whole when ratelimit.exceeded begins.
  it('passes every check: ratelimit.exceeded waits for a whole quota rather than fail at MUST', async () => {
    const report = await runAgainst({
      proxy: (profile) => {
        let used = false;
        return {
          // The first request with the key is answered after another client's request with it: one token spent behind the suite's back.
          answer: async (answer, request, resend) => {
            if (used || request.headers['x-api-key'] !== profile.keys.rateLimited?.key) return answer;
            used = true;
            return resend();
          },
        };
      },
    }, { strict: true });
    expect(errored(report)).toEqual([]);
    expect(failed(report)).toEqual([]);
    expect(skipped(report)).toEqual([]);
    expect(report.results.find((result) => result.id === 'ratelimit.exceeded')).toMatchObject({ outcome: 'pass', exchangeCount: 1 + 1 + 5 + 1 + 1 });
  }, 90_000);
});

describe('the matrix', () => {
  it('breaks every testable MUST and SHOULD requirement in at least one variant', () => {
    const broken = new Set(Object.values(brokenVariants).flatMap((variant) => variant.breaks));
    const unbroken = requirements.filter((requirement) => requirement.level !== 'DECISION' && requirement.testable && !broken.has(requirement.id)).map((requirement) => requirement.id);
    expect(unbroken).toEqual([]);
  });

  it('names only testable seed requirements as broken, and only checks of the registry as failing', () => {
    for (const [name, variant] of Object.entries(brokenVariants)) {
      for (const id of variant.breaks) expect(integrationRequirements.get(id), `${name}: ${id}`).toMatchObject({ testable: true, level: expect.stringMatching(/^(MUST|SHOULD)$/) });
      expect(variant.fails.length, `${name} fails no check`).toBeGreaterThan(0);
      for (const id of [...variant.fails, ...Object.keys(variant.alsoFails ?? {}), ...Object.keys(variant.mayFail ?? {})]) expect(resolved.has(id), `${name}: ${id}`).toBe(true);
    }
  });

  it('has at least 12 seed-valid alternatives, each deciding decisions and failing only DECISION checks', () => {
    expect(Object.keys(alternativeVariants).length).toBeGreaterThanOrEqual(12);
    for (const [name, variant] of Object.entries(alternativeVariants)) {
      for (const id of variant.decides) expect(integrationRequirements.get(id)?.level, `${name}: ${id}`).toBe('DECISION');
      expect(variant.failsStrict.length, `${name} fails no check under --strict`).toBeGreaterThan(0);
      for (const id of [...variant.failsStrict, ...Object.keys(variant.mayFailStrict ?? {})]) expect(resolved.get(id)?.level, `${name}: ${id}`).toBe('DECISION');
    }
  });
});
