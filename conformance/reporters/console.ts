/**
 * The console: a line per check as it finishes (`✓ ✗ – !`, id, duration), then a table of
 * families × outcomes, the catalog coverage, one line of requirement coverage, and each failure
 * with Expected / Received / Fix and its replay line, then the command that replays the failed checks
 * (`waybill replay`). Colour only on a TTY and never when NO_COLOR is set.
 */
import type { Outcome } from '../engine/types/check.ts';
import type { CheckResult, ReportedFinding, RequirementCounts, RunReport, RunStart, VerdictWord } from '../engine/types/report.ts';
import { verdictOf, verdictText } from '../engine/verdict.ts';
import { waiverLine } from './waiver-line.ts';
import type { Reporter, ReporterOptions } from './reporter.ts';
import { loggedRequestLine, toolName } from './logged-request.ts';
import { counted, seconds } from '../../cli/counted.ts';
import { signalExitCode } from '../../cli/interrupt.ts';
import { columnsOf, tally } from './tally.ts';
import { replayAdvice } from '../replay/failed.ts';

const symbols: Record<Outcome, string> = { pass: '✓', fail: '✗', skip: '–', error: '!', waived: '~' };
const colours = { green: 32, red: 31, yellow: 33, magenta: 35, dim: 2, bold: 1 } as const;
type Colour = keyof typeof colours;
const outcomeColour: Record<Outcome, Colour> = { pass: 'green', fail: 'red', skip: 'dim', error: 'magenta', waived: 'yellow' };

/** Findings printed per check; the files hold them all. */
const findingsShown = 10;

/** `3/112 covered, 1 passed, 1 failed`: testable requirements a check ran against, and how they ended. */
function coverageOf(counts: RequirementCounts): string {
  return `${counts.covered}/${counts.testable} covered, ${counts.passed} passed, ${counts.failed} failed`;
}

/** The one line of requirement coverage: seed statements, then decisions. */
export function requirementsLine(counts: RunReport['requirements']['counts']): string {
  return `  requirements: seed ${coverageOf(counts.seed)} · decisions ${coverageOf(counts.decision)}`;
}

/** Whether to colour: a TTY, and NO_COLOR absent or empty (no-color.org). */
export function useColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && (env['NO_COLOR'] === undefined || env['NO_COLOR'] === '');
}

const verdictColour: Record<VerdictWord, Colour> = { PASS: 'green', FAIL: 'red', INCOMPLETE: 'magenta', PARTIAL: 'yellow' };

/**
 * The run's one-line verdict (D55): PASS, PARTIAL, FAIL or INCOMPLETE with what was not graded,
 * the exit code, how long it took and the exchange count. `wholeRunMs`, when the caller knows it,
 * is the command's whole time (provisioning and reading the pools included), and the checks'
 * own time is given beside it; without it the line says only what the checks took.
 */
export function verdictLine(report: RunReport, colour: boolean, wholeRunMs?: number): string {
  const paint = (name: Colour, text: string) => (colour ? `\u001b[${colours[name]}m${text}\u001b[0m` : text);
  const { verdict, exitCode } = verdictOf(report);
  const waived = report.counts.byOutcome.waived ? `, ${report.counts.byOutcome.waived} waived` : '';
  const things = report.suite.name === 'waybill-client-check' ? 'scenarios' : 'checks';
  const took = wholeRunMs === undefined ? `${things} took ${seconds(report.durationMs)}` : `${seconds(wholeRunMs)} in all, the ${things} ${seconds(report.durationMs)}`;
  const exit = report.interrupted === undefined ? `exit ${exitCode}` : `exit ${signalExitCode(report.interrupted.signal)}, interrupted`;
  return `${paint(verdictColour[verdict], verdictText(report))} (${exit}, ${took}, ${counted(report.exchangeCount, 'exchange')}${waived})`;
}

/** One finding as the console prints it, numbered from `index` + 1: message, Expected, Received, Fix, and its replay line or the client's requests. */
export function findingLines(finding: ReportedFinding, index: number): string[] {
  return [
    `  ${index + 1}) ${finding.message}`,
    `     Expected: ${finding.expected}`,
    `     Received: ${finding.received}`,
    `     Fix:      ${finding.fix}`,
    ...(finding.exchange ? [`     Replay:   ${finding.exchange.replay}`] : []),
    ...(finding.requests ?? []).map((request) => `     Request:  ${loggedRequestLine(request)}`),
  ];
}

/** Prints the run as it goes and a summary at the end. */
export function consoleReporter(options: ReporterOptions): Reporter {
  const stream = options.stream ?? process.stdout;
  const colour = useColour(stream, options.env ?? process.env);
  const paint = (name: Colour, text: string) => (colour ? `\u001b[${colours[name]}m${text}\u001b[0m` : text);
  const write = (line = '') => stream.write(`${line}\n`);
  const mark = (result: CheckResult) => paint(result.outcome === 'fail' && !result.failsRun ? 'yellow' : outcomeColour[result.outcome], symbols[result.outcome]);

  const progressLine = (result: CheckResult) => {
    const tail =
      result.outcome === 'fail'
        ? ` — ${counted(result.findings.length, 'finding')}${result.failsRun ? '' : ' (warning: DECISION, not counted without --strict)'}`
        : result.outcome === 'skip'
          ? ` — ${result.reason ?? ''}`
          : result.outcome === 'error'
            ? ` — ${result.error?.message ?? ''}`
            : result.waiver
              ? ` — ${counted(result.findings.length, 'finding')}, ${waiverLine(result.waiver)}`
              : '';
    return `  ${mark(result)} ${result.id} ${paint('dim', `(${result.durationMs} ms)`)}${tail}`;
  };

  const summaryTable = (report: RunReport) => {
    const columns = columnsOf(report);
    const families = [...new Set(report.results.map((result) => result.family))];
    const rows = [...families.map((family) => [family, ...columns.map((column) => tally(report.results.filter((r) => r.family === family), column))]), ['total', ...columns.map((column) => tally(report.results, column))]];
    const width = Math.max(6, ...rows.map((row) => String(row[0]).length));
    write(`  ${'family'.padEnd(width)}  ${columns.map((column) => column.padStart(5)).join('  ')}`);
    for (const [name, ...counts] of rows) write(`  ${String(name).padEnd(width)}  ${counts.map((count) => String(count).padStart(5)).join('  ')}`);
  };

  /** The client's runs of a scenario: how each ended, and the last lines it wrote (client-check). */
  const clientRuns = (result: CheckResult) => {
    for (const [index, run] of (result.clientRuns ?? []).entries()) {
      const ended = run.timedOut ? 'killed at the time limit' : run.signal !== null ? `killed by ${run.signal}` : `exit code ${run.exitCode}`;
      write(`  Client run ${index + 1}: ${ended} after ${run.durationMs} ms`);
      for (const [stream, tail] of [['stderr', run.stderrTail], ['stdout', run.stdoutTail]] as const) {
        const lines = tail.trimEnd().split('\n').filter((line) => line !== '').slice(-5);
        for (const line of lines) write(`     ${stream}: ${line}`);
      }
    }
  };

  const details = (result: CheckResult) => {
    write();
    write(`${mark(result)} ${paint('bold', result.id)} [${result.level}] ${result.title}`);
    write(`  Rule: ${result.rule}`);
    clientRuns(result);
    if (result.outcome === 'error') {
      write(`  Error: ${result.error?.stack ?? result.error?.message ?? ''}`);
      return;
    }
    for (const [index, finding] of result.findings.slice(0, findingsShown).entries()) for (const line of findingLines(finding, index)) write(line);
    if (result.findings.length > findingsShown) write(`  … and ${counted(result.findings.length - findingsShown, 'more finding')} in report.json / report.html`);
  };

  return {
    onStart(start: RunStart) {
      write(`${toolName(start.suite)} ${start.suiteVersion} → ${start.target}  (${counted(start.checkCount, start.suite === 'waybill-client-check' ? 'scenario' : 'check')}, seed ${start.seed}, spec ${start.specHash.slice(0, 12)})`);
      if (start.client !== undefined) write(`  client: ${start.client.command}`);
    },
    onResult(result) {
      write(progressLine(result));
    },
    onWait(wait) {
      write(`  … ${wait.checkId} waits ${(wait.ms / 1000).toFixed(1)} s: ${wait.why}`);
    },
    async onEnd(report) {
      write();
      summaryTable(report);
      const { counts } = report.coverage;
      write();
      // A client-check answers no catalog code of its own: the target it grades is the client.
      if (report.suite.name !== 'waybill-client-check') write(`  catalog coverage (${counted(report.coverage.codes.length, 'code')}): ${counts.exercised} exercised, ${counts['expected-not-seen']} expected but not seen, ${counts['not-reachable']} not reachable`);
      write(requirementsLine(report.requirements.counts));
      for (const { waiver, status, note } of report.waivers ?? []) write(`  waiver ${status}: ${waiver.check} — ${note}`);
      for (const result of report.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error')) details(result);
      const replay = replayAdvice(report, options.replay);
      if (replay !== null) {
        write();
        write(replay.text);
        write(`  ${replay.command}`);
      }
      write();
      if (options.verdict !== false) write(verdictLine(report, colour));
    },
  };
}
