/**
 * The columns of a report's summary tables, as the console and report.html both print them: a
 * DECISION failure that does not count for the exit code (no `--strict`) is a warning, counted
 * in a `warn` column of its own rather than among the failures, so that a table of zero failures
 * and some warnings reads as what the verdict says.
 */
import type { Outcome } from '../engine/types/check.ts';
import type { CheckResult, RunReport } from '../engine/types/report.ts';

/** A summary column: an outcome, or `warn` for a failure that does not count. */
export type Column = Outcome | 'warn';

/** The column `result` is counted in. */
export function columnOf(result: Pick<CheckResult, 'outcome' | 'failsRun'>): Column {
  return result.outcome === 'fail' && !result.failsRun ? 'warn' : result.outcome;
}

/** The columns a report shows: `warn` only when some failure did not count, `waived` only when a waiver was applied. */
export function columnsOf(report: Pick<RunReport, 'results'>): Column[] {
  const seen = new Set(report.results.map(columnOf));
  return ['pass', 'fail', ...(seen.has('warn') ? (['warn'] as const) : []), 'skip', 'error', ...(seen.has('waived') ? (['waived'] as const) : [])];
}

/** How many of `results` are counted in `column`. */
export function tally(results: readonly Pick<CheckResult, 'outcome' | 'failsRun'>[], column: Column): number {
  return results.filter((result) => columnOf(result) === column).length;
}
