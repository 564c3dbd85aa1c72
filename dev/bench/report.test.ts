/**
 * The bench's judging: each figure the median of its rounds (never the best), the spread of
 * the rounds shown, disturbed rounds left out while undisturbed ones exist; and the tables of
 * docs/performance.md, which are exactly those of the runs kept in dev/bench/doc-runs/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunFigures } from './load.ts';
import { type BenchReport, formatMarkdown, judge, median, DOC_RUNS, benchMarkers, PERFORMANCE_DOC, type RunRecord, type Scenario, type ServerName, withBenchTables } from './report.ts';

const SIZES = { small: 10, large: 1000 };

/** A run of `server` with `reqPerSec` and `p99`; `other` is the CPU other work used (disturbed above 25 %). */
function run(server: ServerName, scenario: Scenario, orders: number, round: number, reqPerSec: number, p99 = 10, other = 0): RunRecord {
  const figures: RunFigures = {
    requests: reqPerSec * 10, reqPerSec, latencyMs: { mean: p99 / 2, p50: p99 / 2, p90: p99, p99, max: p99 * 2 }, bytesPerSec: 0,
    non2xx: 0, errors: 0, timeouts: 0, statusCodes: { 200: reqPerSec * 10 }, serverCpuPct: 90, databaseCpuPct: null, loadCpuPct: 40, otherCpuPct: other,
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
    expect(feedPage.ratio).toBe(1);
    expect(feedPage.ratioRange).toEqual([0.5, 1.5]);
    expect(caughtUp.ratio).toBe(1);
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

describe('the request log\'s cost', () => {
  /** The sandbox without its log in the same three rounds of (a) and (b), at the large size. */
  const withoutLog = (rates: number[]) =>
    (['feedPage', 'caughtUp'] as const).flatMap((scenario) => rates.map((rate, n) => run('sandbox-log-off', scenario, SIZES.large, n + 1, rate)));

  it('compares the sandbox as served with the sandbox without its log, median to median, with the range of the rounds\' ratios', () => {
    const { requestLog } = judge(runs([100, 300, 200], [400, 400, 400], withoutLog([250, 200, 190])), SIZES);
    expect(requestLog).toBeDefined();
    expect(requestLog!.feedPage.on.reqPerSec).toBe(200);
    expect(requestLog!.feedPage.off.reqPerSec).toBe(200);
    expect(requestLog!.feedPage.ratio).toBe(1);
    expect(requestLog!.feedPage.ratioRange).toEqual([0.4, 1.5]);
    expect(requestLog!.feedPage.met).toBe(true);
    expect(requestLog!.caughtUp.target).toBe('>= 0.95');
  });

  it('fails a log that costs more than 5 %', () => {
    const { requestLog } = judge(runs([190, 190, 190], [400, 400, 400], withoutLog([200, 200, 200])), SIZES);
    // 190 / 200 = 0.95 is at the limit; 189 is past it.
    expect(requestLog!.caughtUp.ratio).toBe(0.95);
    expect(requestLog!.caughtUp.met).toBe(true);
    expect(judge(runs([189, 189, 189], [400, 400, 400], withoutLog([200, 200, 200])), SIZES).requestLog!.caughtUp.met).toBe(false);
  });

  it('is absent when the sandbox without its log was not measured (a run with --request-log off, or an older run)', () => {
    expect(judge(runs([100, 300, 200], [200, 200, 400]), SIZES).requestLog).toBeUndefined();
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
    expect(written).toContain('| feed page (50, random cursor) | PostgreSQL | sandbox | 1,000 | 200 | 100–300 (100.0%) |');
    expect(() => withBenchTables('no markers', report('sqlite'))).toThrow(/<!-- bench:sqlite:start -->/);
  });

  it('show the sandbox without its log and what the log costs, when the run measured them', () => {
    const measured = { ...report('sqlite'), results: judge(runs([100, 300, 200], [400, 400, 400], (['feedPage', 'caughtUp'] as const).flatMap((scenario) => [250, 200, 190].map((rate, n) => run('sandbox-log-off', scenario, SIZES.large, n + 1, rate)))), SIZES) };
    const table = formatMarkdown(measured);
    expect(table).toContain('| feed page (50, random cursor) | SQLite | sandbox, log off | 1,000 | 200 | 190–250 (30.0%) |');
    expect(table).toContain('| caught-up poll (empty page) | SQLite | sandbox, log off | 1,000 | 200 |');
    expect(table).toContain("| request log's cost on (a): sandbox / sandbox without it, req/s | 1.00 | 0.40–1.50 | ≥ 0.95 | yes |");
    expect(table).toContain("| request log's cost on (b): sandbox / sandbox without it, req/s | 1.00 | 0.40–1.50 | ≥ 0.95 | yes |");
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
});
