/**
 * Two servers side by side, for a change too small for `npm run bench` to see on a shared
 * machine: each is measured in short slices, in turn (A B, then B A, …), and every slice of B
 * is divided by the slice of A beside it, so that the machine's drift from one minute to the
 * next falls on both sides of each ratio. The figures are the medians of those ratios, with
 * their range: of the CPU each side spent per answered request (from /proc: its process with
 * all its threads, its event loop alone, and on PostgreSQL the database's processes), which
 * the targets of issue 42 judge, and of their req/s, shown beside. On SQLite each sandbox gets
 * a folder of its own under `.waybill/bench/ab/`, so that their request logs are two files; on
 * PostgreSQL (`--db postgres`, a throwaway cluster) both use the benchmark database's copy.
 *
 *   npx tsx dev/bench/ab.ts [--a SPEC] [--b SPEC] [--scenario caughtUp|feedPage] [--slices N] [--duration S] [--db sqlite|postgres|URL]
 *
 * A SPEC is `SERVER` or `SERVER@DIR`: SERVER is sandbox (as `waybill serve` runs it),
 * sandbox-log-off, or baseline (the bare `node:http` ceiling of `npm run bench`); DIR is a
 * built waybill checkout (`npm run build` there), this one by default. So
 * `--a sandbox@../waybill-before --b sandbox` measures a change of the sandbox, and
 * `--a sandbox-log-off --b sandbox` what its request log costs.
 */
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchDatabase, BENCH_DIR } from './build-db.ts';
import { killChildren, type ServerChild, startChild } from './children.ts';
import { sampleCursors } from './cursors.ts';
import { benchEngine } from './engine.ts';
import { type CpuPerRequest, cpuTotal, measure } from './load.ts';
import { median } from './report.ts';
import { requireFreshBuild } from './served.ts';

const HELP = `npx tsx dev/bench/ab.ts [options]

  --a SPEC          the side every ratio is over (default baseline)
  --b SPEC          the side compared with it (default sandbox)
                    SPEC: SERVER or SERVER@DIR; SERVER is sandbox, sandbox-log-off or
                    baseline; DIR a built waybill checkout (default: this one)
  --scenario S      caughtUp (default: an empty last page) or feedPage (50 at random cursors)
  --slices N        measured slices of each side (default 12)
  --duration S      seconds per slice (default 2), after one 2 s warm-up slice each
  --orders N        the benchmark database's size (default 1000000)
  --connections N   concurrent connections (default 10)
  --db E            sqlite (default), postgres (a throwaway cluster of the machine's
                    binaries) or a postgres:// URL; both sides serve the same database

Prints each side's median CPU µs per answered request (its process with all its threads, its
event loop alone, the database's processes on PostgreSQL) and req/s, then the medians of the
slices' B/A ratios with their range: CPU a request (server and database together) first,
req/s after. The servers run the compiled dist/ of each checkout.
`;

const SERVERS = ['sandbox', 'sandbox-log-off', 'baseline'] as const;
type Server = (typeof SERVERS)[number];

/** One side of the comparison: a server and the checkout it runs from. */
export interface Side {
  server: Server;
  dir: string;
}

const here = fileURLToPath(new URL('../../', import.meta.url));

/** `SERVER` or `SERVER@DIR` as a side; throws on an unknown server. */
export function parseSide(spec: string, cwd = process.cwd()): Side {
  const at = spec.indexOf('@');
  const server = at === -1 ? spec : spec.slice(0, at);
  if (!(SERVERS as readonly string[]).includes(server)) throw new Error(`a side is ${SERVERS.join(', ')}, optionally @DIR; not ${spec}`);
  return { server: server as Server, dir: at === -1 ? here : resolve(cwd, spec.slice(at + 1)) };
}

/** The median and range of `b[i] / a[i]` over the slices both sides have. */
export function pairedRatios(a: readonly number[], b: readonly number[]): { median: number; min: number; max: number; pairs: number } {
  const ratios = b.slice(0, a.length).map((value, i) => value / a[i]!);
  if (ratios.length === 0) throw new Error('no pair of slices to compare');
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), pairs: ratios.length };
}

/** Per slice: req/s, and the CPU µs a request (null without /proc). */
interface Slice {
  reqPerSec: number;
  cpuUs: CpuPerRequest;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      a: { type: 'string', default: 'baseline' },
      b: { type: 'string', default: 'sandbox' },
      scenario: { type: 'string', default: 'caughtUp' },
      slices: { type: 'string', default: '12' },
      duration: { type: 'string', default: '2' },
      orders: { type: 'string', default: '1000000' },
      connections: { type: 'string', default: '10' },
      db: { type: 'string', default: 'sqlite' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const whole = (name: string, text: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number of at least 1, not ${text}`);
    return n;
  };
  if (values.scenario !== 'caughtUp' && values.scenario !== 'feedPage') throw new Error(`--scenario must be caughtUp or feedPage, not ${values.scenario}`);
  const slices = whole('slices', values.slices);
  const settings = { connections: whole('connections', values.connections), durationS: whole('duration', values.duration), warmupS: 0, pipelining: 1 };
  const sides = [parseSide(values.a), parseSide(values.b)];
  for (const side of sides) requireFreshBuild(side.dir);

  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const engine = await benchEngine(values.db, progress);
  try {
    await compareSides(engine, sides, values.scenario, slices, settings, whole('orders', values.orders), progress);
  } finally {
    engine.close();
  }
}

/** Measures the two sides in turn, `slices` times each, and prints the figures. */
async function compareSides(
  engine: Awaited<ReturnType<typeof benchEngine>>,
  sides: Side[],
  scenario: 'caughtUp' | 'feedPage',
  slices: number,
  settings: { connections: number; durationS: number; warmupS: number; pipelining: number },
  orders: number,
  progress: (line: string) => void,
): Promise<void> {
  const database = await benchDatabase(orders, { progress });
  const cursors = sampleCursors(database.file, database.tenantId, 2000, 50);
  const targets = scenario === 'caughtUp' ? [cursors.caughtUp] : cursors.pages;
  const target = await engine.target(database);
  const databasePid = await engine.databasePid(database);
  const path = '/api/v1/integration/orders?limit=50';

  const children: (ServerChild & { databasePid: number | null })[] = [];
  for (const [n, side] of sides.entries()) {
    const script = join(side.dir, 'dev/bench', side.server === 'baseline' ? 'serve-baseline.ts' : 'serve-sandbox.ts');
    let args: string[];
    if (side.server === 'baseline') args = ['--db', target, '--tenant', database.tenantId];
    else if (engine.name === 'postgres') args = ['--db', target, '--request-log', side.server === 'sandbox' ? 'on' : 'off'];
    else {
      // A folder of the side's own: its request log is a file beside the database's name.
      const folder = join(BENCH_DIR, 'ab', n === 0 ? 'a' : 'b');
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      const file = join(folder, 'orders.db');
      symlinkSync(resolve(database.file), file);
      args = ['--db', file, '--request-log', side.server === 'sandbox' ? 'on' : 'off'];
    }
    children.push({ ...(await startChild(n === 0 ? 'A' : 'B', script, args)), databasePid });
  }
  await engine.warm(target);
  for (const child of children) await measure(child, path, targets, database.keys, { ...settings, durationS: 2 });

  const measured: Slice[][] = [[], []];
  for (let round = 0; round < slices; round++) {
    for (const n of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const figures = await measure(children[n]!, path, targets, database.keys, settings);
      if (figures.non2xx + figures.errors > 0) throw new Error(`${n === 0 ? 'A' : 'B'} answered ${figures.non2xx} non-2xx and ${figures.errors} errors`);
      measured[n]!.push({ reqPerSec: figures.reqPerSec, cpuUs: figures.cpuUs! });
    }
    const last = (n: number) => measured[n]!.at(-1)!;
    const cpuText = (slice: Slice) => { const cpu = cpuTotal(slice.cpuUs); return cpu === null ? '' : `, ${cpu.toFixed(1)} µs`; };
    progress(`slice ${round + 1}/${slices}: A ${last(0).reqPerSec.toFixed(0)} req/s${cpuText(last(0))}, B ${last(1).reqPerSec.toFixed(0)} req/s${cpuText(last(1))}`);
  }
  await Promise.all(children.map((child) => child.stop()));

  const describe = (side: Side) => `${side.server}${side.dir === here ? '' : `@${side.dir}`}`;
  const medianOf = (values: (number | null)[]) => {
    const known = values.filter((value): value is number => value !== null);
    return known.length === 0 ? 'n/a' : median(known).toFixed(1);
  };
  for (const [n, side] of sides.entries()) {
    const rows = measured[n]!;
    const rates = rows.map((slice) => slice.reqPerSec);
    const database = rows.some((slice) => slice.cpuUs.database !== null) ? `, ${medianOf(rows.map((slice) => slice.cpuUs.database))} µs database` : '';
    process.stdout.write(
      `${n === 0 ? 'A' : 'B'} ${describe(side)}: CPU a request ${medianOf(rows.map((slice) => slice.cpuUs.process))} µs process, ` +
        `${medianOf(rows.map((slice) => slice.cpuUs.eventLoop))} µs event loop${database}; ` +
        `${median(rates).toFixed(0)} req/s (${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)})\n`,
    );
  }
  const pairs = `${Math.min(measured[0]!.length, measured[1]!.length)} pairs of ${settings.durationS} s, ${scenario}`;
  const cpu = measured.map((rows) => rows.map((slice) => cpuTotal(slice.cpuUs)));
  if (cpu.every((rows) => rows.every((value) => value !== null))) {
    const ratio = pairedRatios(cpu[0] as number[], cpu[1] as number[]);
    const eventLoop = measured.map((rows) => rows.map((slice) => slice.cpuUs.eventLoop ?? NaN));
    const loop = pairedRatios(eventLoop[0]!, eventLoop[1]!);
    process.stdout.write(`B / A, CPU a request${engine.name === 'postgres' ? ' (server and database)' : ''}: ${ratio.median.toFixed(3)} (slices ${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)}); event loop alone ${loop.median.toFixed(3)} (${loop.min.toFixed(2)}–${loop.max.toFixed(2)}); ${pairs}\n`);
  }
  const rate = pairedRatios(measured[0]!.map((slice) => slice.reqPerSec), measured[1]!.map((slice) => slice.reqPerSec));
  process.stdout.write(`B / A, req/s: ${rate.median.toFixed(3)} (slices ${rate.min.toFixed(2)}–${rate.max.toFixed(2)}); ${pairs}\n`);
}

// Run as a script only (the test imports the helpers).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.once('exit', killChildren);
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`ab: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    },
  );
}
