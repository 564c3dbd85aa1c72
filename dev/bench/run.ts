/**
 * `npm run bench`: the order feed of the real sandbox process against a bare `node:http`
 * ceiling doing the same SQL and serialisation, under autocannon. Judged on CPU per answered
 * request (issue 42), read from /proc for the server's process (all threads) and, on
 * PostgreSQL, the database's processes:
 *
 *   (a) a page of 50 orders at random cursors, 1,000,000 orders   sandbox/ceiling CPU <= 1.15 (PostgreSQL 1.3)
 *   (b) a caught-up poll (empty page), same database               sandbox/ceiling CPU <= 1.4 (PostgreSQL 1.5)
 *   (c) the sandbox's p99 page latency at 1,000,000 vs 10,000      <= 1.2x
 *
 * With the request log on (the default), (a) and (b) also run the sandbox with its log off in
 * the same rounds: the difference is the log's own CPU (on SQLite at most 5 % of a page's, 10 %
 * of a poll's). `--peers` also runs `waybill mock` (Prism) on (a) and (b): the sandbox should
 * answer 1.5 times its requests at 0.6 of its CPU a request. Throughput ratios are printed
 * beside, with no goal: on a shared 2-core machine they move by ±10 % from run to run.
 * The servers run one at a time, alternating which goes first in each round; each figure
 * is the median of its rounds, shown with their spread. The sandbox keeps its request log (D48) as `waybill serve` does unless
 * `--request-log off`. A run that other work on the machine disturbed is run again. Figures go
 * to the console and `reports/bench/`. These are targets for the benchmark, not
 * assertions: the exit code is 1 only when an answer was not 2xx.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, cpus, platform, release, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { type BenchDatabase, benchDatabase } from './build-db.ts';
import { killChildren, type ServerChild, startChild } from './children.ts';
import { requireFreshBuild, servedCode } from './served.ts';
import { type FeedCursors, sampleCursors } from './cursors.ts';
import { type BenchEngine, benchEngine } from './engine.ts';
import { type LoadSettings, measure } from './load.ts';
import { waitForQuiet } from './machine.ts';
import { type BenchReport, isQuiet, judge, notesOf, problemsOf, type RunRecord, type Scenario, type ServerName } from './report.ts';
import { DOC_RUNS, formatMarkdown, formatSummary, formatTable, PERFORMANCE_DOC, SUMMARY_FILES, withBenchTables, withSummary, writeDocRun, writeReport } from './report-format.ts';

const PAGE_LIMIT = 50;
const FEED_PATH = `/api/v1/integration/orders?limit=${PAGE_LIMIT}`;
const CURSORS_PER_DATABASE = 4000;
/** Extra attempts at a disturbed run (after the first round, only while the server has no undisturbed run). */
const MAX_RETRIES = 4;

const HELP = `npm run bench [-- options]

  --quick            10,000 and 100,000 orders, 3 s runs, one round (a smoke run)
  --duration S       seconds per measured run (default 10; 3 with --quick)
  --connections N    concurrent connections (default 10)
  --rounds N         rounds per comparison; each figure is their median, shown with
                     their spread (default 3; 1 with --quick)
  --rebuild          rebuild the benchmark databases under .waybill/bench/
  --request-log M    the sandbox's request log: on (default, as waybill serve runs; (a) and
                     (b) then also run the sandbox without it, for what the log costs) or off
  --docs             write this run's tables into docs/performance.md, between the markers
                     <!-- bench:ENGINE:start --> and <!-- bench:ENGINE:end -->
  --db E             the engine: sqlite (default), postgres (a throwaway cluster of the
                     machine's PostgreSQL binaries), or a postgres:// URL of a server on
                     which the benchmark databases are copied and kept
  --peers            also run waybill mock (Prism, the contract's examples) on (a) and (b),
                     in the same rounds: the sandbox against the tool a user might pick instead

Each server's CPU µs per answered request is read from /proc (its process with all its
threads, its event loop alone, and PostgreSQL's processes); the targets compare those, and
the req/s ratios are shown beside them.

The servers run the compiled dist/ of \`npm run build\`, as waybill serve does (it must be
newer than the sources); WAYBILL_BENCH_CODE=sources runs the TypeScript through tsx instead.
`;

const progress = (line: string) => process.stderr.write(`${line}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      connections: { type: 'string', default: '10' },
      rounds: { type: 'string' },
      rebuild: { type: 'boolean', default: false },
      docs: { type: 'boolean', default: false },
      'request-log': { type: 'string', default: 'on' },
      db: { type: 'string', default: 'sqlite' },
      peers: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const whole = (name: string, text: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number of at least 1, not ${text}`);
    return n;
  };
  const settings: LoadSettings & { rounds: number } = {
    connections: whole('connections', values.connections),
    durationS: whole('duration', values.duration ?? (values.quick ? '3' : '10')),
    warmupS: values.quick ? 1 : 2,
    pipelining: 1,
    rounds: whole('rounds', values.rounds ?? (values.quick ? '1' : '3')),
  };
  const requestLog = values['request-log'];
  if (requestLog !== 'on' && requestLog !== 'off') throw new Error(`--request-log must be on or off, not ${requestLog}`);
  const sizes = values.quick ? { small: 10_000, large: 100_000 } : { small: 10_000, large: 1_000_000 };
  if (values.docs && values.quick) throw new Error('--docs takes a full run: a --quick one is a smoke run, not figures for docs/performance.md');
  return { help: values.help, rebuild: values.rebuild, docs: values.docs, db: values.db, settings: { ...settings, requestLog: requestLog as 'on' | 'off', peers: values.peers }, sizes };
}

/** Fails unless the servers all answer the same bytes, a full page at a random cursor and an empty one at the end. */
async function checkSameAnswers(servers: ServerChild[], cursors: FeedCursors, key: string): Promise<void> {
  const fetchText = async (server: ServerChild, cursor: string) => {
    const response = await fetch(`${server.url}${FEED_PATH}&cursor=${cursor}`, { headers: { 'x-api-key': key } });
    if (response.status !== 200) throw new Error(`${server.name} answered ${response.status}: ${await response.text()}`);
    return response.text();
  };
  for (const cursor of [cursors.pages[0]!, cursors.caughtUp]) {
    const bodies = await Promise.all(servers.map((server) => fetchText(server, cursor)));
    if (new Set(bodies).size !== 1) throw new Error('the sandbox and the baseline answer different pages for the same cursor');
    const page = JSON.parse(bodies[0]!) as { items: unknown[]; nextCursor: string | null };
    const full = cursor !== cursors.caughtUp;
    if (page.items.length !== (full ? PAGE_LIMIT : 0) || (page.nextCursor === null) === full) {
      throw new Error(`expected ${full ? 'a full page with a next cursor' : 'an empty last page'}, got ${page.items.length} items, nextCursor ${page.nextCursor}`);
    }
  }
}

/** Fails unless the peer answers a page request 200 with a page of items (the contract's example). */
async function checkPeerAnswers(peer: ServerChild, cursors: FeedCursors, key: string): Promise<void> {
  for (const cursor of [cursors.pages[0]!, cursors.caughtUp]) {
    const response = await fetch(`${peer.url}${FEED_PATH}&cursor=${cursor}`, { headers: { 'x-api-key': key } });
    const text = await response.text();
    if (response.status !== 200 || !Array.isArray((JSON.parse(text) as { items?: unknown }).items)) throw new Error(`${peer.name} answered ${response.status}: ${text.slice(0, 300)}`);
  }
}

/** Runs every round of `scenario` on `servers`, alternating who goes first; appends to `runs`. */
async function compare(
  runs: RunRecord[],
  scenario: Scenario,
  database: BenchDatabase,
  servers: (ServerChild & { name: ServerName })[],
  cursors: readonly string[],
  settings: LoadSettings & { rounds: number },
): Promise<void> {
  for (let round = 1; round <= settings.rounds; round++) {
    const order = round % 2 === 1 ? servers : [...servers].reverse();
    for (const server of order) {
      const label = `${scenario} ${server.name} ${database.orders.toLocaleString('en-US')} orders, round ${round}/${settings.rounds}`;
      for (let attempt = 0; ; attempt++) {
        const waited = await waitForQuiet({ onWait: (busy) => progress(`waiting for other work on the machine to finish (${Math.round(busy)}% of a core busy)`) });
        if (waited === null) progress('  the machine did not go quiet within a minute; measuring anyway');
        progress(`running ${label} (${settings.warmupS} s warm-up + ${settings.durationS} s)`);
        // The baseline gets the same requests, key header included: on PostgreSQL it takes the key's token as the sandbox does, else it ignores the key.
        const figures = await measure(server, FEED_PATH, cursors, database.keys, settings);
        runs.push({ server: server.name, scenario, orders: database.orders, round, figures });
        const bad = figures.non2xx + figures.errors + figures.timeouts;
        progress(
          `  ${figures.reqPerSec.toFixed(0)} req/s, p50 ${figures.latencyMs.p50.toFixed(2)} ms, p99 ${figures.latencyMs.p99.toFixed(2)} ms, ` +
            `CPU a request ${figures.cpuUs?.process ?? 'n/a'} µs (event loop ${figures.cpuUs?.eventLoop ?? 'n/a'} µs${figures.cpuUs?.database == null ? '' : `, database ${figures.cpuUs.database} µs`}), ` +
            `server CPU ${figures.serverCpuPct ?? 'n/a'}%, ${figures.databaseCpuPct === null ? '' : `database CPU ${figures.databaseCpuPct}%, `}load CPU ${figures.loadCpuPct}%, other CPU ${figures.otherCpuPct ?? 'n/a'}%` +
            `${bad > 0 ? `, ${bad} NOT 2xx / errors` : ''}`,
        );
        const quietBefore = runs.some((run) => run.server === server.name && run.scenario === scenario && run.orders === database.orders && isQuiet(run));
        if (isQuiet(runs.at(-1)!) || attempt >= MAX_RETRIES || (round > 1 && quietBefore)) break;
        progress(`  disturbed by other work on the machine; running it again`);
      }
    }
  }
}

async function main(): Promise<number> {
  const { help, rebuild, docs, db, settings, sizes } = options();
  if (help) {
    process.stdout.write(HELP);
    return 0;
  }
  requireFreshBuild();
  const engine = await benchEngine(db, progress);
  try {
    return await bench(engine, { rebuild, docs }, settings, sizes);
  } finally {
    engine.close();
  }
}

/** Builds (or reuses) the databases, measures every comparison on `engine`, and writes the report; answers the exit code. */
async function bench(engine: BenchEngine, { rebuild, docs }: { rebuild: boolean; docs: boolean }, settings: ReturnType<typeof options>['settings'], sizes: { small: number; large: number }): Promise<number> {
  const startedAtUtc = new Date().toISOString();
  const large = await benchDatabase(sizes.large, { rebuild, progress });
  const small = await benchDatabase(sizes.small, { rebuild, progress });
  progress(`sampling ${CURSORS_PER_DATABASE} cursors per database`);
  const largeCursors = sampleCursors(large.file, large.tenantId, CURSORS_PER_DATABASE, PAGE_LIMIT);
  const smallCursors = sampleCursors(small.file, small.tenantId, CURSORS_PER_DATABASE, PAGE_LIMIT);

  const runs: RunRecord[] = [];
  const started: ServerChild[] = [];
  const targets = new Map<BenchDatabase, string>();
  for (const database of [large, small]) targets.set(database, await engine.target(database));
  const databasePid = await engine.databasePid(large);
  const start = async (name: ServerName, database: BenchDatabase) => {
    const script = name === 'baseline' ? './serve-baseline.ts' : name === 'mock' ? './serve-mock.ts' : './serve-sandbox.ts';
    const args =
      name === 'mock' ? [] : ['--db', targets.get(database)!, ...(name === 'baseline' ? ['--tenant', database.tenantId] : ['--request-log', name === 'sandbox-log-off' ? 'off' : settings.requestLog])];
    const child = await startChild(name, script, args);
    started.push(child);
    return { ...child, name, databasePid };
  };
  try {
    // All start (and are checked) before any load, so a broken start fails in seconds; idle ones cost nothing.
    const sandbox = await start('sandbox', large);
    const baseline = await start('baseline', large);
    // What the request log costs: the same sandbox without it, in the same rounds (none to compare when it is off already).
    const withoutLog = settings.requestLog === 'on' ? [await start('sandbox-log-off', large)] : [];
    // The peer (--peers): the mock has no database of its own; its CPU is its process's and Prism's.
    const peers = settings.peers ? [{ ...(await start('mock', large)), databasePid: null }] : [];
    const smallSandbox = await start('sandbox', small);
    const smallBaseline = await start('baseline', small);
    await checkSameAnswers([sandbox, baseline, ...withoutLog], largeCursors, large.keys[0]!);
    await checkSameAnswers([smallSandbox, smallBaseline], smallCursors, small.keys[0]!);
    for (const peer of peers) await checkPeerAnswers(peer, largeCursors, large.keys[0]!);
    for (const database of [large, small]) await engine.warm(targets.get(database)!);
    await compare(runs, 'feedPage', large, [sandbox, baseline, ...withoutLog, ...peers], largeCursors.pages, settings);
    await compare(runs, 'caughtUp', large, [sandbox, baseline, ...withoutLog, ...peers], [largeCursors.caughtUp], settings);
    await compare(runs, 'feedPage', small, [smallSandbox, smallBaseline], smallCursors.pages, settings);
  } finally {
    await Promise.all(started.map((child) => child.stop()));
  }

  const report: BenchReport = {
    startedAtUtc,
    finishedAtUtc: new Date().toISOString(),
    machine: {
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      cores: availableParallelism(),
      memoryGb: Math.round(totalmem() / 2 ** 30),
      platform: `${platform()} ${release()}`,
      node: process.version,
      database: await engine.version(large),
    },
    settings: { ...settings, code: servedCode(), engine: engine.name, pageLimit: PAGE_LIMIT, cursorsPerDatabase: CURSORS_PER_DATABASE, keysRotated: large.keys.length, sizes },
    databases: [large, small].map((d) => ({
      orders: d.orders,
      liveOrders: d.liveOrders,
      file: d.file,
      megabytes: Math.round(d.bytes / 1e6),
      built: d.built,
      buildSeconds: d.built ? Math.round(d.buildMs / 100) / 10 : null,
    })),
    runs,
    results: judge(runs, sizes, engine.name),
    problems: problemsOf(runs),
    notes: [],
  };
  report.notes = notesOf(report.results);
  const paths = writeReport(report);
  // The guide's figures are a run's own, never figures copied by hand; not those of a run with bad answers.
  // The run is kept beside the code (dev/bench/doc-runs/), where a test holds the guide's tables to it.
  if (docs && report.problems.length === 0) {
    writeFileSync(PERFORMANCE_DOC, withBenchTables(readFileSync(PERFORMANCE_DOC, 'utf8'), report));
    paths.push(PERFORMANCE_DOC, writeDocRun(report));
    // The summary of both engines' kept runs, in the README and the guide.
    const kept = ['latest.json', 'latest-postgres.json'].flatMap((name) => (existsSync(join(DOC_RUNS, name)) ? [JSON.parse(readFileSync(join(DOC_RUNS, name), 'utf8')) as BenchReport] : []));
    for (const file of SUMMARY_FILES) {
      writeFileSync(file, withSummary(readFileSync(file, 'utf8'), formatSummary(kept), file));
      if (!paths.includes(file)) paths.push(file);
    }
  }
  const notes = report.notes.length === 0 ? '' : `\n\nnote: ${report.notes.join('\nnote: ')}`;
  process.stdout.write(`\n${formatTable(report)}${notes}\n\nTables for docs/performance.md:\n\n${formatMarkdown(report)}\n\nwritten: ${paths.join(', ')}\n`);
  if (report.problems.length > 0) {
    process.stderr.write(`\nFIGURES SUSPECT — answers that were not 2xx:\n${report.problems.map((p) => `  ${p}`).join('\n')}\n`);
    return 1;
  }
  return 0;
}

process.once('exit', killChildren);
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    killChildren();
    process.exit(code);
  });
}
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
