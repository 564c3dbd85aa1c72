/**
 * The bench's judging: each figure the median of its rounds (never the best), the spread of
 * the rounds shown, disturbed rounds left out while undisturbed ones exist; and the tables of
 * docs/performance.md, which are exactly those of the runs kept in dev/bench/doc-runs/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CpuPerRequest, RunFigures } from './load.ts';
import { type BenchReport, CPU_GOAL, judge, LOG_SHARE_GOAL, median, PEER_GOAL, type RunRecord, type Scenario, type ServerName } from './report.ts';
import { formatMarkdown, formatSummary, SUMMARY_FILES, SUMMARY_MARKERS, withSummary, DOC_RUNS, benchMarkers, PERFORMANCE_DOC, withBenchTables } from './report-format.ts';

const SIZES = { small: 10, large: 1000 };

/**
 * A run of `server` with `reqPerSec` and `p99`; `other` is the CPU other work used (disturbed
 * above 25 %); `cpuUs` its CPU µs a request (by default 1e6 / req/s: a server on one core).
 */
function run(server: ServerName, scenario: Scenario, orders: number, round: number, reqPerSec: number, p99 = 10, other = 0, cpuUs?: Partial<CpuPerRequest>): RunRecord {
  const process = 1e6 / reqPerSec;
  const figures: RunFigures = {
    requests: reqPerSec * 10, reqPerSec, latencyMs: { mean: p99 / 2, p50: p99 / 2, p90: p99, p99, max: p99 * 2 }, bytesPerSec: 0,
    non2xx: 0, errors: 0, timeouts: 0, statusCodes: { 200: reqPerSec * 10 }, serverCpuPct: 90, databaseCpuPct: null, loadCpuPct: 40, otherCpuPct: other,
    cpuUs: { process, eventLoop: (cpuUs?.process ?? process) * 0.8, database: null, ...cpuUs },
  };
  return { server, scenario, orders, round, figures };
}

/** Three rounds of each comparison: the sandbox's req/s, then the baseline's, per round. */
function runs(sandbox: number[], baseline: number[], extra: RunRecord[] = []): RunRecord[] {
  const all: RunRecord[] = [];
  for (const scenario of ['feedPage', 'caughtUp'] as const) {
    sandbox.forEach((rate, n) => all.push(run('sandbox', scenario, SIZES.large, n + 1, rate, 10 + n)));
    baseline.forEach((rate, n) => all.push(run('baseline', scenario, SIZES.large, n + 1, rate, 8 + n)));
  }
  sandbox.forEach((rate, n) => all.push(run('sandbox', 'feedPage', SIZES.small, n + 1, rate, 5 + n)));
  baseline.forEach((rate, n) => all.push(run('baseline', 'feedPage', SIZES.small, n + 1, rate, 4 + n)));
  return [...all, ...extra];
}

describe('the bench judges medians', () => {
  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('compares the medians of the rounds, not the best rounds, and gives the range of the rounds\' ratios', () => {
    const { feedPage, caughtUp, p99Scaling } = judge(runs([100, 300, 200], [200, 200, 400]), SIZES);
    expect(feedPage.sandbox.reqPerSec).toBe(200);
    expect(feedPage.baseline.reqPerSec).toBe(200);
    // The best rounds would give 300 / 400 = 0.75.
    expect(feedPage.throughput.ratio).toBe(1);
    expect(feedPage.throughput.ratioRange).toEqual([0.5, 1.5]);
    expect(caughtUp.throughput.ratio).toBe(1);
    // CPU a request (here 1e6 / req/s): 5000 against 5000, the rounds 10000 / 5000, 3333 / 5000, 5000 / 2500.
    expect(feedPage.ratio).toBe(1);
    expect(feedPage.ratioRange).toEqual([0.667, 2]);
    // The sandbox's p99 at each size is the median of 10, 11, 12 and of 5, 6, 7.
    expect(p99Scaling.large.p99Ms).toBe(11);
    expect(p99Scaling.small.p99Ms).toBe(6);
    expect(p99Scaling.ratio).toBeCloseTo(11 / 6, 3);
  });

  it('shows how far the rounds spread', () => {
    const { feedPage } = judge(runs([100, 300, 200], [200, 200, 400]), SIZES);
    expect(feedPage.sandbox.rounds).toBe(3);
    expect(feedPage.sandbox.reqPerSecRange).toEqual([100, 300]);
    expect(feedPage.sandbox.spreadPct).toBe(100);
    expect(feedPage.baseline.spreadPct).toBe(100);
  });

  it('leaves out a round other work disturbed while undisturbed rounds exist', () => {
    const disturbed = run('sandbox', 'feedPage', SIZES.large, 4, 5000, 10, 90);
    const { feedPage } = judge(runs([100, 300, 200], [200, 200, 400], [disturbed]), SIZES);
    expect(feedPage.sandbox.reqPerSec).toBe(200);
    expect(feedPage.sandbox.rounds).toBe(3);
  });
});

describe('the targets on CPU a request', () => {
  /** Three rounds of (a) and (b) at the large size with these CPU µs a request, and a small size for (c). */
  const cpuRuns = (sandbox: number[], baseline: number[], database: (number | null)[] = [null, null, null], extra: RunRecord[] = []) => {
    const all: RunRecord[] = [];
    for (const scenario of ['feedPage', 'caughtUp'] as const) {
      sandbox.forEach((cpu, n) => all.push(run('sandbox', scenario, SIZES.large, n + 1, 1000, 10, 0, { process: cpu, database: database[n] })));
      baseline.forEach((cpu, n) => all.push(run('baseline', scenario, SIZES.large, n + 1, 1000, 10, 0, { process: cpu, database: database[n] })));
    }
    all.push(run('sandbox', 'feedPage', SIZES.small, 1, 1000), run('baseline', 'feedPage', SIZES.small, 1, 1000));
    return [...all, ...extra];
  };

  it('compares the medians of the sandbox\'s and the ceiling\'s CPU a request, whatever their throughput, with the range of the rounds\' ratios', () => {
    const { feedPage, caughtUp } = judge(cpuRuns([120, 110, 500], [100, 100, 100]), SIZES);
    expect(feedPage.sandbox.cpuUs.total).toBe(120);
    expect(feedPage.baseline.cpuUs.total).toBe(100);
    expect(feedPage.ratio).toBe(1.2);
    expect(feedPage.ratioRange).toEqual([1.1, 5]);
    expect(feedPage.sandbox.cpuUsRange).toEqual([110, 500]);
    // 1.2 is past (a)'s 1.15 and within (b)'s 1.4.
    expect(feedPage.met).toBe(false);
    expect(caughtUp.met).toBe(true);
    expect([feedPage.target, caughtUp.target]).toEqual([`<= ${CPU_GOAL.sqlite.feedPage}`, `<= ${CPU_GOAL.sqlite.caughtUp}`]);
    // Throughput is shown beside, not judged: the same here.
    expect(feedPage.throughput.ratio).toBe(1);
  });

  it('meets a goal at its limit, not past it', () => {
    expect(judge(cpuRuns([115, 115, 115], [100, 100, 100]), SIZES).feedPage.met).toBe(true);
    expect(judge(cpuRuns([116, 116, 116], [100, 100, 100]), SIZES).feedPage.met).toBe(false);
  });

  it('counts the database\'s CPU on both sides on PostgreSQL, against its own goals', () => {
    // Server 100 + database 100 against 80 + 100: 1.11, where the servers alone would give 1.25.
    const { feedPage } = judge(cpuRuns([100, 100, 100], [80, 80, 80], [100, 100, 100]), SIZES, 'postgres');
    expect(feedPage.sandbox.cpuUs).toEqual({ process: 100, eventLoop: 80, database: 100, total: 200 });
    expect(feedPage.ratio).toBe(1.111);
    expect(feedPage.target).toBe(`<= ${CPU_GOAL.postgres.feedPage}`);
    expect(feedPage.met).toBe(true);
    // Each part apart, for reference: the server 1.25 of the ceiling's, the database the same.
    expect(feedPage.parts).toEqual({
      process: { ratio: 1.25, ratioRange: [1.25, 1.25] },
      eventLoop: { ratio: 1.25, ratioRange: [1.25, 1.25] },
      database: { ratio: 1, ratioRange: [1, 1] },
    });
    expect(judge(cpuRuns([100, 100, 100], [80, 80, 80]), SIZES).feedPage.parts?.database).toBeNull();
  });

  it('never meets a goal it could not measure (no /proc)', () => {
    const { feedPage } = judge(cpuRuns([100, 100, 100], [100, 100, 100]).map((r) => ({ ...r, figures: { ...r.figures, cpuUs: { process: null, eventLoop: null, database: null } } })), SIZES);
    expect(feedPage.ratio).toBeNaN();
    expect(feedPage.met).toBe(false);
    expect(feedPage.sandbox.cpuUsRange).toBeNull();
  });

  /** The sandbox without its log in the same three rounds of (a) and (b), at the large size. */
  const withoutLog = (cpus: number[], database: number | null = null) =>
    (['feedPage', 'caughtUp'] as const).flatMap((scenario) => cpus.map((cpu, n) => run('sandbox-log-off', scenario, SIZES.large, n + 1, 1000, 10, 0, { process: cpu, database })));

  it('gives the request log\'s own CPU as its share of the sandbox\'s, against 5 % of a page and 10 % of a poll on SQLite', () => {
    const { requestLog } = judge(cpuRuns([100, 100, 100], [90, 90, 90], undefined, withoutLog([92, 96, 90])), SIZES);
    expect(requestLog).toBeDefined();
    // (100 - 92) / 100, the medians'; rounds 0.04 to 0.10.
    expect(requestLog!.feedPage.share).toBe(0.08);
    expect(requestLog!.feedPage.shareRange).toEqual([0.04, 0.1]);
    expect(requestLog!.feedPage.met).toBe(false);
    expect(requestLog!.caughtUp.met).toBe(true);
    expect(requestLog!.feedPage.target).toBe('<= 0.05');
  });

  it('shows the log\'s share on PostgreSQL with no goal, the database\'s work for it counted', () => {
    const { requestLog } = judge(cpuRuns([100, 100, 100], [90, 90, 90], [50, 50, 50], withoutLog([60, 60, 60], 50)), SIZES, 'postgres');
    // 150 with the log against 60 + 50 without it.
    expect(requestLog!.feedPage.share).toBe(0.267);
    expect(requestLog!.feedPage.target).toBeNull();
    expect(requestLog!.feedPage.met).toBeNull();
  });

  it('is absent when the sandbox without its log was not measured (a run with --request-log off, or an older run)', () => {
    expect(judge(runs([100, 300, 200], [200, 200, 400]), SIZES).requestLog).toBeUndefined();
  });

  it('judges the sandbox against waybill mock on throughput and CPU when it ran (--peers)', () => {
    const mock = (rate: number, cpu: number) => (['feedPage', 'caughtUp'] as const).flatMap((scenario) => [1, 2, 3].map((round) => run('mock', scenario, SIZES.large, round, rate, 10, 0, { process: cpu })));
    const ahead = judge([...cpuRuns([300, 300, 300], [250, 250, 250]), ...mock(600, 600)], SIZES).peers!;
    // The sandbox here: 1,000 req/s at 300 µs; the mock 600 req/s at 600 µs.
    expect(ahead.feedPage.throughput.ratio).toBe(1.667);
    expect(ahead.feedPage.throughput.met).toBe(true);
    expect(ahead.feedPage.cpu.ratio).toBe(0.5);
    expect(ahead.feedPage.cpu.met).toBe(true);
    expect(ahead.caughtUp.throughput.target).toBe(`>= ${PEER_GOAL.throughput}`);
    const behind = judge([...cpuRuns([300, 300, 300], [250, 250, 250]), ...mock(700, 450)], SIZES).peers!;
    expect(behind.feedPage.throughput.met).toBe(false);
    expect(behind.feedPage.cpu.met).toBe(false);
    expect(judge(cpuRuns([300, 300, 300], [250, 250, 250]), SIZES).peers).toBeUndefined();
  });
});

describe('the bench tables of docs/performance.md', () => {
  const report = (engine: 'sqlite' | 'postgres'): BenchReport => ({
    startedAtUtc: '2026-11-27T00:00:00.000Z', finishedAtUtc: '2026-11-27T00:05:00.000Z',
    machine: { cpuModel: 'Test CPU', cores: 2, memoryGb: 4, platform: 'linux', node: 'v20.0.0', database: engine === 'sqlite' ? 'SQLite 3' : 'PostgreSQL 15' },
    settings: { connections: 10, durationS: 10, warmupS: 2, pipelining: 1, rounds: 3, requestLog: 'on', engine, pageLimit: 50, cursorsPerDatabase: 10, keysRotated: 4, sizes: SIZES },
    databases: [], runs: [], results: judge(runs([100, 300, 200], [200, 200, 400]), SIZES), problems: [], notes: [],
  });

  it('replaces the block of the run\'s engine only, and refuses a guide without its markers', () => {
    const doc = ['intro', ...benchMarkers('sqlite'), 'middle', benchMarkers('postgres')[0], 'old postgres table', benchMarkers('postgres')[1], 'end'].join('\n');
    const written = withBenchTables(doc, report('postgres'));
    expect(written).toContain(`${benchMarkers('sqlite').join('\n')}\nmiddle`);
    expect(written).not.toContain('old postgres table');
    expect(written).toContain('PostgreSQL: 2026-11-27, Test CPU x2, 4 GB, node v20.0.0, PostgreSQL 15; 10 connections, 10 s per run after 2 s warm-up, median of 3 rounds; sandbox request log on');
    expect(written).toContain('| feed page (50, random cursor) | PostgreSQL | sandbox | 1,000 | 5000 | 3333–10000 | 4000 | n/a | 200 | 100–300 (100.0%) |');
    expect(written).toContain("| (a) feed page: sandbox / ceiling, CPU µs a request (with the database's) |");
    expect(() => withBenchTables('no markers', report('sqlite'))).toThrow(/<!-- bench:sqlite:start -->/);
  });

  it('show the sandbox without its log and what the log costs, when the run measured them', () => {
    const measured = { ...report('sqlite'), results: judge(runs([100, 300, 200], [400, 400, 400], (['feedPage', 'caughtUp'] as const).flatMap((scenario) => [250, 200, 190].map((rate, n) => run('sandbox-log-off', scenario, SIZES.large, n + 1, rate)))), SIZES) };
    const table = formatMarkdown(measured);
    // CPU µs a request (1e6 / req/s here), its rounds, the event loop's, the database's (none on SQLite), then req/s and spread.
    expect(table).toContain('| feed page (50, random cursor) | SQLite | sandbox, log off | 1,000 | 5000 | 4000–5263 | 4000 | n/a | 200 | 190–250 (30.0%) |');
    expect(table).toContain('| caught-up poll (empty page) | SQLite | sandbox, log off | 1,000 | 5000 |');
    // Sandbox 5000 µs against 5000 without its log: 0 %; the rounds 10000 against 4000 (60 %), 3333 against 5000 (-50 %), 5000 against 5263.
    expect(table).toContain("| request log's own CPU on (a): share of the sandbox's a request | 0.0% | -50.0%–60.0% | ≤ 5.0% | yes |");
    expect(table).toContain("| request log's own CPU on (b): share of the sandbox's a request | 0.0% | -50.0%–60.0% | ≤ 10.0% | yes |");
    expect(table).toContain('| for reference, (a) feed page: sandbox / sandbox without its log, req/s | 1.00 | 0.40–1.50 |  |  |');
    // 5000 µs against the ceiling's 2500 (400 req/s); the rounds 4, 1.33 and 2.
    expect(table).toContain('| (a) feed page: sandbox / ceiling, CPU µs a request | 2.00 | 1.33–4.00 | ≤ 1.15 | no |');
    expect(table).toContain('| for reference, (a) feed page: sandbox / ceiling, req/s | 0.50 | 0.25–0.75 |  |  |');
    expect(table).toContain('| for reference, (b) caught-up poll: sandbox / ceiling, event loop µs | 2.00 | 1.33–4.00 |  |  |');
    expect(table).not.toContain('sandbox / ceiling, database µs');
    expect(formatMarkdown(report('sqlite'))).not.toContain('log off');
  });

  it('are those of the runs kept in dev/bench/doc-runs (written by npm run bench -- --docs), never typed by hand', () => {
    const doc = readFileSync(PERFORMANCE_DOC, 'utf8');
    for (const [engine, file] of [['sqlite', 'latest.json'], ['postgres', 'latest-postgres.json']] as const) {
      const path = join(DOC_RUNS, file);
      expect(existsSync(path), `${path}: run npm run bench -- --docs${engine === 'postgres' ? ' --db postgres' : ''}`).toBe(true);
      const [start, end] = benchMarkers(engine);
      const block = doc.slice(doc.indexOf(start) + start.length, doc.indexOf(end)).trim();
      expect(block).toBe(formatMarkdown(JSON.parse(readFileSync(path, 'utf8')) as BenchReport));
    }
  });

  it('sum up both engines and the peer in one table, in the README and the guide, from the kept runs', () => {
    const kept = ['latest.json', 'latest-postgres.json'].map((file) => JSON.parse(readFileSync(join(DOC_RUNS, file), 'utf8')) as BenchReport);
    for (const file of SUMMARY_FILES) {
      const doc = readFileSync(file, 'utf8');
      const [start, end] = SUMMARY_MARKERS;
      expect(doc.indexOf(start), `${file} has the summary's markers`).toBeGreaterThan(-1);
      expect(doc.slice(doc.indexOf(start) + start.length, doc.indexOf(end)).trim(), `${file}: run npm run bench -- --docs`).toBe(formatSummary(kept));
    }
  });
});

describe('the summary of both engines', () => {
  const report = (engine: 'sqlite' | 'postgres', peers: boolean): BenchReport => {
    const extra = peers ? (['feedPage', 'caughtUp'] as const).flatMap((scenario) => [1, 2, 3].map((round) => run('mock', scenario, SIZES.large, round, 400, 10, 0, { process: 4000 }))) : [];
    return {
      startedAtUtc: '2026-11-29T00:00:00.000Z', finishedAtUtc: '2026-11-29T00:05:00.000Z',
      machine: { cpuModel: 'Test CPU', cores: 2, memoryGb: 4, platform: 'linux', node: 'v20.0.0', database: engine === 'sqlite' ? 'SQLite 3' : 'PostgreSQL 15' },
      settings: { connections: 10, durationS: 10, warmupS: 2, pipelining: 1, rounds: 3, requestLog: 'on', engine, pageLimit: 50, cursorsPerDatabase: 10, keysRotated: 4, sizes: SIZES, peers },
      databases: [], runs: [], results: judge(runs([200, 200, 200], [400, 400, 400], extra), SIZES, engine), problems: [], notes: [],
    };
  };

  it('gives each engine\'s sandbox, ceiling and mock with the sandbox\'s ratios to them, under each run\'s machine line', () => {
    const summary = formatSummary([report('sqlite', true), report('postgres', false)]);
    // The sandbox at 200 req/s (5000 µs a request), the ceiling at 400 (2500 µs), the mock at 400 with 4000 µs.
    expect(summary).toContain('| SQLite | feed page (50, random cursor) | sandbox | 5000 | 200 |  |  |');
    expect(summary).toContain('| SQLite | feed page (50, random cursor) | ceiling | 2500 | 400 | 2.00 | 0.50 |');
    expect(summary).toContain('| SQLite | caught-up poll (empty page) | waybill mock (Prism) | 4000 | 400 | 1.25 | 0.50 |');
    expect(summary).not.toContain('| PostgreSQL | feed page (50, random cursor) | waybill mock');
    expect(summary).toContain('| PostgreSQL | caught-up poll (empty page) | ceiling | 2500 | 400 | 2.00 | 0.50 |');
    expect(summary).toContain('SQLite: 2026-11-29, Test CPU x2, 4 GB, node v20.0.0, SQLite 3; 10 connections');
    expect(summary).toMatch(/with waybill mock \(--peers\)\.\n\nPostgreSQL: 2026-11-29/);
  });

  it('replaces only what is between its markers, and refuses a file without them', () => {
    const [start, end] = SUMMARY_MARKERS;
    expect(withSummary(`intro\n${start}\nold\n${end}\nrest`, 'new', 'X.md')).toBe(`intro\n${start}\nnew\n${end}\nrest`);
    expect(() => withSummary('nothing', 'new', 'X.md')).toThrow(/X\.md has no <!-- bench:summary:start -->/);
  });
});

describe('the targets docs/performance.md states', () => {
  it('are the ones the bench judges', () => {
    const doc = readFileSync(PERFORMANCE_DOC, 'utf8');
    const row = (start: string) => doc.split('\n').find((line) => line.startsWith(`| ${start}`))?.split('|').map((cell) => cell.trim()) ?? [];
    expect(row('(a) feed page: sandbox ÷ ceiling, CPU').slice(2, 4)).toEqual([`≤ ${CPU_GOAL.sqlite.feedPage}`, `≤ ${CPU_GOAL.postgres.feedPage}`]);
    expect(row('(b) caught-up poll: sandbox ÷ ceiling, CPU').slice(2, 4)).toEqual([`≤ ${CPU_GOAL.sqlite.caughtUp}`, `≤ ${CPU_GOAL.postgres.caughtUp}`]);
    expect(row("the request log's own CPU")[2]).toBe(`≤ ${LOG_SHARE_GOAL.feedPage * 100} % of (a), ≤ ${LOG_SHARE_GOAL.caughtUp * 100} % of (b)`);
    expect(row('`--peers`: sandbox ÷ `waybill mock`, req/s').slice(2, 4)).toEqual([`≥ ${PEER_GOAL.throughput}`, `≥ ${PEER_GOAL.throughput}`]);
    expect(row('`--peers`: sandbox ÷ `waybill mock`, CPU').slice(2, 4)).toEqual([`≤ ${PEER_GOAL.cpu}`, `≤ ${PEER_GOAL.cpu}`]);
  });
});
