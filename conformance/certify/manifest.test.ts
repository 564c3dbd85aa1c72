/** The certificate's verdict: never PASS over a check that was skipped or broke, or a seed requirement not covered. */
import { describe, expect, it } from 'vitest';
import { sampleReport } from '../../dev/testing/conformance/sample-report.ts';
import type { RunReport } from '../engine/types/report.ts';
import { certificationVerdict } from './manifest.ts';

/** The sample report with every check passing and every seed requirement passed, then `change`d. */
function report(change: (whole: RunReport) => RunReport = (same) => same): RunReport {
  const base = sampleReport();
  const whole: RunReport = {
    ...base,
    results: base.results.map((result) => ({ ...result, outcome: 'pass', failsRun: false, findings: [] })),
    counts: { ...base.counts, failing: 0 },
    requirements: { ...base.requirements, entries: base.requirements.entries.map((entry) => ({ ...entry, outcome: entry.testable ? 'pass' : entry.outcome })) },
  };
  return change(whole);
}

describe('certificationVerdict', () => {
  it('is PASS only when every check passed and every testable seed requirement was covered', () => {
    expect(certificationVerdict(report())).toEqual({ verdict: 'PASS', incomplete: [] });
  });

  it('is INCOMPLETE, naming each, when a check was skipped at run time or broke', () => {
    const [first, second] = report().results;
    const skipped = report((whole) => ({ ...whole, results: [{ ...first!, outcome: 'skip', reason: 'the feed has one page' }, { ...second!, outcome: 'error', error: { message: 'boom' } }, ...whole.results.slice(2)] }));
    expect(certificationVerdict(skipped)).toEqual({ verdict: 'INCOMPLETE', incomplete: [`${first!.id} was skipped: the feed has one page`, `${second!.id} ended in error: boom`] });
  });

  it('is INCOMPLETE when a testable seed requirement went untested, and FAIL over everything when a check failed', () => {
    const seedIndex = report().requirements.entries.findIndex((entry) => entry.level !== 'DECISION' && entry.testable);
    expect(seedIndex).toBeGreaterThanOrEqual(0);
    const untested = report((whole) => ({ ...whole, requirements: { ...whole.requirements, entries: whole.requirements.entries.map((entry, index) => (index === seedIndex ? { ...entry, outcome: 'untested' } : entry)) } }));
    expect(certificationVerdict(untested)).toEqual({ verdict: 'INCOMPLETE', incomplete: [`seed requirement ${untested.requirements.entries[seedIndex]!.id} was not covered (untested)`] });
    const failing = report((whole) => ({ ...whole, counts: { ...whole.counts, failing: 1 } }));
    expect(certificationVerdict(failing).verdict).toBe('FAIL');
  });
});
