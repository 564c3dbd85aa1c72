/**
 * The one place that decides what counts against the target and the exit code of a run:
 * 0 = no counted failure; 1 = a MUST or SHOULD check failed (a DECISION check too under
 * `--strict`; otherwise its failure is a warning); 2 = a usage or tool error, including a check
 * that ended in `error` when nothing failed (the suite could not judge the target).
 */
import type { CheckResult, Level, Outcome } from './types.ts';

/** The rule as `waybill conformance --help` prints it. */
export const exitCodeHelp = [
  'Exit codes:',
  '  0  no failure that counts: no MUST or SHOULD check failed (and, with --strict, no DECISION check)',
  '  1  at least one MUST or SHOULD check failed (or a DECISION check, with --strict);',
  '     use --level must to gate on MUST rules alone; DECISION failures are warnings without --strict',
  '  2  usage or tool error, or a check ended in error (the suite broke) while none failed',
  'With --certify the verdict decides: 0 PASS, 1 FAIL, 2 INCOMPLETE (a check skipped or in error,',
  '  or a testable seed requirement not covered).',
].join('\n');

/** True when a result of this level and outcome makes the run fail. */
export function failsRun(level: Level, outcome: Outcome, strict: boolean): boolean {
  return outcome === 'fail' && (level !== 'DECISION' || strict);
}

/** The exit code of a run from its results (each already marked `failsRun`). */
export function exitCodeOf(results: readonly Pick<CheckResult, 'outcome' | 'failsRun'>[]): 0 | 1 | 2 {
  if (results.some((result) => result.failsRun)) return 1;
  if (results.some((result) => result.outcome === 'error')) return 2;
  return 0;
}

/** The exit code of a certification (`--certify`) from its verdict. */
export function certificationExitCode(verdict: 'PASS' | 'FAIL' | 'INCOMPLETE'): 0 | 1 | 2 {
  return verdict === 'PASS' ? 0 : verdict === 'FAIL' ? 1 : 2;
}
