/**
 * What counts against the target, and the exit codes as `waybill conformance --help` gives them;
 * the verdict a run's exit code follows is decided in `verdict.ts` (D55).
 */
import type { Level, Outcome } from './types/check.ts';

/** The rule as `waybill conformance --help` prints it. */
export const exitCodeHelp = [
  'Exit codes (the verdict, D55):',
  '  0  no failure that counts: no MUST or SHOULD check failed (and, with --strict, no DECISION check);',
  '     the verdict says PASS, or PARTIAL when every check of some family was skipped (the profile lacks',
  '     what they need) and names those families',
  '  1  at least one MUST or SHOULD check failed (or a DECISION check, with --strict): FAIL;',
  '     use --level must to gate on MUST rules alone; DECISION failures are warnings without --strict',
  '  2  INCOMPLETE: a check ended in error (the suite broke) while none failed, or no check was graded;',
  '     also a usage or tool error',
  'With --certify the verdict decides: 0 PASS, 1 FAIL, 2 INCOMPLETE (a check skipped or in error,',
  '  or a testable seed requirement not covered).',
].join('\n');

/** True when a result of this level and outcome makes the run fail. */
export function failsRun(level: Level, outcome: Outcome, strict: boolean): boolean {
  return outcome === 'fail' && (level !== 'DECISION' || strict);
}

/** The exit code of a certification (`--certify`) from its verdict. */
export function certificationExitCode(verdict: 'PASS' | 'FAIL' | 'INCOMPLETE'): 0 | 1 | 2 {
  return verdict === 'PASS' ? 0 : verdict === 'FAIL' ? 1 : 2;
}
