/**
 * What `waybill replay` replays of a report, and the command that does it: the one reading of
 * "the failed checks" that the replay and the reports which print its command share (D94).
 */
import { shellLine } from '../../cli/shell-quote.ts';
import type { CheckResult, RunReport } from '../engine/types/report.ts';

/**
 * The results a replay runs again: every check or scenario that found the target (or the
 * client) breaking its rule, `fail` (a DECISION warning too) or `waived`. A skip or an error
 * graded nothing, so there is no failure to confirm fixed.
 */
export function failedResults(report: Pick<RunReport, 'results'>): CheckResult[] {
  return report.results.filter((result) => result.outcome === 'fail' || result.outcome === 'waived');
}

/** `waybill replay DIR FLAGS…` as one shell line: the command that replays the failures of the report in `dir`. */
export function replayCommand(dir: string, flags: readonly string[] = []): string {
  return shellLine(['waybill', 'replay', dir, ...flags]);
}

/** What a report's failure section says: how to replay its failures once they are fixed; null when nothing failed or no command was given. */
export function replayAdvice(report: Pick<RunReport, 'results' | 'suite'>, command: string | undefined): { text: string; command: string } | null {
  if (command === undefined || failedResults(report).length === 0) return null;
  const text = report.suite.name === 'waybill-client-check' ? 'Once fixed, replay the failed scenarios (the same client command and seed):' : 'Once fixed, replay the failed checks (the same target and seed):';
  return { text, command };
}
