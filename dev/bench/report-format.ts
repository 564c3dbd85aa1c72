/**
 * The bench's report as people read it: the console table, the tables of
 * `docs/performance.md` for each engine, the summary of both engines in the README and the
 * guide, and the JSON files under `reports/bench/` and `dev/bench/doc-runs/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchReport, type Figure, LOG_SHARE_GOAL, type Ratio, type Scenario, type ServerName } from './report.ts';

const count = (n: number) => n.toLocaleString('en-US');
/** A figure's req/s range over its rounds and that range in % of the median: `2301–2410 (4.6%)`. */
const spreadOf = (f: Figure) => (f.rounds < 2 ? 'one round' : `${f.reqPerSecRange[0].toFixed(0)}–${f.reqPerSecRange[1].toFixed(0)} (${f.spreadPct.toFixed(1)}%)`);
/** A figure's CPU µs a request over its rounds: `412–431`, or n/a without /proc. */
const cpuSpreadOf = (f: Figure) => (f.cpuUsRange === null ? 'n/a' : f.rounds < 2 ? 'one round' : `${f.cpuUsRange[0].toFixed(0)}–${f.cpuUsRange[1].toFixed(0)}`);
/** The range of per-round ratios: `0.84–0.88`. */
const rangeOf = (r: { ratioRange: [number, number] }) => (Number.isNaN(r.ratioRange[0]) ? '' : `${r.ratioRange[0].toFixed(2)}–${r.ratioRange[1].toFixed(2)}`);
const pct = (n: number | null) => (n === null ? 'n/a' : `${Math.round(n)}%`);
const micros = (n: number | null) => (n === null ? 'n/a' : n.toFixed(0));
const fixed2 = (n: number) => (Number.isNaN(n) ? 'n/a' : n.toFixed(2));
const share = (n: number) => (Number.isNaN(n) ? 'n/a' : `${(n * 100).toFixed(1)}%`);
const SCENARIO_TITLE: Record<Scenario, string> = { feedPage: 'feed page (50, random cursor)', caughtUp: 'caught-up poll (empty page)' };
const SCENARIO_LETTER: Record<Scenario, string> = { feedPage: '(a) feed page', caughtUp: '(b) caught-up poll' };
const SERVER_TITLE: Record<ServerName, string> = { sandbox: 'sandbox', baseline: 'ceiling', 'sandbox-log-off': 'sandbox, log off', mock: 'waybill mock (Prism)' };

/** The measured figures of one row: the server's CPU µs a request (with the database's), their rounds, the event loop's and the database's share; req/s, spread, p50, p99. */
function figureCells(f: Figure): string[] {
  return [count(f.orders), micros(f.cpuUs.total), cpuSpreadOf(f), micros(f.cpuUs.eventLoop), micros(f.cpuUs.database), f.reqPerSec.toFixed(0), spreadOf(f), f.p50Ms.toFixed(2), f.p99Ms.toFixed(2)];
}
const FIGURE_COLUMNS = ['orders', 'CPU µs/request', 'rounds: CPU µs', 'event loop µs', 'database µs', 'req/s', 'rounds: req/s (spread)', 'p50 ms', 'p99 ms'];
/** The console's extra columns: % of one core each process used during the run. */
const LOAD_COLUMNS = ['server CPU', 'db CPU', 'load CPU', 'other CPU'];
const loadCells = (f: Figure) => [pct(f.serverCpuPct), pct(f.databaseCpuPct), pct(f.loadCpuPct), pct(f.otherCpuPct)];

/** The figure rows, each `[scenario, server, ...figureCells, ...loadCells]`. */
function figureRows(report: BenchReport): string[][] {
  const { feedPage, caughtUp, p99Scaling, requestLog, peers } = report.results;
  const row = (scenario: Scenario, server: ServerName, f: Figure) => [SCENARIO_TITLE[scenario], SERVER_TITLE[server], ...figureCells(f), ...loadCells(f)];
  return [
    row('feedPage', 'sandbox', feedPage.sandbox),
    row('feedPage', 'baseline', feedPage.baseline),
    ...(requestLog === undefined ? [] : [row('feedPage', 'sandbox-log-off', requestLog.feedPage.off)]),
    ...(peers === undefined ? [] : [row('feedPage', 'mock', peers.feedPage.mock)]),
    row('feedPage', 'sandbox', p99Scaling.small),
    row('feedPage', 'baseline', p99Scaling.baseline.small),
    row('caughtUp', 'sandbox', caughtUp.sandbox),
    row('caughtUp', 'baseline', caughtUp.baseline),
    ...(requestLog === undefined ? [] : [row('caughtUp', 'sandbox-log-off', requestLog.caughtUp.off)]),
    ...(peers === undefined ? [] : [row('caughtUp', 'mock', peers.caughtUp.mock)]),
  ];
}

/** The rows of the targets table: what, figure, the range of the rounds' figures, goal ('' for a figure shown for reference), met. */
function targetRows(report: BenchReport): string[][] {
  const { feedPage, caughtUp, p99Scaling, requestLog, peers } = report.results;
  const met = (value: boolean | null) => (value === null ? '' : value ? 'yes' : 'NO');
  const scenarios = ['feedPage', 'caughtUp'] as const;
  const both = { feedPage, caughtUp };
  const database = report.settings.engine === 'postgres' ? ' (with the database\'s)' : '';
  return [
    ...scenarios.map((scenario) => {
      const t = both[scenario];
      return [`${SCENARIO_LETTER[scenario]}: sandbox / ceiling, CPU µs a request${database}`, fixed2(t.ratio), rangeOf(t), t.target, met(t.met)];
    }),
    [`(c) sandbox p99 page latency: ${count(p99Scaling.large.orders)} / ${count(p99Scaling.small.orders)} orders`, fixed2(p99Scaling.ratio), rangeOf(p99Scaling), p99Scaling.target, met(p99Scaling.met)],
    ["    for reference, the ceiling's p99 growth", fixed2(p99Scaling.baseline.ratio), '', '', ''],
    ...(requestLog === undefined
      ? []
      : scenarios.map((scenario) => {
          const cost = requestLog[scenario];
          const range = Number.isNaN(cost.shareRange[0]) ? '' : `${share(cost.shareRange[0])}–${share(cost.shareRange[1])}`;
          return [`request log's own CPU on ${SCENARIO_LETTER[scenario].slice(0, 3)}: share of the sandbox's a request`, share(cost.share), range, cost.target === null ? '' : `<= ${share(LOG_SHARE_GOAL[scenario])}`, met(cost.met)];
        })),
    ...(peers === undefined
      ? []
      : scenarios.flatMap((scenario) => {
          const peer = peers[scenario];
          return [
            [`${SCENARIO_LETTER[scenario]}: sandbox / waybill mock, req/s`, fixed2(peer.throughput.ratio), rangeOf(peer.throughput), peer.throughput.target, met(peer.throughput.met)],
            [`${SCENARIO_LETTER[scenario]}: sandbox / waybill mock, CPU µs a request`, fixed2(peer.cpu.ratio), rangeOf(peer.cpu), peer.cpu.target, met(peer.cpu.met)],
          ];
        })),
    // Each part of the CPU a request, and throughput, which a shared machine blurs: shown, not judged (issue 42).
    ...scenarios.flatMap((scenario) => {
      const parts = both[scenario].parts;
      if (parts === undefined) return [];
      const row = (what: string, r: Ratio) => [`    for reference, ${SCENARIO_LETTER[scenario]}: sandbox / ceiling, ${what}`, fixed2(r.ratio), rangeOf(r), '', ''];
      return [row('process CPU µs', parts.process), row('event loop µs', parts.eventLoop), ...(parts.database === null ? [] : [row('database µs', parts.database)])];
    }),
    ...scenarios.map((scenario) => [`    for reference, ${SCENARIO_LETTER[scenario]}: sandbox / ceiling, req/s`, fixed2(both[scenario].throughput.ratio), rangeOf(both[scenario].throughput), '', '']),
    ...(requestLog === undefined
      ? []
      : scenarios.map((scenario) => [`    for reference, ${SCENARIO_LETTER[scenario]}: sandbox / sandbox without its log, req/s`, fixed2(requestLog[scenario].throughput.ratio), rangeOf(requestLog[scenario].throughput), '', ''])),
  ];
}

function columns(header: string[], rows: string[][], numericFrom: number): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= numericFrom ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const FIGURE_HEADER = ['scenario', 'server', ...FIGURE_COLUMNS, ...LOAD_COLUMNS];
const TARGET_HEADER = ['target', 'figure', 'rounds', 'goal', 'met'];

/** The line that says where and how the figures were taken. */
export function machineLine(report: BenchReport): string {
  const { machine, settings } = report;
  return (
    `${report.startedAtUtc.slice(0, 10)}, ${machine.cpuModel} x${machine.cores}, ${machine.memoryGb} GB, node ${machine.node}, ${machine.database}; ` +
    `${settings.connections} connections, ${settings.durationS} s per run after ${settings.warmupS} s warm-up, median of ${settings.rounds} rounds; ` +
    `sandbox request log ${settings.requestLog ?? 'on'}; CPU from /proc per answered request` +
    (settings.code === undefined ? '' : `; servers ${settings.code === 'dist' ? 'compiled (dist/, as waybill serve runs)' : 'from the TypeScript sources (tsx)'}`)
  );
}

/** The report as the console shows it. */
export function formatTable(report: BenchReport): string {
  return [machineLine(report), '', columns(FIGURE_HEADER, figureRows(report), 2), '', columns(TARGET_HEADER, targetRows(report), 1)].join('\n');
}

/** The report as the tables of `docs/performance.md` for its engine (without the console's load columns), under its machine line. */
export function formatMarkdown(report: BenchReport): string {
  const table = (header: string[], rows: string[][]) =>
    [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const targets = targetRows(report).map(([what, figure, range, goal, met]) => [
    what!.trim(),
    figure!,
    range!,
    goal!.replace('>=', '≥').replace('<=', '≤'),
    met!.toLowerCase(),
  ]);
  // The engine in a column of its own: both engines' tables read alike.
  const engine = engineName(report);
  const figures = figureRows(report).map(([scenario, server, ...rest]) => [scenario!, engine, server!, ...rest.slice(0, FIGURE_COLUMNS.length)]);
  return [`${engine}: ${machineLine(report)} (\`reports/bench/${latestName(report)}\`).`, '', table(['scenario', 'engine', 'server', ...FIGURE_COLUMNS], figures), '', table(TARGET_HEADER, targets)].join('\n');
}

const engineName = (report: BenchReport) => (report.settings.engine === 'postgres' ? 'PostgreSQL' : 'SQLite');
const latestName = (report: BenchReport) => `latest${report.settings.engine === 'postgres' ? '-postgres' : ''}.json`;

/** The guide `--docs` writes the tables into. */
export const PERFORMANCE_DOC = 'docs/performance.md';

/** Where `--docs` keeps the run the tables of its engine come from (`latest.json`, `latest-postgres.json`), under version control. */
export const DOC_RUNS = 'dev/bench/doc-runs';

/** The markers of `docs/performance.md` around the tables of `engine`'s latest run. */
export const benchMarkers = (engine: 'sqlite' | 'postgres') => [`<!-- bench:${engine}:start -->`, `<!-- bench:${engine}:end -->`] as const;

/** `doc` with the tables between the markers of the report's engine replaced by the report's; throws when the markers are missing. */
export function withBenchTables(doc: string, report: BenchReport): string {
  const [start, end] = benchMarkers(report.settings.engine);
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${PERFORMANCE_DOC} has no ${start} … ${end} block for the tables`);
  return `${doc.slice(0, from + start.length)}\n${formatMarkdown(report)}\n${doc.slice(to)}`;
}

/** Where `--docs` writes the summary of both engines' kept runs, between `SUMMARY_MARKERS`. */
export const SUMMARY_FILES = ['README.md', PERFORMANCE_DOC] as const;
export const SUMMARY_MARKERS = ['<!-- bench:summary:start -->', '<!-- bench:summary:end -->'] as const;

/**
 * One table of both engines' kept runs (issue 42): per engine and scenario, the CPU µs a
 * request and the req/s of the sandbox, the ceiling and, when the run had `--peers`,
 * `waybill mock`, with each sandbox's ratio to the others; under the runs' machine lines.
 */
export function formatSummary(runs: readonly BenchReport[]): string {
  const rows: string[][] = [];
  for (const report of runs) {
    const { feedPage, caughtUp, peers } = report.results;
    for (const [scenario, judged] of [['feedPage', feedPage], ['caughtUp', caughtUp]] as const) {
      const sandbox = judged.sandbox;
      const others: [ServerName, Figure][] = [['baseline', judged.baseline], ...(peers === undefined ? [] : [['mock', peers[scenario].mock] as [ServerName, Figure]])];
      const cell = (f: Figure) => [micros(f.cpuUs.total), f.reqPerSec.toFixed(0)];
      rows.push([engineName(report), SCENARIO_TITLE[scenario], SERVER_TITLE.sandbox, ...cell(sandbox), '', '']);
      for (const [server, f] of others) {
        const cpu = sandbox.cpuUs.total === null || f.cpuUs.total === null ? 'n/a' : (sandbox.cpuUs.total / f.cpuUs.total).toFixed(2);
        rows.push([engineName(report), SCENARIO_TITLE[scenario], SERVER_TITLE[server], ...cell(f), cpu, (sandbox.reqPerSec / f.reqPerSec).toFixed(2)]);
      }
    }
  }
  const header = ['engine', 'scenario', 'server', 'CPU µs/request', 'req/s', 'sandbox ÷ it, CPU', 'sandbox ÷ it, req/s'];
  const table = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const lines = runs.map((report) => `${engineName(report)}: ${machineLine(report)}${report.settings.peers === true ? '; with waybill mock (--peers)' : ''}.`);
  return [table, '', ...lines.flatMap((line) => [line, ''])].join('\n').trimEnd();
}

/** `doc` with the summary between `SUMMARY_MARKERS` replaced by `summary`; throws when the markers are missing. */
export function withSummary(doc: string, summary: string, file: string): string {
  const [start, end] = SUMMARY_MARKERS;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} block for the summary`);
  return `${doc.slice(0, from + start.length)}\n${summary}\n${doc.slice(to)}`;
}

/** Writes `reports/bench/<UTC timestamp>.json` and `reports/bench/latest.json` (`-postgres` before `.json` on PostgreSQL); returns both paths. */
export function writeReport(report: BenchReport, dir = 'reports/bench'): string[] {
  mkdirSync(dir, { recursive: true });
  const stamp = report.startedAtUtc.replace(/[:.]/g, '-');
  const text = `${JSON.stringify(report, null, 2)}\n`;
  const engine = report.settings.engine === 'postgres' ? '-postgres' : '';
  const paths = [join(dir, `${stamp}${engine}.json`), join(dir, `latest${engine}.json`)];
  for (const path of paths) writeFileSync(path, text);
  return paths;
}

/** Keeps `report` as the run the tables of its engine in `docs/performance.md` come from; returns the path. */
export function writeDocRun(report: BenchReport): string {
  mkdirSync(DOC_RUNS, { recursive: true });
  const path = join(DOC_RUNS, latestName(report));
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
