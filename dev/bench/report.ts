/**
 * The benchmark's report: every run, and the figures the targets are judged on (per server,
 * scenario and size the median of its rounds, with their spread); its tables and files are
 * report-format.ts's.
 *
 * The targets are on CPU per answered request (issue 42), which a shared machine blurs far
 * less than throughput: what the sandbox spends a request (its process, all threads, and on
 * PostgreSQL the database's processes too) over what the ceiling spends doing the same SQL.
 * Throughput ratios are shown beside them as secondary figures, with no goal.
 */
import { type CpuPerRequest, cpuTotal, type LoadSettings, type RunFigures } from './load.ts';
import type { ServedCode } from './served.ts';

/** The servers measured: the sandbox as served, the ceiling, and the sandbox without its request log (issue 25's second target: what the log costs). */
export type ServerName = 'sandbox' | 'baseline' | 'sandbox-log-off' | 'mock';
export type Engine = 'sqlite' | 'postgres';
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
  /**
   * CPU µs per answered request (medians of the rounds): the server's process (all threads),
   * its event loops alone, the database's processes (null on SQLite), and `total`, the server's
   * and the database's together, which the targets compare. Null without /proc.
   */
  cpuUs: { process: number | null; eventLoop: number | null; database: number | null; total: number | null };
  /** The lowest and highest `total` of the rounds (null without /proc). */
  cpuUsRange: [number, number] | null;
}

/** A comparison against its target: the ratio of the medians, and the lowest and highest ratio of one round's pair. */
export interface Target {
  ratio: number;
  ratioRange: [number, number];
  target: string;
  met: boolean;
}

/** Sandbox ÷ ceiling of each part of the CPU a request: the process, its event loop, the database (null on SQLite). */
export interface CpuParts {
  process: Ratio;
  eventLoop: Ratio;
  database: Ratio | null;
}

/** A ratio shown for reference, with no goal: the ratio of the medians and the range of the rounds' own ratios. */
export interface Ratio {
  ratio: number;
  ratioRange: [number, number];
}

/**
 * The request log's own CPU in one scenario (issue 42): the sandbox's CPU a request with the
 * log (`on`) less its CPU without it (`off`, the same sandbox in the same rounds), as a share of
 * `on` (the capture, the hand-over and the writer thread; on PostgreSQL the database's work for
 * it too). `goal` is null where no target is set (PostgreSQL). `throughput` is `on`'s req/s over
 * `off`'s, for reference.
 */
export interface RequestLogCost {
  on: Figure;
  off: Figure;
  /** (on − off) / on, of `total` CPU µs a request. */
  share: number;
  /** The lowest and highest share of one round's pair. */
  shareRange: [number, number];
  target: string | null;
  met: boolean | null;
  throughput: Ratio;
}

/** The sandbox against the peer a user might pick instead (`waybill mock`, Prism) in one scenario: throughput and CPU a request. */
export interface PeerComparison {
  sandbox: Figure;
  mock: Figure;
  /** Sandbox req/s over the mock's; goal at least `PEER_GOAL.throughput`. */
  throughput: Ratio & { target: string; met: boolean };
  /** Sandbox CPU a request over the mock's; goal at most `PEER_GOAL.cpu`. */
  cpu: Ratio & { target: string; met: boolean };
}

/** Everything one `npm run bench` found; written as JSON. */
export interface BenchReport {
  startedAtUtc: string;
  finishedAtUtc: string;
  /** `database` is the engine and its version: `SQLite 3.53.2`, `PostgreSQL 15.14`. */
  machine: { cpuModel: string; cores: number; memoryGb: number; platform: string; node: string; database: string };
  settings: LoadSettings & { rounds: number; requestLog: 'on' | 'off'; /** Where the servers' code came from (runs before it was recorded ran the sources). */ code?: ServedCode; engine: Engine; pageLimit: number; cursorsPerDatabase: number; keysRotated: number; sizes: { small: number; large: number }; /** Whether `waybill mock` ran beside (`--peers`). */ peers?: boolean };
  /** `buildSeconds` is null for a database reused from an earlier run. */
  databases: { orders: number; liveOrders: number; file: string; megabytes: number; built: boolean; buildSeconds: number | null }[];
  runs: RunRecord[];
  results: {
    /**
     * Sandbox ÷ ceiling of `total` CPU µs a request, against the engine's goal; for reference,
     * `parts` the same ratio of each part of it (the server's process, its event loop, the
     * database's processes; absent from runs before they were kept) and `throughput` of req/s.
     */
    feedPage: { sandbox: Figure; baseline: Figure; throughput: Ratio; parts?: CpuParts } & Target;
    caughtUp: { sandbox: Figure; baseline: Figure; throughput: Ratio; parts?: CpuParts } & Target;
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
    /** The sandbox against `waybill mock` (`--peers`); absent otherwise. */
    peers?: { feedPage: PeerComparison; caughtUp: PeerComparison };
  };
  /** Anything that makes the figures invalid (non-2xx answers, errors); empty when clean. */
  problems: string[];
  /** Judged figures that come from a run disturbed by other work on the machine. */
  notes: string[];
}

/**
 * The goals (issue 42, with the request log on as served): the sandbox's CPU a request at
 * most this multiple of the ceiling's, per engine (on PostgreSQL the database's CPU counted on
 * both sides, the ceiling sending the same SQL, the rate-limit token included).
 */
export const CPU_GOAL: Record<Engine, Record<Scenario, number>> = { sqlite: { feedPage: 1.15, caughtUp: 1.4 }, postgres: { feedPage: 1.3, caughtUp: 1.5 } };
/** p99 growing at most 1.2x from 10,000 to 1,000,000 orders (issue 25). */
const TARGET_P99_GROWTH = 1.2;
/** The request log's own CPU at most this share of a request's, on SQLite (issue 42); on PostgreSQL it is shown with no goal. */
export const LOG_SHARE_GOAL: Record<Scenario, number> = { feedPage: 0.05, caughtUp: 0.1 };
/** Against `waybill mock` (issue 42): at least 1.5 times its req/s, at most 0.6 of its CPU a request. */
export const PEER_GOAL = { throughput: 1.5, cpu: 0.6 };

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
  const totals = rounds.map((run) => cpuTotal(run.figures.cpuUs)).filter((value): value is number => value !== null);
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
    cpuUs: {
      process: of((f) => f.cpuUs?.process ?? null),
      eventLoop: of((f) => f.cpuUs?.eventLoop ?? null),
      database: of((f) => f.cpuUs?.database ?? null),
      total: totals.length === 0 ? null : Math.round(median(totals) * 10) / 10,
    },
    cpuUsRange: totals.length === 0 ? null : [Math.min(...totals), Math.max(...totals)],
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

/** `top`'s figure over `bottom`'s in `scenario` at `orders`: the ratio of the medians and the range of the rounds' own ratios. */
function ratioOf(runs: readonly RunRecord[], top: ServerName, bottom: ServerName, scenario: Scenario, orders: number, figure: (f: Figure) => number | null, perRun: (run: RunRecord) => number | null): Ratio {
  const [a, b] = [figure(medianFigure(runs, top, scenario, orders)), figure(medianFigure(runs, bottom, scenario, orders))];
  const known = (run: RunRecord) => perRun(run) !== null;
  return {
    ratio: a === null || b === null ? NaN : ratio(a, b),
    ratioRange: roundRatios(counted(runs, top, scenario, orders).filter(known), counted(runs, bottom, scenario, orders).filter(known), (run) => perRun(run)!),
  };
}

const throughputOf = (runs: readonly RunRecord[], top: ServerName, bottom: ServerName, scenario: Scenario, orders: number): Ratio =>
  ratioOf(runs, top, bottom, scenario, orders, (f) => f.reqPerSec, (run) => run.figures.reqPerSec);
const cpuOf = (runs: readonly RunRecord[], top: ServerName, bottom: ServerName, scenario: Scenario, orders: number): Ratio =>
  ratioOf(runs, top, bottom, scenario, orders, (f) => f.cpuUs.total, (run) => cpuTotal(run.figures.cpuUs));

/**
 * The figures the targets are judged on: the sandbox's CPU a request over the ceiling's per
 * scenario (the engine's goal), the p99 growth, the request log's share of the sandbox's CPU,
 * and against `waybill mock` when it ran; each a ratio of medians with the range of its rounds'
 * ratios. A ratio that could not be measured (no /proc) is NaN and not met.
 */
export function judge(runs: readonly RunRecord[], sizes: { small: number; large: number }, engine: Engine = 'sqlite'): BenchReport['results'] {
  const large = sizes.large;
  const side = (scenario: Scenario) => {
    const cpu = cpuOf(runs, 'sandbox', 'baseline', scenario, large);
    const goal = CPU_GOAL[engine][scenario];
    // One part of the CPU a request, for reference: the same ratio of the medians and of each round's pair.
    const part = (pick: (cpu: CpuPerRequest) => number | null) =>
      ratioOf(runs, 'sandbox', 'baseline', scenario, large, (f) => pick(f.cpuUs), (run) => (run.figures.cpuUs === undefined ? null : pick(run.figures.cpuUs)));
    return {
      sandbox: medianFigure(runs, 'sandbox', scenario, large),
      baseline: medianFigure(runs, 'baseline', scenario, large),
      ...cpu,
      target: `<= ${goal}`,
      met: cpu.ratio <= goal,
      throughput: throughputOf(runs, 'sandbox', 'baseline', scenario, large),
      parts: { process: part((c) => c.process), eventLoop: part((c) => c.eventLoop), database: engine === 'postgres' ? part((c) => c.database) : null },
    };
  };
  const logCost = (scenario: Scenario): RequestLogCost => {
    const on = medianFigure(runs, 'sandbox', scenario, large);
    const off = medianFigure(runs, 'sandbox-log-off', scenario, large);
    const shareOf = (a: number | null, b: number | null) => (a === null || b === null ? NaN : Math.round(((a - b) / a) * 1000) / 1000);
    const share = shareOf(on.cpuUs.total, off.cpuUs.total);
    const shares = counted(runs, 'sandbox', scenario, large).flatMap((a) => {
      const b = counted(runs, 'sandbox-log-off', scenario, large).find((run) => run.round === a.round);
      const value = b === undefined ? NaN : shareOf(cpuTotal(a.figures.cpuUs), cpuTotal(b.figures.cpuUs));
      return Number.isNaN(value) ? [] : [value];
    });
    const goal = engine === 'sqlite' ? LOG_SHARE_GOAL[scenario] : null;
    return {
      on,
      off,
      share,
      shareRange: shares.length === 0 ? [NaN, NaN] : [Math.min(...shares), Math.max(...shares)],
      target: goal === null ? null : `<= ${goal}`,
      met: goal === null ? null : share <= goal,
      throughput: throughputOf(runs, 'sandbox', 'sandbox-log-off', scenario, large),
    };
  };
  const peer = (scenario: Scenario): PeerComparison => {
    const throughput = throughputOf(runs, 'sandbox', 'mock', scenario, large);
    const cpu = cpuOf(runs, 'sandbox', 'mock', scenario, large);
    return {
      sandbox: medianFigure(runs, 'sandbox', scenario, large),
      mock: medianFigure(runs, 'mock', scenario, large),
      throughput: { ...throughput, target: `>= ${PEER_GOAL.throughput}`, met: throughput.ratio >= PEER_GOAL.throughput },
      cpu: { ...cpu, target: `<= ${PEER_GOAL.cpu}`, met: cpu.ratio <= PEER_GOAL.cpu },
    };
  };
  const measured = (server: ServerName) => (['feedPage', 'caughtUp'] as const).every((scenario) => runs.some((run) => run.server === server && run.scenario === scenario && run.orders === large));
  const small = medianFigure(runs, 'sandbox', 'feedPage', sizes.small);
  const largeFigure = medianFigure(runs, 'sandbox', 'feedPage', large);
  const growth = ratio(largeFigure.p99Ms, small.p99Ms);
  const baselineSmall = medianFigure(runs, 'baseline', 'feedPage', sizes.small);
  const baselineLarge = medianFigure(runs, 'baseline', 'feedPage', large);
  return {
    feedPage: side('feedPage'),
    caughtUp: side('caughtUp'),
    p99Scaling: {
      small,
      large: largeFigure,
      ratio: growth,
      ratioRange: roundRatios(counted(runs, 'sandbox', 'feedPage', large), counted(runs, 'sandbox', 'feedPage', sizes.small), (run) => run.figures.latencyMs.p99),
      target: `<= ${TARGET_P99_GROWTH}`,
      met: growth <= TARGET_P99_GROWTH,
      baseline: { small: baselineSmall, large: baselineLarge, ratio: ratio(baselineLarge.p99Ms, baselineSmall.p99Ms) },
    },
    ...(measured('sandbox-log-off') ? { requestLog: { feedPage: logCost('feedPage'), caughtUp: logCost('caughtUp') } } : {}),
    ...(measured('mock') ? { peers: { feedPage: peer('feedPage'), caughtUp: peer('caughtUp') } } : {}),
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

const count = (n: number) => n.toLocaleString('en-US');

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
    ...(results.peers === undefined
      ? []
      : ([
          ['feed page, waybill mock', results.peers.feedPage.mock],
          ['caught-up poll, waybill mock', results.peers.caughtUp.mock],
        ] as [string, Figure][])),
  ];
  return figures
    .filter(([, f]) => (f.otherCpuPct ?? 0) > DISTURBED_OTHER_CPU_PCT)
    .map(([what, f]) => `${what} (${count(f.orders)} orders): other work used ${f.otherCpuPct}% of a core during every round`);
}
