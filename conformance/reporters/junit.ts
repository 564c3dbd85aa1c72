/**
 * `junit.xml`: one `<testsuite>` per family, one `<testcase classname="family" name="id: title">`
 * per check; fail → `<failure>`, error → `<error>`, skip → `<skipped>`, waived → `<skipped>`
 * whose message says `waived` and names the waiver (property `outcome` = `waived` too). A DECISION failure that
 * does not count (no `--strict`) is still a `<failure>`, typed `DECISION (warning)`.
 * Each testcase carries `level` and `requirements` (the ids it verifies, comma-separated: one
 * property per name, since Jenkins keeps properties in a map); each testsuite carries the run's
 * requirement coverage (`requirements.seed.covered`, …) next to target, seed and exit code, and a
 * client-check's `client`: the command it graded.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckResult, RequirementCounts, RunReport } from '../engine/types/report.ts';
import { waiverLine } from './waiver-line.ts';
import { type Child, element, type Markup, xmlDocument } from './markup.ts';
import type { Reporter, ReporterOptions } from './reporter.ts';
import { loggedRequestLine, toolName } from './logged-request.ts';
import { verdictOf } from '../engine/verdict.ts';
import { counted } from '../../cli/counted.ts';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** `children` one per line at `depth`, so the file reads and diffs well. */
function onLines(children: readonly Markup[], depth: number): Child[] {
  return [...children.flatMap((child) => [`\n${'  '.repeat(depth)}`, child]), `\n${'  '.repeat(depth - 1)}`];
}

/** The text of a failure: every finding's message, expected, received, fix and replay line. */
function failureText(result: CheckResult): string {
  return result.findings
    .map((finding, index) =>
      [
        `${index + 1}) ${finding.message}`,
        `   Expected: ${finding.expected}`,
        `   Received: ${finding.received}`,
        `   Fix:      ${finding.fix}`,
        ...(finding.exchange ? [`   Replay:   ${finding.exchange.replay}`] : []),
        ...(finding.requests ?? []).map((request) => `   Request:  ${loggedRequestLine(request)}`),
      ].join('\n'),
    )
    .join('\n\n');
}

/** `<properties>` of `values`, one `<property>` a line at `depth`. */
function propertiesOf(values: Record<string, string | number>, depth: number): Markup {
  return element('properties', {}, onLines(Object.entries(values).map(([name, value]) => element('property', { name, value })), depth));
}

/** The properties of a testcase: its level and the requirements it verifies. */
function testcaseProperties(result: CheckResult): Markup {
  return propertiesOf({ level: result.level, requirements: result.verifies.join(', '), ...(result.waiver ? { outcome: 'waived', waiver: waiverLine(result.waiver) } : {}) }, 4);
}

/** `requirements.<kind>.<count>` for the seed statements and the decisions. */
function requirementProperties(counts: RunReport['requirements']['counts']): Record<string, number> {
  const names: readonly (keyof RequirementCounts)[] = ['total', 'testable', 'covered', 'passed', 'failed'];
  return Object.fromEntries((['seed', 'decision'] as const).flatMap((kind) => names.map((name) => [`requirements.${kind}.${name}`, counts[kind][name]])));
}

function testcase(result: CheckResult): Markup {
  const outcome =
    result.outcome === 'fail'
      ? element(
          'failure',
          { message: `${counted(result.findings.length, 'finding')}: ${result.findings[0]?.message ?? ''}`, type: result.failsRun ? result.level : `${result.level} (warning)` },
          `Rule: ${result.rule}\nVerifies: ${result.verifies.join(', ')}\n\n${failureText(result)}`,
        )
      : result.outcome === 'error'
        ? element('error', { message: result.error?.message ?? 'error', type: 'SuiteError' }, result.error?.stack ?? result.error?.message ?? '')
        : result.outcome === 'skip'
          ? element('skipped', { message: result.reason ?? 'skipped' })
          : result.waiver
            ? element('skipped', { message: waiverLine(result.waiver) }, `Rule: ${result.rule}\nVerifies: ${result.verifies.join(', ')}\n\n${failureText(result)}`)
            : null;
  return element('testcase', { classname: result.family, name: `${result.id}: ${result.title}`, time: seconds(result.durationMs) }, onLines([testcaseProperties(result), ...(outcome ? [outcome] : [])], 3));
}

/** The JUnit XML of a report. */
export function junitXml(report: RunReport): string {
  const verdict = verdictOf(report);
  const families = [...new Set(report.results.map((result) => result.family))];
  const count = (results: readonly CheckResult[], outcome: CheckResult['outcome']) => results.filter((result) => result.outcome === outcome).length;
  const properties = propertiesOf(
    {
      target: report.target,
      ...(report.client === undefined ? {} : { client: report.client.command }),
      suiteVersion: report.suite.version,
      specHash: report.specHash,
      seed: report.seed,
      exitCode: verdict.exitCode,
      ...requirementProperties(report.requirements.counts),
      ...(report.counts.byOutcome.waived ? { waived: report.counts.byOutcome.waived } : {}),
      verdict: verdict.verdict,
      // What the verdict did not grade (D55): a CI reading only the properties sees why it is not a PASS.
      ...(verdict.verdict === 'INCOMPLETE' || verdict.verdict === 'PARTIAL' ? { notGraded: verdict.reasons.join(' | ') } : {}),
    },
    3,
  );
  const suites = families.map((family) => {
    const results = report.results.filter((result) => result.family === family);
    return element(
      'testsuite',
      {
        name: family,
        tests: results.length,
        failures: count(results, 'fail'),
        errors: count(results, 'error'),
        skipped: count(results, 'skip') + count(results, 'waived'),
        time: seconds(results.reduce((sum, result) => sum + result.durationMs, 0)),
        timestamp: report.startedAt,
      },
      onLines([properties, ...results.map(testcase)], 2),
    );
  });
  return xmlDocument(
    element(
      'testsuites',
      {
        name: toolName(report.suite.name),
        tests: report.results.length,
        failures: report.counts.byOutcome.fail,
        errors: report.counts.byOutcome.error,
        skipped: report.counts.byOutcome.skip + (report.counts.byOutcome.waived ?? 0),
        time: seconds(report.durationMs),
        timestamp: report.startedAt,
      },
      onLines(suites, 1),
    ),
  );
}

/** Writes `<outDir>/junit.xml`. */
export function junitReporter(options: ReporterOptions): Reporter {
  return {
    async onEnd(report: RunReport) {
      const file = join(options.outDir, 'junit.xml');
      await writeFile(file, junitXml(report));
      return file;
    },
  };
}
