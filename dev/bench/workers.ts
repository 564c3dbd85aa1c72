/**
 * `npm run bench:workers`: how the sandbox scales with processes on PostgreSQL (D83). The
 * real sandbox with 1 and with 2 workers on one port, and the bare ceiling doing the same
 * feed SQL, under the same autocannon load as `npm run bench`: (a) a feed page of 50 at
 * random cursors and (b) a caught-up poll, over 1,000,000 orders. Servers take turns, the
 * order rotating each round; each figure is the median of its rounds, with their spread.
 * Each server's CPU per answered request is read from /proc: its processes (the primary and
 * every worker, all their threads), their event loops alone, and PostgreSQL's processes; the
 * ratio of each sandbox's to the ceiling's (server and database together) is printed beside the
 * req/s ratios (issue 42). Figures go to the console and `reports/bench/workers-<stamp>.json`;
 * no target, no assertion.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDatabase } from './build-db.ts';
import { requireFreshBuild } from './served.ts';
import { killChildren, type ServerChild, startChild } from './children.ts';
import { sampleCursors } from './cursors.ts';
import { benchEngine } from './engine.ts';
import { cpuTotal, measure, type RunFigures } from './load.ts';
import { treeRssMb, waitForQuiet } from './machine.ts';
import { median } from './report.ts';

const PAGE_PATH = '/api/v1/integration/orders?limit=50';
const HELP = `npm run bench:workers [-- options]

  --db E             postgres (default: a throwaway cluster of the machine's binaries) or a
                     postgres:// URL of a server on which the benchmark databases are kept
  --workers LIST     the worker counts to compare (default 1,2)
  --quick            100,000 orders, 3 s runs, one round (a smoke run)
  --duration S       seconds per measured run (default 10)
  --rounds N         rounds; each figure is their median (default 3)
  --connections N    concurrent connections (default 10)
`;
const progress = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'postgres' },
      workers: { type: 'string', default: '1,2' },
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string', default: '10' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const counts = values.workers.split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 64)) throw new Error(`--workers is a list of whole numbers from 1 to 64, not ${values.workers}`);
  if (values.db === 'sqlite') throw new Error('--db: several workers need PostgreSQL (D83)');
  const settings = {
    connections: Number(values.connections),
    durationS: Number(values.duration ?? (values.quick ? 3 : 10)),
    warmupS: values.quick ? 1 : 2,
    pipelining: 1,
  };
  const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
  const engine = await benchEngine(values.db, progress);
  const started: ServerChild[] = [];
  try {
    requireFreshBuild();
    const database = await benchDatabase(values.quick ? 100_000 : 1_000_000, { progress });
    const cursors = sampleCursors(database.file, database.tenantId, 4000, 50);
    const target = await engine.target(database);
    const databasePid = await engine.databasePid(database);
    const servers: (ServerChild & { label: string; databasePid: number | null })[] = [];
    for (const n of counts) {
      const child = await startChild(`sandbox ×${n}`, './serve-sandbox.ts', ['--db', target, '--workers', String(n)]);
      started.push(child);
      servers.push({ ...child, label: `sandbox, ${n} worker${n === 1 ? '' : 's'}`, databasePid });
    }
    const baseline = await startChild('baseline', './serve-baseline.ts', ['--db', target, '--tenant', database.tenantId]);
    started.push(baseline);
    servers.push({ ...baseline, label: 'baseline (one process)', databasePid });
    await engine.warm(target);

    const runs: { scenario: string; label: string; round: number; figures: RunFigures }[] = [];
    for (const [scenario, targets] of [['feedPage', cursors.pages], ['caughtUp', [cursors.caughtUp]]] as const) {
      for (let round = 1; round <= rounds; round++) {
        // Each round starts with the next server: none always runs first.
        const order = servers.map((_, i) => servers[(i + round - 1) % servers.length]!);
        for (const server of order) {
          await waitForQuiet({ onWait: (busy) => progress(`waiting for other work on the machine to finish (${Math.round(busy)}% of a core busy)`) });
          progress(`running ${scenario} ${server.label}, round ${round}/${rounds}`);
          const figures = await measure(server, PAGE_PATH, targets, database.keys, settings);
          const bad = figures.non2xx + figures.errors + figures.timeouts;
          progress(`  ${figures.reqPerSec.toFixed(0)} req/s, p99 ${figures.latencyMs.p99.toFixed(2)} ms, CPU a request ${figures.cpuUs?.process ?? 'n/a'} µs + database ${figures.cpuUs?.database ?? 'n/a'} µs, server CPU ${figures.serverCpuPct}%, database CPU ${figures.databaseCpuPct}%, other CPU ${figures.otherCpuPct}%${bad > 0 ? `, ${bad} NOT 2xx / errors` : ''}`);
          runs.push({ scenario, label: server.label, round, figures });
        }
      }
    }
    // Memory once every run is done: the primary and its workers, each holding its caches and pools.
    const memoryMb = new Map(servers.map((server) => [server.label, treeRssMb(server.pid)]));
    const rows = ['feedPage', 'caughtUp'].flatMap((scenario) =>
      servers.map((server) => {
        const mine = runs.filter((run) => run.scenario === scenario && run.label === server.label).map((run) => run.figures);
        const rates = mine.map((f) => f.reqPerSec);
        const cpu = (pick: (f: RunFigures) => number | null | undefined) => {
          const known = mine.map(pick).filter((value): value is number => typeof value === 'number');
          return known.length === 0 ? null : Math.round(median(known) * 10) / 10;
        };
        return {
          scenario,
          server: server.label,
          reqPerSec: median(rates),
          range: [Math.min(...rates), Math.max(...rates)],
          p99Ms: median(mine.map((f) => f.latencyMs.p99)),
          serverCpuPct: median(mine.map((f) => f.serverCpuPct ?? 0)),
          databaseCpuPct: median(mine.map((f) => f.databaseCpuPct ?? 0)),
          memoryMb: memoryMb.get(server.label) ?? null,
          cpuUs: { total: cpu((f) => cpuTotal(f.cpuUs)), process: cpu((f) => f.cpuUs?.process), eventLoop: cpu((f) => f.cpuUs?.eventLoop), database: cpu((f) => f.cpuUs?.database) },
        };
      }),
    );
    const row = (scenario: string, label: string) => rows.find((r) => r.scenario === scenario && r.server === label)!;
    const rate = (scenario: string, label: string) => row(scenario, label).reqPerSec;
    const first = servers[0]!.label;
    const ceiling = servers.at(-1)!.label;
    const ratios = ['feedPage', 'caughtUp'].flatMap((scenario) => servers.slice(1, -1).map((server) => ({ scenario, of: `${server.label} / ${first}, req/s`, ratio: Math.round((rate(scenario, server.label) / rate(scenario, first)) * 100) / 100 })));
    // CPU a request, server and database together, of each sandbox over the ceiling's (issue 42).
    for (const scenario of ['feedPage', 'caughtUp']) {
      for (const server of servers.slice(0, -1)) {
        const [mine, theirs] = [row(scenario, server.label).cpuUs.total, row(scenario, ceiling).cpuUs.total];
        if (mine !== null && theirs !== null) ratios.push({ scenario, of: `${server.label} / ${ceiling}, CPU µs a request`, ratio: Math.round((mine / theirs) * 100) / 100 });
      }
    }
    const machine = `${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model.trim()} x${availableParallelism()}, node ${process.version}, ${await engine.version(database)}; ${database.orders.toLocaleString('en-US')} orders; ${settings.connections} connections, ${settings.durationS} s per run, median of ${rounds} rounds`;
    const table = [
      machine,
      '',
      '| scenario | server | CPU µs/request (server and database) | event loop µs | database µs | req/s | rounds: req/s | p99 ms | server CPU | database CPU | server memory |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => {
        const us = (n: number | null) => (n === null ? 'n/a' : n.toFixed(0));
        return `| ${r.scenario === 'feedPage' ? 'feed page (50, random cursor)' : 'caught-up poll (empty page)'} | ${r.server} | ${us(r.cpuUs.total)} | ${us(r.cpuUs.eventLoop)} | ${us(r.cpuUs.database)} | ${r.reqPerSec.toFixed(0)} | ${r.range.map((n) => n.toFixed(0)).join('–')} | ${r.p99Ms.toFixed(2)} | ${Math.round(r.serverCpuPct)}% | ${Math.round(r.databaseCpuPct)}% | ${r.memoryMb === null ? 'n/a' : `${r.memoryMb} MB`} |`;
      }),
      '',
      ...ratios.map((r) => `${r.scenario === 'feedPage' ? '(a) feed page' : '(b) caught-up poll'}: ${r.of} = ${r.ratio}`),
    ].join('\n');
    mkdirSync('reports/bench', { recursive: true });
    const path = join('reports/bench', `workers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(path, `${JSON.stringify({ machine, settings, rounds, rows, ratios, runs }, null, 2)}\n`);
    process.stdout.write(`\n${table}\n\nwritten: ${path}\n`);
    return runs.some((run) => run.figures.non2xx + run.figures.errors + run.figures.timeouts > 0) ? 1 : 0;
  } finally {
    await Promise.all(started.map((child) => child.stop()));
    engine.close();
  }
}

process.once('exit', killChildren);
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:workers: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
