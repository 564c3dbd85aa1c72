/**
 * The loaded runs' judgement can fail: a run whose report holds a MUST failure, an error and a
 * skip is named with each of them and its findings, while a DECISION failure stays a warning
 * (shown in the table, not held against the run), as in the suite's own verdict.
 */
import { describe, expect, it } from 'vitest';
import { sampleReport } from '../testing/conformance/sample-report.ts';
import type { ConfigurationRuns } from './loaded-runs.ts';
import { type LoadedRun, problemsOf } from './run-suite.ts';
import { runsTable, wrongRuns } from './summary.ts';

/** A run that gave `report`'s verdict and problems. */
function runOf(report = sampleReport()): LoadedRun {
  return {
    exitCode: report.exitCode,
    verdict: report.verdict.verdict,
    seed: report.seed,
    checkCount: report.counts.checks,
    provisionMs: 900,
    suiteMs: 91_000,
    delayed: 2700,
    problems: problemsOf(report),
    output: '',
  };
}

describe('the summary of loaded runs', () => {
  it('names every check that did not pass, and holds all but a DECISION failure against the run', () => {
    expect(problemsOf(sampleReport()).map(({ id, outcome, counts }) => [id, outcome, counts])).toEqual([
      ['discovery.whoami.scopes', 'fail', true],
      ['feeds.limit.cap', 'fail', false],
      ['feeds.tail', 'skip', true],
      ['problems.catalog', 'error', true],
    ]);
  });

  it('shows a run that failed with its findings, and nothing for runs that passed', () => {
    const passing = sampleReport();
    passing.results = passing.results.filter((result) => result.outcome === 'pass' || result.level === 'DECISION');
    passing.exitCode = 0;
    passing.verdict = { verdict: 'PASS', reasons: [] };
    const result: ConfigurationRuns = { configuration: 'sqlite', runs: [runOf(passing), runOf()], serverErrors: [] };
    const wrong = wrongRuns(result);
    expect(wrong).toHaveLength(1);
    expect(wrong[0]).toMatch(/^sqlite run 2: exit 1, FAIL\n/);
    expect(wrong[0]).toContain('discovery.whoami.scopes (MUST fail): the ordersRead key carries scopes its name excludes / Expected: scopes without trips:read / Received: ["orders:read","trips:read"]');
    expect(wrong[0]).toContain('feeds.tail (SHOULD skip): skipped: profile has no sandbox');
    expect(wrong[0]).toContain('problems.catalog (MUST error): error: boom');
    expect(wrong[0]).not.toContain('feeds.limit.cap');
    const table = runsTable([result]).split('\n');
    expect(table[1]).toMatch(/^sqlite +1 +PASS \(exit 0\) +1234 +0\.9 s +91\.0 s +2700 +feeds\.limit\.cap \(DECISION fail\)$/);
    expect(table).toContain('feeds.limit.cap (DECISION fail): 2 of 2 runs (sqlite 2)');
    expect(table[2]).toMatch(/^sqlite +2 +FAIL \(exit 1\) .* discovery\.whoami\.scopes \(MUST fail\), feeds\.limit\.cap \(DECISION fail\), feeds\.tail \(SHOULD skip\), problems\.catalog \(MUST error\)$/);
  });
});
