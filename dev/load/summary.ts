/**
 * Loaded runs in words: a table of configuration × run × verdict × duration × checks that did
 * not pass (run.ts prints it), and the lines a test shows for each run that was not what a
 * loaded run must be (every check graded, no MUST or SHOULD check failed, exit 0).
 */
import type { ConfigurationRuns } from './loaded-runs.ts';
import type { CheckProblem, LoadedRun } from './run-suite.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** `id (LEVEL) outcome`, the short form of a problem in the table. */
const short = (problem: CheckProblem) => `${problem.id} (${problem.level} ${problem.outcome})`;

/** One row of the table for `run`, the `index`-th of `configuration`. */
function row(configuration: string, index: number, run: LoadedRun): string[] {
  return [
    configuration,
    String(index + 1),
    `${run.verdict ?? 'no report'} (exit ${run.exitCode})`,
    String(run.seed ?? '-'),
    seconds(run.provisionMs),
    seconds(run.suiteMs),
    String(run.delayed),
    run.problems.length === 0 ? '-' : run.problems.map(short).join(', '),
  ];
}

/** For each check that did not pass somewhere: in how many of all the runs, and in which configurations. */
function frequencies(results: readonly ConfigurationRuns[]): string[] {
  const runs = results.reduce((sum, result) => sum + result.runs.length, 0);
  const where = new Map<string, Map<string, number>>();
  for (const result of results) {
    for (const problem of result.runs.flatMap((run) => run.problems)) {
      const configurations = where.get(short(problem)) ?? new Map<string, number>();
      configurations.set(result.configuration, (configurations.get(result.configuration) ?? 0) + 1);
      where.set(short(problem), configurations);
    }
  }
  return [...where].map(([problem, configurations]) => {
    const total = [...configurations.values()].reduce((sum, count) => sum + count, 0);
    return `${problem}: ${total} of ${runs} runs (${[...configurations].map(([configuration, count]) => `${configuration} ${count}`).join(', ')})`;
  });
}

/** The runs as a plain-text table, one row per run; then how often each check did not pass, and each time's findings in full. */
export function runsTable(results: readonly ConfigurationRuns[]): string {
  const header = ['configuration', 'run', 'verdict', 'seed', 'provision', 'suite (under latency)', 'delayed', 'checks not passed'];
  const rows = results.flatMap((result) => result.runs.map((run, index) => row(result.configuration, index, run)));
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  const often = frequencies(results);
  const findings = results.flatMap((result) =>
    result.runs.flatMap((run, index) => run.problems.map((problem) => `${result.configuration} run ${index + 1}, ${short(problem)}:\n    ${problem.text.replaceAll('\n', '\n    ')}`)),
  );
  const errors = results.flatMap((result) => result.serverErrors.map((error) => `${result.configuration}: ${error}`));
  return [
    line(header),
    ...rows.map(line),
    ...(often.length > 0 ? ['', 'How often:', ...often] : []),
    ...(findings.length > 0 ? ['', 'Findings:', ...findings] : []),
    ...(errors.length > 0 ? ['', 'Server errors:', ...errors] : []),
  ].join('\n');
}

/**
 * What is wrong with each run of `result` that a loaded run must not show, one entry each: an
 * exit other than 0, a verdict other than PASS, and each problem that counts (run-suite.ts) with
 * its findings. Empty when every run is what it must be.
 */
export function wrongRuns(result: ConfigurationRuns): string[] {
  return result.runs.flatMap((run, index) => {
    const problems = run.problems.filter((problem) => problem.counts);
    if (run.exitCode === 0 && run.verdict === 'PASS' && problems.length === 0) return [];
    const why = problems.map((problem) => `${short(problem)}: ${problem.text}`);
    return [`${result.configuration} run ${index + 1}: exit ${run.exitCode}, ${run.verdict ?? `no report: ${run.output}`}${why.length > 0 ? `\n  ${why.join('\n  ')}` : ''}`];
  });
}
