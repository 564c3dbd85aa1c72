/**
 * The verdict of a run (D55), the one place every reporter and the exit code take it from: a
 * verdict never says PASS over what the run did not grade.
 * - FAIL (exit 1): a failure counts.
 * - INCOMPLETE (exit 2): the run was interrupted (Ctrl-C), whatever it found before; a check ended in error; a client-check scenario was skipped or ended in
 *   error (a client is graded on every scenario it was given); a run graded nothing at all.
 * - PARTIAL (exit 0, conformance only): no failure and no error, but every check of some family
 *   was skipped (the profile lacked what they need), so the line names the families instead of PASS.
 * - PASS (exit 0): otherwise.
 * Outside `--certify` a skip of the conformance suite leaves the exit code as it is (a profile may
 * leave out what its target does not offer); a certification's verdict is the certificate's (D49).
 */
import { counted } from '../../cli/counted.ts';
import type { CheckResult, RunReport, SuiteName, VerdictWord } from './types/report.ts';

/** The verdict, why (each thing not graded, by check id and reason), and the exit code it gives. */
export interface RunVerdict {
  verdict: VerdictWord;
  reasons: string[];
  exitCode: 0 | 1 | 2;
}

/** Why `result` was not graded, in a line that names it. */
function notGraded(result: Pick<CheckResult, 'id' | 'outcome' | 'reason' | 'error'>): string {
  return result.outcome === 'skip' ? `${result.id} was skipped: ${result.reason ?? 'no reason given'}` : `${result.id} ended in error: ${result.error?.message ?? 'no message'}`;
}

/** The verdict of a run of `suite` with `results` (each already marked `failsRun`). */
export function runVerdict(suite: SuiteName, results: readonly Pick<CheckResult, 'id' | 'family' | 'outcome' | 'failsRun' | 'reason' | 'error'>[], interruptedBy?: string): RunVerdict {
  if (interruptedBy !== undefined) {
    // A run cut short grades nothing as a whole: what it found so far is in the results, and failures come first among the reasons.
    const ran = results.filter((result) => !(result.outcome === 'skip' && /^not (run|finished): the run was interrupted/.test(result.reason ?? ''))).length;
    const failed = results.filter((result) => result.failsRun).map((result) => `${result.id} failed`);
    return { verdict: 'INCOMPLETE', reasons: [`the run was interrupted (${interruptedBy}) after ${ran} of ${counted(results.length, suite === 'waybill-client-check' ? 'scenario' : 'check')}`, ...failed], exitCode: 2 };
  }
  const failing = results.filter((result) => result.failsRun);
  if (failing.length > 0) return { verdict: 'FAIL', reasons: failing.map((result) => `${result.id} failed`), exitCode: 1 };
  const errored = results.filter((result) => result.outcome === 'error');
  const skipped = results.filter((result) => result.outcome === 'skip');
  if (suite === 'waybill-client-check' && errored.length + skipped.length > 0) return { verdict: 'INCOMPLETE', reasons: [...errored, ...skipped].map(notGraded), exitCode: 2 };
  if (errored.length > 0) return { verdict: 'INCOMPLETE', reasons: errored.map(notGraded), exitCode: 2 };
  if (results.length > 0 && skipped.length === results.length) return { verdict: 'INCOMPLETE', reasons: skipped.map(notGraded), exitCode: 2 };
  const families = [...new Set(results.map((result) => result.family))];
  const ungraded = families.filter((family) => results.every((result) => result.family !== family || result.outcome === 'skip'));
  if (ungraded.length > 0) {
    return { verdict: 'PARTIAL', reasons: ungraded.map((family) => `nothing of ${family} was graded: ${notGraded(skipped.find((result) => result.family === family) as CheckResult)}`), exitCode: 0 };
  }
  return { verdict: 'PASS', reasons: [], exitCode: 0 };
}

/** A report's verdict: its certificate's under `--certify` (D49), else the run's. */
export function verdictOf(report: RunReport): RunVerdict {
  if (report.certificate !== undefined) {
    const { verdict, incomplete } = report.certificate;
    return { verdict, reasons: incomplete, exitCode: verdict === 'PASS' ? 0 : verdict === 'FAIL' ? 1 : 2 };
  }
  return { ...report.verdict, exitCode: report.exitCode };
}

/** The verdict in words, as the console's last line and the HTML report's header say it (no exit code, no timing). */
export function verdictText(report: RunReport): string {
  const { verdict, reasons } = verdictOf(report);
  const things = (count: number) => counted(count, report.suite.name === 'waybill-client-check' ? 'scenario' : 'check');
  const graded = report.results.filter((result) => result.outcome !== 'skip' && result.outcome !== 'error').length;
  const skipped = report.counts.byOutcome.skip;
  const listed = (lines: readonly string[]) => `${lines.slice(0, 3).join('; ')}${lines.length > 3 ? `; … and ${lines.length - 3} more` : ''}`;
  switch (verdict) {
    case 'PASS':
      return `PASS — no failure that counts${report.counts.warnings > 0 ? ` (${counted(report.counts.warnings, 'DECISION warning')})` : ''}${skipped > 0 ? `; ${things(skipped)} skipped` : ''}`;
    case 'FAIL':
      return `FAIL — ${things(report.counts.failing || reasons.length)} failed`;
    case 'PARTIAL':
      return `PARTIAL — no failure among the ${graded} graded, but ${listed(reasons)}`;
    case 'INCOMPLETE':
      return `INCOMPLETE — ${report.certificate === undefined ? `${things(report.results.length - graded)} not graded: ` : ''}${listed(reasons)}`;
  }
}
