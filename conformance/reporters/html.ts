/**
 * `report.html`: one self-contained page (inline CSS and script, a CSP that forbids every
 * request) with the run's metadata, summary counts, filters by outcome / level / family, each
 * finding with its fix sentence, exchange and replay line, every requirement of the register with the checks
 * that verified it (filters by level / outcome / text), the coverage of every catalog code, and
 * the requirement trace of /docs/requirements (what verifies and implements each requirement).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Level, Outcome } from '../engine/types/check.ts';
import type { CoverageState } from '../engine/types/contract.ts';
import type { ExchangeRecord, RecordedMessage } from '../engine/types/exchange.ts';
import type { CheckResult, ReportedFinding, RequirementCounts, RequirementOutcome, RequirementResult, RunReport } from '../engine/types/report.ts';
import { reportCss, reportScript } from './html-assets.ts';
import { certificateView, waiversView } from './html-certificate.ts';
import { metadataView } from './html-metadata.ts';
import { requirementTraceView, traceCss, wrappingId } from './html-trace.ts';
import { type Child, element, fragment, htmlDocument, type Markup, trusted } from './markup.ts';
import type { Reporter, ReporterOptions } from './reporter.ts';
import { requirementTrace, type TracedRequirement } from './requirement-trace.ts';
import { waiverLine } from './waiver-line.ts';
import { loggedRequestLine, toolName } from './logged-request.ts';
import { verdictOf, verdictText } from '../engine/verdict.ts';
import { citedIds } from '../engine/verifies.ts';
import { counted } from '../../cli/counted.ts';
import { columnsOf, tally } from './tally.ts';
import { replayAdvice } from '../replay/failed.ts';

const outcomes: readonly Outcome[] = ['pass', 'fail', 'skip', 'error'];
const levels: readonly Level[] = ['MUST', 'SHOULD', 'DECISION'];
const states: readonly CoverageState[] = ['exercised', 'expected-not-seen', 'not-reachable'];
const symbols: Record<Outcome, string> = { pass: '✓', fail: '✗', skip: '–', error: '!', waived: '~' };
const requirementOutcomes: readonly RequirementOutcome[] = ['pass', 'fail', 'error', 'skip', 'untested', 'not-testable'];
const requirementSymbols: Record<RequirementOutcome, string> = { ...symbols, untested: '○', 'not-testable': '·' };

/** The outcomes a report shows: `waived` only when a waiver was applied. */
function outcomesOf(report: RunReport): readonly Outcome[] {
  return report.counts.byOutcome.waived ? [...outcomes, 'waived'] : outcomes;
}

/** The verdict (D55) in words, and every thing it did not grade when it is not a PASS or a FAIL. */
function verdictView(report: RunReport): Markup {
  const { verdict, reasons, exitCode } = verdictOf(report);
  const listed = verdict === 'INCOMPLETE' || verdict === 'PARTIAL' ? element('ul', { class: 'verdict-reasons' }, reasons.map((reason) => element('li', {}, reason))) : null;
  return fragment(element('p', { class: `verdict exit-${exitCode}` }, `${verdictText(report)} (exit ${exitCode})`), listed);
}

/** A recorded body, pretty-printed when it is JSON. */
function bodyText(message: RecordedMessage): string {
  if (message.body === null) return '';
  if (message.bodyEncoding === 'base64') return `(${message.bodyBytes} bytes, base64)\n${message.body}`;
  let text = message.body;
  try {
    text = JSON.stringify(JSON.parse(message.body), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  return message.bodyTruncated ? `${text}\n… (${message.bodyBytes} bytes in all)` : text;
}

/** A request or response as HTTP-like text: start line, headers, blank line, body. */
function messageText(startLine: string, message: RecordedMessage): string {
  const headers = Object.entries(message.headers).map(([name, value]) => `${name}: ${value}`);
  return [startLine, ...headers, '', bodyText(message)].join('\n');
}

function exchangeView(exchange: ExchangeRecord): Markup {
  const response = exchange.response;
  return element(
    'details',
    { class: 'exchange' },
    element('summary', {}, `Exchange #${exchange.id} — ${exchange.channel}${exchange.operationId ? `, ${exchange.operationId}` : ''}, ${exchange.durationMs} ms`),
    element('pre', {}, messageText(`${exchange.request.method} ${exchange.request.url}`, exchange.request)),
    response === null ? element('p', { class: 'o-error' }, `No answer: ${exchange.error ?? ''}`) : element('pre', {}, messageText(`HTTP ${response.status}`, response)),
  );
}

/** A fix sentence, each id it cites at its end a link to that requirement's row. */
function fixView(fix: string): Child {
  const cited = citedIds(fix);
  if (cited.length === 0) return fix;
  const links = cited.map((id, index) => fragment(index > 0 ? ', ' : '', element('a', { href: `#${requirementAnchor(id)}`, class: 'id' }, id)));
  return fragment(fix.slice(0, fix.lastIndexOf('(')), '(', links, ')');
}

/** One finding: its message, Expected / Received / Fix, and its exchange and replay line or the client's requests. */
function findingView(finding: ReportedFinding, index: number): Markup {
  return element(
    'div',
    { class: 'finding' },
    element('p', {}, element('b', {}, `${index + 1}. `), finding.message),
    element(
      'dl',
      {},
      element('dt', {}, 'Expected'),
      element('dd', {}, element('pre', {}, finding.expected)),
      element('dt', {}, 'Received'),
      element('dd', {}, element('pre', {}, finding.received)),
      element('dt', {}, 'Fix'),
      element('dd', { class: 'fix' }, fixView(finding.fix)),
    ),
    finding.exchange ? fragment(exchangeView(finding.exchange), element('p', {}, 'Replay:'), element('pre', { class: 'replay' }, finding.exchange.replay)) : null,
    finding.requests ? fragment(element('p', {}, "The client's requests, from the sandbox's request log:"), element('pre', { class: 'requests' }, finding.requests.map(loggedRequestLine).join('\n'))) : null,
  );
}

/** The client's runs of a client-check scenario: how each ended, and the end of what it wrote. */
function clientRunsView(result: CheckResult): Markup | null {
  const runs = result.clientRuns ?? [];
  if (runs.length === 0) return null;
  return element(
    'div',
    { class: 'client-runs' },
    runs.map((run, index) => {
      const ended = run.timedOut ? 'killed at the time limit' : run.signal !== null ? `killed by ${run.signal}` : `exit code ${run.exitCode}`;
      return element(
        'details',
        { class: 'client-run', open: result.outcome !== 'pass' && (run.exitCode !== 0 || run.timedOut) },
        element('summary', {}, `Client run ${index + 1}: ${ended} after ${run.durationMs} ms`),
        element('p', {}, 'The end of its stderr:'),
        element('pre', {}, run.stderrTail === '' ? '(nothing)' : run.stderrTail),
        element('p', {}, 'The end of its stdout:'),
        element('pre', {}, run.stdoutTail === '' ? '(nothing)' : run.stdoutTail),
      );
    }),
  );
}

/** The fragment id of a check's article, which requirement rows link to. */
function checkAnchor(id: string): string {
  return `check-${id}`;
}

/** The fragment id of a requirement's row, which checks link to. */
function requirementAnchor(id: string): string {
  return `requirement-${id}`;
}

/** `Verifies: int.a, int.b`, each id a link to its row in the requirements table. */
function verifiesLine(result: CheckResult): Markup {
  const links = result.verifies.map((id, index) => fragment(index > 0 ? ', ' : '', element('a', { href: `#${requirementAnchor(id)}`, class: 'id' }, id)));
  return element('p', {}, element('b', {}, 'Verifies: '), links);
}

function checkView(result: CheckResult): Markup {
  const warning = result.outcome === 'fail' && !result.failsRun;
  return element(
    'article',
    { class: 'check', id: checkAnchor(result.id), 'data-check': true, 'data-outcome': result.outcome, 'data-level': result.level, 'data-family': result.family },
    element(
      'details',
      { open: result.outcome === 'fail' || result.outcome === 'error' },
      element(
        'summary',
        {},
        element('span', { class: warning ? 'o-warn' : `o-${result.outcome}` }, symbols[result.outcome], ' '),
        element('span', { class: 'id' }, result.id),
        ' ',
        element('span', { class: 'level' }, result.level),
        ` ${result.title} `,
        element('span', { class: 'muted' }, `${result.durationMs} ms${warning ? ' — warning (DECISION, not counted without --strict)' : ''}`),
      ),
      element('p', {}, element('b', {}, 'Rule: '), result.rule),
      verifiesLine(result),
      result.requires.length > 0 ? element('p', { class: 'muted' }, `Requires: ${result.requires.join(', ')}`) : null,
      result.reason ? element('p', {}, element('b', {}, 'Skipped: '), result.reason) : null,
      result.waiver ? element('p', { class: 'o-waived' }, element('b', {}, 'Waived: '), waiverLine(result.waiver)) : null,
      result.error ? fragment(element('p', { class: 'o-error' }, element('b', {}, 'Error: '), result.error.message), element('pre', {}, result.error.stack ?? '')) : null,
      clientRunsView(result),
      result.findings.map(findingView),
    ),
  );
}

function table(head: readonly Child[], rows: readonly Markup[]): Markup {
  // A table wider than a phone scrolls in its own box, never the page.
  return element('div', { class: 'table-scroll' }, element('table', {}, element('thead', {}, element('tr', {}, head.map((cell) => element('th', {}, cell)))), element('tbody', {}, rows)));
}

/** `Seed requirements: 112 testable, 3 covered, 1 passed, 1 failed`. */
function requirementCountsLine(name: string, counts: RequirementCounts): string {
  return `${name}: ${counts.testable} testable, ${counts.covered} covered, ${counts.passed} passed, ${counts.failed} failed`;
}

/** The two coverage lines, seed statements first. */
function requirementSummary(report: RunReport): Markup {
  const { seed, decision } = report.requirements.counts;
  return element('p', { class: 'requirement-summary' }, element('b', {}, requirementCountsLine('Seed requirements', seed)), element('br'), requirementCountsLine('Decisions', decision));
}

/** The command that replays the run's failures once they are fixed (`waybill replay`), when there are any. */
function replayView(report: RunReport, command: string | undefined): Markup | null {
  const advice = replayAdvice(report, command);
  return advice === null ? null : element('p', { class: 'replay' }, advice.text, ' ', element('code', {}, advice.command));
}

function summaryView(report: RunReport, replay: string | undefined): Markup {
  const families = [...new Set(report.results.map((result) => result.family))];
  const columns = columnsOf(report);
  const cell = (count: number) => element('td', { class: 'n' }, count);
  return element(
    'section',
    { id: 'summary' },
    element('h2', {}, 'Summary'),
    element('div', { class: 'cards' }, columns.map((column) => element('div', { class: `card o-${column}` }, element('b', {}, tally(report.results, column)), column))),
    element('p', {}, `${counted(report.counts.failing, 'failure')} ${report.counts.failing === 1 ? 'counts' : 'count'} for the exit code; ${counted(report.counts.warnings, 'warning')}.`),
    replayView(report, replay),
    requirementSummary(report),
    element('h3', {}, 'By level'),
    table(['level', ...columns], levels.map((level) => element('tr', {}, element('th', {}, level), columns.map((column) => cell(tally(report.results.filter((r) => r.level === level), column)))))),
    element('h3', {}, 'By family'),
    table(['family', ...columns], families.map((family) => element('tr', {}, element('th', {}, family), columns.map((column) => cell(tally(report.results.filter((r) => r.family === family), column)))))),
  );
}

/** A checkbox of a filter group, checked. */
function filterBox(filter: string, value: string): Markup {
  return element('label', {}, element('input', { type: 'checkbox', 'data-filter': filter, value, checked: true }), ` ${value}`);
}

function filtersView(report: RunReport): Markup {
  const families = [...new Set(report.results.map((result) => result.family))];
  return element(
    'div',
    { id: 'filters' },
    element('fieldset', {}, element('legend', {}, 'Outcome'), outcomesOf(report).map((outcome) => filterBox('outcome', outcome))),
    element('fieldset', {}, element('legend', {}, 'Level'), levels.map((level) => filterBox('level', level))),
    element(
      'fieldset',
      {},
      element('legend', {}, 'Family'),
      element('select', { id: 'family-filter', 'aria-label': 'Family' }, element('option', { value: '' }, 'all families'), families.map((family) => element('option', { value: family }, family))),
      ' ',
      element('span', { id: 'shown-count', class: 'muted' }),
    ),
  );
}

/** Level and outcome checkboxes and a text search over the requirements table. */
function requirementFilters(report: RunReport): Markup {
  const shown = report.counts.byOutcome.waived ? requirementOutcomes.flatMap((outcome): RequirementOutcome[] => (outcome === 'error' ? [outcome, 'waived'] : [outcome])) : requirementOutcomes;
  return element(
    'div',
    { class: 'filters' },
    element('fieldset', {}, element('legend', {}, 'Level'), levels.map((level) => filterBox('requirement-level', level))),
    element('fieldset', {}, element('legend', {}, 'Outcome'), shown.map((outcome) => filterBox('requirement-outcome', outcome))),
    element(
      'fieldset',
      {},
      element('legend', {}, 'Text'),
      element('label', { for: 'requirement-search' }, 'Search id, source, quote, reason or check '),
      element('input', { type: 'search', id: 'requirement-search', autocomplete: 'off', spellcheck: 'false' }),
      ' ',
      element('span', { id: 'requirements-shown', class: 'muted', role: 'status', 'aria-live': 'polite' }),
    ),
  );
}

/** The checks that verified a requirement, each a link to its article with its outcome. */
function verifyingChecks(entry: RequirementResult): Child {
  if (entry.checks.length === 0) return element('span', { class: 'muted' }, entry.testable ? 'none' : '—');
  return element(
    'ul',
    { class: 'checks' },
    entry.checks.map((check) =>
      element('li', {}, element('span', { class: `o-${check.outcome}`, title: check.outcome, 'aria-label': `${check.outcome}:` }, symbols[check.outcome]), element('a', { href: `#${checkAnchor(check.id)}`, class: 'id' }, wrappingId(check.id))),
    ),
  );
}

/** The fragment id of a requirement's row in the trace, which its row in the requirements table links to. */
function traceAnchor(id: string): string {
  return `trace-${id}`;
}

/** One row: id (a link to its trace when the page has one), level, source, quote (with why it cannot be tested), outcome, checks. */
function requirementRow(entry: RequirementResult, traced: boolean): Markup {
  return element(
    'tr',
    { id: requirementAnchor(entry.id), 'data-requirement': true, 'data-level': entry.level, 'data-outcome': entry.outcome },
    element('th', { scope: 'row', class: 'id' }, traced ? element('a', { href: `#${traceAnchor(entry.id)}`, title: 'what verifies and implements it' }, wrappingId(entry.id)) : wrappingId(entry.id)),
    element('td', {}, element('span', { class: 'level' }, entry.level)),
    element('td', { class: 'source' }, entry.source),
    element(
      'td',
      { class: 'quote' },
      element('q', {}, entry.quote),
      entry.via === 'control-plane' ? element('p', { class: 'muted' }, 'Reached only through a sandbox control plane.') : null,
      entry.reason ? element('p', { class: 'reason' }, element('b', {}, 'Not testable: '), entry.reason) : null,
    ),
    element('td', { class: `outcome o-${entry.outcome}` }, requirementSymbols[entry.outcome], ' ', entry.outcome),
    element('td', { class: 'checks' }, verifyingChecks(entry)),
  );
}

/** Every requirement of the register, seed statements first, in one filterable table. */
function requirementsTable(entries: readonly RequirementResult[], traced: boolean): Markup {
  const columns = [
    ['id', 'id'],
    ['level', 'level'],
    ['source', 'source'],
    ['quote', 'requirement'],
    ['outcome', 'outcome'],
    ['checks', 'checks'],
  ] as const;
  return element(
    'table',
    { class: 'requirements' },
    element('caption', { class: 'visually-hidden' }, 'Requirements of the register and the checks that verified them'),
    element('colgroup', {}, columns.map(([name]) => element('col', { class: `c-${name}` }))),
    element('thead', {}, element('tr', {}, columns.map(([, heading]) => element('th', { scope: 'col' }, heading)))),
    element('tbody', {}, entries.map((entry) => requirementRow(entry, traced))),
  );
}

/** The requirements section: coverage lines, filters and the table. */
function requirementsView(report: RunReport, traced: boolean): Markup {
  const { entries } = report.requirements;
  return element(
    'section',
    { id: 'requirements', 'aria-labelledby': 'requirements-heading' },
    element('h2', { id: 'requirements-heading' }, `Requirements (${entries.length})`),
    requirementSummary(report),
    element('p', { class: 'muted' }, 'Statements of 01-integration-api.md and 02-error-catalog.md (MUST, SHOULD), then the decisions of spec/DECISIONS.md. Covered: a check ran against it (pass, fail or error).'),
    requirementFilters(report),
    requirementsTable(entries, traced),
  );
}

function coverageView(report: RunReport): Markup {
  const { codes, counts } = report.coverage;
  return element(
    'section',
    { id: 'coverage' },
    element('h2', {}, `Catalog coverage (${counted(codes.length, 'code')})`),
    element('p', {}, `${counts.exercised} exercised, ${counts['expected-not-seen']} expected but not seen, ${counts['not-reachable']} not reachable through the tested interface.`),
    element('fieldset', {}, element('legend', {}, 'State'), states.map((state) => filterBox('state', state))),
    table(
      ['code', 'status', 'group', 'reach', 'state', 'seen', 'mismatched'],
      codes.map((entry) =>
        element('tr', { 'data-state': entry.state }, element('td', { class: 'id' }, entry.code), element('td', { class: 'n' }, entry.status), element('td', {}, entry.group), element('td', {}, entry.reach), element('td', {}, entry.state), element('td', { class: 'n' }, entry.seen), element('td', { class: 'n' }, entry.mismatched)),
      ),
    ),
  );
}

/** The trace section: the table of /docs/requirements, its checks linked to their articles when they ran. */
function traceView(report: RunReport, trace: readonly TracedRequirement[]): Markup {
  const ran = new Set(report.results.map((result) => result.id));
  return requirementTraceView(trace, { rowPrefix: 'trace-', heading: 'h2', checkHref: (id) => (ran.has(id) ? `#${checkAnchor(id)}` : null) });
}

/** The whole page for `report`, with the requirement trace when one is given, and the command that replays its failures. */
export function reportHtml(report: RunReport, trace?: readonly TracedRequirement[], replay?: string): string {
  const policy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";
  return htmlDocument(
    element(
      'html',
      { lang: 'en' },
      element(
        'head',
        {},
        element('meta', { charset: 'utf-8' }),
        element('meta', { 'http-equiv': 'Content-Security-Policy', content: policy }),
        element('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
        element('link', { rel: 'icon', href: 'data:,' }),
        element('title', {}, `${toolName(report.suite.name)} — ${report.target}`),
        element('style', {}, trusted(reportCss), trace ? trusted(traceCss) : null),
      ),
      element(
        'body',
        {},
        report.certificate ? certificateView(report.certificate) : null,
        element('header', {}, element('h1', {}, `${toolName(report.suite.name)} report`), verdictView(report), metadataView(report)),
        summaryView(report, replay),
        report.waivers ? waiversView(report.waivers) : null,
        element('section', { id: 'checks' }, element('h2', {}, `${report.suite.name === 'waybill-client-check' ? 'Scenarios' : 'Checks'} (${report.results.length})`), filtersView(report), report.results.map(checkView)),
        requirementsView(report, trace !== undefined),
        report.suite.name === 'waybill-client-check' ? null : coverageView(report),
        trace ? traceView(report, trace) : null,
        element('script', {}, trusted(reportScript)),
      ),
    ),
  );
}

/** Writes `<outDir>/report.html`, with the requirement trace of this waybill. */
export function htmlReporter(options: ReporterOptions): Reporter {
  return {
    async onEnd(report) {
      const file = join(options.outDir, 'report.html');
      await writeFile(file, reportHtml(report, requirementTrace(), options.replay));
      return file;
    },
  };
}
