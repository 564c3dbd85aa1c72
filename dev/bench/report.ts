/**
 * The benchmark's report: every run, the figures the targets are judged on (per server,
 * scenario and size the median of its rounds, with their spread), the console table, the
 * tables of `docs/performance.md`, and the JSON files under `reports/bench/`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadSettings, RunFigures } from './load.ts';
import type { ServedCode } from './served.ts';

/** The servers measured: the sandbox as served, the ceiling, and the sandbox without its request log (issue 25's second target: what the log costs). */
export type ServerName = 'sandbox' | 'baseline' | 'sandbox-log-off';
export type Scenario = 'feedPage' | 'caughtUp';

/** One measured run. */
export interface RunRecord {
  server: ServerName;
  scenario: Scenario;
  orders: number;
  round: number;
  figures: RunFigures;
}

/**
 * The figures a target compares: of one server, scenario and size, the median of its rounds
 * (each figure's own median), and how far the rounds' req/s spread.
 */
export interface Figure {
  orders: number;
  /** How many rounds the medians are of (the undisturbed ones when there are any). */
  rounds: number;
  reqPerSec: number;
  /** The lowest and highest req/s of those rounds, and their difference in % of the median. */
  reqPerSecRange: [number, number];
  spreadPct: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuPct: number | null;
  /** PostgreSQL's processes; null on SQLite (inside the server). */
  databaseCpuPct: number | null;
  loadCpuPct: number;
  otherCpuPct: number | null;
}

/** A comparison against its target: the ratio of the medians, and the lowest and highest ratio of one round's pair. */
export interface Target {
  ratio: number;
  ratioRange: [number, number];
  target: string;
  met: boolean;
}

/** The request log's cost in one scenario: the sandbox's req/s with the log (`on`) over its req/s without (`off`). */
export type RequestLogCost = { on: Figure; off: Figure } & Target;

/** Everything one `npm run bench` found; written as JSON. */
export interface BenchReport {
  startedAtUtc: string;
  finishedAtUtc: string;
  /** `database` is the engine and its version: `SQLite 3.53.2`, `PostgreSQL 15.14`. */
  machine: { cpuModel: string; cores: number; memoryGb: number; platform: string; node: string; database: string };
  settings: LoadSettings & { rounds: number; requestLog: 'on' | 'off'; /** Where the servers' code came from (runs before it was recorded ran the sources). */ code?: ServedCode; engine: 'sqlite' | 'postgres'; pageLimit: number; cursorsPerDatabase: number; keysRotated: number; sizes: { small: number; large: number } };
  /** `buildSeconds` is null for a database reused from an earlier run. */
  databases: { orders: number; liveOrders: number; file: string; megabytes: number; built: boolean; buildSeconds: number | null }[];
  runs: RunRecord[];
  results: {
    feedPage: { sandbox: Figure; baseline: Figure } & Target;
    caughtUp: { sandbox: Figure; baseline: Figure } & Target;
    p99Scaling: { small: Figure; large: Figure } & Target & {
      /** The same growth for the ceiling: how much of it the SQL itself brings. */
      baseline: { small: Figure; large: Figure; ratio: number };
    };
    /**
     * What the request log costs on (a) and (b): the sandbox as served against the same sandbox
     * without its log, measured in the same rounds. Absent from a run with `--request-log off`
     * (nothing to compare) and from runs made before it was measured.
     */
    requestLog?: { feedPage: RequestLogCost; caughtUp: RequestLogCost };
  };
  /** Anything that makes the figures invalid (non-2xx answers, errors); empty when clean. */
  problems: string[];
  /** Judged figures that come from a run disturbed by other work on the machine. */
  notes: string[];
}

/**
 * The goals (issue 25, with the request log on as served): a feed page at 0.85 of the
 * ceiling; a caught-up poll, what every poller sends most, at 0.8; p99 growing at most 1.2x
 * from 10,000 to 1,000,000 orders.
 */
const TARGET_RATIO: Record<Scenario, number> = { feedPage: 0.85, caughtUp: 0.8 };
const TARGET_P99_GROWTH = 1.2;
/** The request log may cost at most 5 % of the sandbox's throughput on (a) and (b) (issue 25). */
const TARGET_LOG_RATIO = 0.95;

/** Other work on the machine above this (% of one core) marks a run as disturbed. */
export const DISTURBED_OTHER_CPU_PCT = 25;
/** Whether other work on the machine left the run undisturbed. */
export const isQuiet = (run: RunRecord) => (run.figures.otherCpuPct ?? 0) <= DISTURBED_OTHER_CPU_PCT;

/** The runs of `server` in `scenario` at `orders` that count: the undisturbed ones if there are any, else all. */
function counted(runs: readonly RunRecord[], server: ServerName, scenario: Scenario, orders: number): RunRecord[] {
  const matching = runs.filter((run) => run.server === server && run.scenario === scenario && run.orders === orders);
  return matching.some(isQuiet) ? matching.filter(isQuiet) : matching;
}

/** The median of `values` (the mean of the middle two of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The median of each figure over the rounds that count of `server` in `scenario` at `orders`, and the spread of their req/s. */
export function medianFigure(runs: readonly RunRecord[], server: ServerName, scenario: Scenario, orders: number): Figure {
  const rounds = counted(runs, server, scenario, orders);
  if (rounds.length === 0) throw new Error(`no run of ${server} ${scenario} at ${orders} orders`);
  const of = (pick: (figures: RunFigures) => number | null) => {
    const values = rounds.map((run) => pick(run.figures)).filter((value): value is number => value !== null);
    return values.length === 0 ? null : Math.round(median(values) * 100) / 100;
  };
  const rates = rounds.map((run) => run.figures.reqPerSec);
  const reqPerSec = median(rates);
  const range: [number, number] = [Math.min(...rates), Math.max(...rates)];
  return {
    orders,
    rounds: rounds.length,
    reqPerSec,
    reqPerSecRange: range,
    spreadPct: Math.round(((range[1] - range[0]) / reqPerSec) * 1000) / 10,
    p50Ms: of((f) => f.latencyMs.p50)!,
    p99Ms: of((f) => f.latencyMs.p99)!,
    serverCpuPct: of((f) => f.serverCpuPct),
    databaseCpuPct: of((f) => f.databaseCpuPct ?? null),
    loadCpuPct: of((f) => f.loadCpuPct)!,
    otherCpuPct: of((f) => f.otherCpuPct),
  };
}

const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;

/** The lowest and highest of the per-round ratios of `top` to `bottom` (rounds paired by number, among those both count). */
function roundRatios(top: RunRecord[], bottom: RunRecord[], figure: (run: RunRecord) => number): [number, number] {
  const ratios = top.flatMap((a) => {
    const b = bottom.find((run) => run.round === a.round);
    return b === undefined ? [] : [ratio(figure(a), figure(b))];
  });
  return ratios.length === 0 ? [NaN, NaN] : [Math.min(...ratios), Math.max(...ratios)];
}

/** The figures the three targets are judged on: ratios of medians, each with the range of its rounds' ratios. */
export function judge(runs: readonly RunRecord[], sizes: { small: number; large: number }): BenchReport['results'] {
  /** `top`'s req/s over `bottom`'s in `scenario` at the large size, against `goal`: their figures, and the target. */
  const versus = (top: ServerName, bottom: ServerName, scenario: Scenario, goal: number): { top: Figure; bottom: Figure } & Target => {
    const [a, b] = [medianFigure(runs, top, scenario, sizes.large), medianFigure(runs, bottom, scenario, sizes.large)];
    const r = ratio(a.reqPerSec, b.reqPerSec);
    const ratioRange = roundRatios(counted(runs, top, scenario, sizes.large), counted(runs, bottom, scenario, sizes.large), (run) => run.figures.reqPerSec);
    return { top: a, bottom: b, ratio: r, ratioRange, target: `>= ${goal}`, met: r >= goal };
  };
  const side = (scenario: Scenario) => {
    const { top: sandbox, bottom: baseline, ...target } = versus('sandbox', 'baseline', scenario, TARGET_RATIO[scenario]);
    return { sandbox, baseline, ...target };
  };
  const logCost = (scenario: Scenario): RequestLogCost => {
    const { top: on, bottom: off, ...target } = versus('sandbox', 'sandbox-log-off', scenario, TARGET_LOG_RATIO);
    return { on, off, ...target };
  };
  const measuredLogOff = (['feedPage', 'caughtUp'] as const).every((scenario) => runs.some((run) => run.server === 'sandbox-log-off' && run.scenario === scenario && run.orders === sizes.large));
  const small = medianFigure(runs, 'sandbox', 'feedPage', sizes.small);
  const large = medianFigure(runs, 'sandbox', 'feedPage', sizes.large);
  const growth = ratio(large.p99Ms, small.p99Ms);
  const baselineSmall = medianFigure(runs, 'baseline', 'feedPage', sizes.small);
  const baselineLarge = medianFigure(runs, 'baseline', 'feedPage', sizes.large);
  return {
    feedPage: side('feedPage'),
    caughtUp: side('caughtUp'),
    p99Scaling: {
      small,
      large,
      ratio: growth,
      ratioRange: roundRatios(counted(runs, 'sandbox', 'feedPage', sizes.large), counted(runs, 'sandbox', 'feedPage', sizes.small), (run) => run.figures.latencyMs.p99),
      target: `<= ${TARGET_P99_GROWTH}`,
      met: growth <= TARGET_P99_GROWTH,
      baseline: { small: baselineSmall, large: baselineLarge, ratio: ratio(baselineLarge.p99Ms, baselineSmall.p99Ms) },
    },
    ...(measuredLogOff ? { requestLog: { feedPage: logCost('feedPage'), caughtUp: logCost('caughtUp') } } : {}),
  };
}

/** Anything in the runs that makes the figures suspect. */
export function problemsOf(runs: readonly RunRecord[]): string[] {
  return runs.flatMap(({ server, scenario, orders, round, figures }) => {
    const { non2xx, errors, timeouts, statusCodes } = figures;
    if (non2xx === 0 && errors === 0 && timeouts === 0) return [];
    return [`${server} ${scenario} at ${orders} orders, round ${round}: ${non2xx} non-2xx (${JSON.stringify(statusCodes)}), ${errors} errors, ${timeouts} timeouts`];
  });
}

/** Notes on judged figures taken from disturbed runs (no undisturbed round was available). */
export function notesOf(results: BenchReport['results']): string[] {
  const figures: [string, Figure][] = [
    ['feed page, sandbox', results.feedPage.sandbox],
    ['feed page, baseline', results.feedPage.baseline],
    ['caught-up poll, sandbox', results.caughtUp.sandbox],
    ['caught-up poll, baseline', results.caughtUp.baseline],
    ['feed page at the small size, sandbox', results.p99Scaling.small],
    ['feed page at the small size, baseline', results.p99Scaling.baseline.small],
    ...(results.requestLog === undefined
      ? []
      : ([
          ['feed page, sandbox without its request log', results.requestLog.feedPage.off],
          ['caught-up poll, sandbox without its request log', results.requestLog.caughtUp.off],
        ] as [string, Figure][])),
  ];
  return figures
    .filter(([, f]) => (f.otherCpuPct ?? 0) > DISTURBED_OTHER_CPU_PCT)
    .map(([what, f]) => `${what} (${count(f.orders)} orders): other work used ${f.otherCpuPct}% of a core during every round`);
}

const count = (n: number) => n.toLocaleString('en-US');
/** A figure's req/s range over its rounds and that range in % of the median: `2301–2410 (4.6%)`. */
const spreadOf = (f: Figure) => (f.rounds < 2 ? 'one round' : `${f.reqPerSecRange[0].toFixed(0)}–${f.reqPerSecRange[1].toFixed(0)} (${f.spreadPct.toFixed(1)}%)`);
/** The range of a target's per-round ratios: `0.84–0.88`. */
const rangeOf = (t: Target) => (Number.isNaN(t.ratioRange[0]) ? '' : `${t.ratioRange[0].toFixed(2)}–${t.ratioRange[1].toFixed(2)}`);
const pct = (n: number | null) => (n === null ? 'n/a' : `${Math.round(n)}%`);
const SCENARIO_TITLE: Record<Scenario, string> = { feedPage: 'feed page (50, random cursor)', caughtUp: 'caught-up poll (empty page)' };
const SERVER_TITLE: Record<ServerName, string> = { sandbox: 'sandbox', baseline: 'baseline', 'sandbox-log-off': 'sandbox, log off' };

/** The rows of the figures table: scenario, server, orders, req/s, p50, p99, and the CPU of the server, the load generator and everything else. */
function figureRows(report: BenchReport): string[][] {
  const { feedPage, caughtUp, p99Scaling, requestLog } = report.results;
  const row = (scenario: Scenario, server: ServerName, f: Figure) => [
    SCENARIO_TITLE[scenario], SERVER_TITLE[server], count(f.orders), f.reqPerSec.toFixed(0), spreadOf(f), f.p50Ms.toFixed(2), f.p99Ms.toFixed(2),
    pct(f.serverCpuPct), pct(f.databaseCpuPct), pct(f.loadCpuPct), pct(f.otherCpuPct),
  ];
  return [
    row('feedPage', 'sandbox', feedPage.sandbox),
    row('feedPage', 'baseline', feedPage.baseline),
    ...(requestLog === undefined ? [] : [row('feedPage', 'sandbox-log-off', requestLog.feedPage.off)]),
    row('feedPage', 'sandbox', p99Scaling.small),
    row('feedPage', 'baseline', p99Scaling.baseline.small),
    row('caughtUp', 'sandbox', caughtUp.sandbox),
    row('caughtUp', 'baseline', caughtUp.baseline),
    ...(requestLog === undefined ? [] : [row('caughtUp', 'sandbox-log-off', requestLog.caughtUp.off)]),
  ];
}

/** The rows of the targets table: what, figure (a ratio of medians), the range of the rounds' ratios, target, met. */
function targetRows(report: BenchReport): string[][] {
  const { feedPage, caughtUp, p99Scaling, requestLog } = report.results;
  const met = (t: Target) => (t.met ? 'yes' : 'NO');
  return [
    ['(a) feed page: sandbox / baseline req/s', feedPage.ratio.toFixed(2), rangeOf(feedPage), feedPage.target, met(feedPage)],
    ['(b) caught-up poll: sandbox / baseline req/s', caughtUp.ratio.toFixed(2), rangeOf(caughtUp), caughtUp.target, met(caughtUp)],
    [`(c) sandbox p99 page latency: ${count(p99Scaling.large.orders)} / ${count(p99Scaling.small.orders)} orders`, p99Scaling.ratio.toFixed(2), rangeOf(p99Scaling), p99Scaling.target, met(p99Scaling)],
    ["    for reference, the baseline's p99 growth", p99Scaling.baseline.ratio.toFixed(2), '', '', ''],
    ...(requestLog === undefined
      ? []
      : (['feedPage', 'caughtUp'] as const).map((scenario) => {
          const cost = requestLog[scenario];
          return [`request log's cost on (${scenario === 'feedPage' ? 'a' : 'b'}): sandbox / sandbox without it, req/s`, cost.ratio.toFixed(2), rangeOf(cost), cost.target, met(cost)];
        })),
  ];
}

function columns(header: string[], rows: string[][], numericFrom: number): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= numericFrom ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const FIGURE_HEADER = ['scenario', 'server', 'orders', 'req/s', 'rounds: req/s (spread)', 'p50 ms', 'p99 ms', 'server CPU', 'db CPU', 'load CPU', 'other CPU'];
const TARGET_HEADER = ['target', 'figure', 'rounds', 'goal', 'met'];

/** The line that says where and how the figures were taken. */
export function machineLine(report: BenchReport): string {
  const { machine, settings } = report;
  return (
    `${report.startedAtUtc.slice(0, 10)}, ${machine.cpuModel} x${machine.cores}, ${machine.memoryGb} GB, node ${machine.node}, ${machine.database}; ` +
    `${settings.connections} connections, ${settings.durationS} s per run after ${settings.warmupS} s warm-up, median of ${settings.rounds} rounds; ` +
    `sandbox request log ${settings.requestLog ?? 'on'}` +
    (settings.code === undefined ? '' : `; servers ${settings.code === 'dist' ? 'compiled (dist/, as waybill serve runs)' : 'from the TypeScript sources (tsx)'}`)
  );
}

/** The report as the console shows it. */
export function formatTable(report: BenchReport): string {
  return [machineLine(report), '', columns(FIGURE_HEADER, figureRows(report), 2), '', columns(TARGET_HEADER, targetRows(report), 1)].join('\n');
}

/** The report as the tables of `docs/performance.md` for its engine (without the CPU columns), under its machine line. */
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
  const figures = figureRows(report).map(([scenario, ...rest]) => [scenario!, engine, ...rest.slice(0, 6)]);
  return [`${engine}: ${machineLine(report)} (\`reports/bench/${latestName(report)}\`).`, '', table(['scenario', 'engine', ...FIGURE_HEADER.slice(1, 7)], figures), '', table(TARGET_HEADER, targets)].join('\n');
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
