/**
 * Two servers side by side, for a change too small for `npm run bench` to see on a shared
 * machine: each is measured in short slices, in turn (A B, then B A, …), and every slice of B
 * is divided by the slice of A beside it, so that the machine's drift from one minute to the
 * next falls on both sides of each ratio. The figure is the median of those ratios, with their
 * range; beside it each side's median req/s and, from /proc, the CPU its process used per
 * request (the event loop's thread, and all its threads). SQLite only: each sandbox gets a
 * folder of its own under `.waybill/bench/ab/`, so that their request logs are two files.
 *
 *   npx tsx dev/bench/ab.ts [--a SPEC] [--b SPEC] [--scenario caughtUp|feedPage] [--slices N] [--duration S]
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
import { measure } from './load.ts';
import { cpuSeconds, threadCpuSeconds } from './machine.ts';
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

Prints each side's median req/s and CPU per request, and the median of the slices' B/A ratios
with their range. The servers run the compiled dist/ of each checkout.
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

/** Per slice: req/s, and the CPU µs a request of the event loop's thread and of the whole process (null without /proc). */
interface Slice {
  reqPerSec: number;
  mainUs: number | null;
  processUs: number | null;
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
  const database = await benchDatabase(whole('orders', values.orders), { progress });
  const cursors = sampleCursors(database.file, database.tenantId, 2000, 50);
  const targets = values.scenario === 'caughtUp' ? [cursors.caughtUp] : cursors.pages;
  const path = '/api/v1/integration/orders?limit=50';

  const children: ServerChild[] = [];
  for (const [n, side] of sides.entries()) {
    const script = join(side.dir, 'dev/bench', side.server === 'baseline' ? 'serve-baseline.ts' : 'serve-sandbox.ts');
    let args: string[];
    if (side.server === 'baseline') args = ['--db', database.file, '--tenant', database.tenantId];
    else {
      // A folder of the side's own: its request log is a file beside the database's name.
      const folder = join(BENCH_DIR, 'ab', n === 0 ? 'a' : 'b');
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      const file = join(folder, 'orders.db');
      symlinkSync(resolve(database.file), file);
      args = ['--db', file, '--request-log', side.server === 'sandbox' ? 'on' : 'off'];
    }
    children.push(await startChild(n === 0 ? 'A' : 'B', script, args));
  }
  for (const child of children) await measure(child, path, targets, database.keys, { ...settings, durationS: 2 });

  const measured: Slice[][] = [[], []];
  for (let round = 0; round < slices; round++) {
    for (const n of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const { pid } = children[n]!;
      const [main0, all0] = [threadCpuSeconds(pid, pid), cpuSeconds(pid)];
      const figures = await measure(children[n]!, path, targets, database.keys, settings);
      const [main1, all1] = [threadCpuSeconds(pid, pid), cpuSeconds(pid)];
      const perRequest = (from: number | null, to: number | null) => (from === null || to === null ? null : ((to - from) * 1e6) / figures.requests);
      if (figures.non2xx + figures.errors > 0) throw new Error(`${n === 0 ? 'A' : 'B'} answered ${figures.non2xx} non-2xx and ${figures.errors} errors`);
      measured[n]!.push({ reqPerSec: figures.reqPerSec, mainUs: perRequest(main0, main1), processUs: perRequest(all0, all1) });
    }
    progress(`slice ${round + 1}/${slices}: A ${measured[0]!.at(-1)!.reqPerSec.toFixed(0)} req/s, B ${measured[1]!.at(-1)!.reqPerSec.toFixed(0)} req/s`);
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
    process.stdout.write(
      `${n === 0 ? 'A' : 'B'} ${describe(side)}: ${median(rates).toFixed(0)} req/s (${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}), ` +
        `CPU a request ${medianOf(rows.map((slice) => slice.mainUs))} µs event loop, ${medianOf(rows.map((slice) => slice.processUs))} µs process\n`,
    );
  }
  const ratio = pairedRatios(measured[0]!.map((slice) => slice.reqPerSec), measured[1]!.map((slice) => slice.reqPerSec));
  process.stdout.write(`B / A: ${ratio.median.toFixed(3)} (slices ${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)}, ${ratio.pairs} pairs of ${settings.durationS} s, ${values.scenario})\n`);
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
