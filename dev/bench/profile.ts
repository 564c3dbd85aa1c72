/**
 * Where a server spends its time under the benchmark's load: runs one server child with
 * `node --cpu-prof`, applies one scenario for a few seconds after a warm-up, and
 * summarises the samples of the measured part (see `cpu-profile.ts`).
 *
 *   npx tsx dev/bench/profile.ts [--server sandbox|baseline] [--scenario feedPage|caughtUp]
 *                                   [--orders N] [--duration S] [--connections N] [--top N]
 *                                   [--request-log on|off]
 *
 * The sandbox keeps its request log (D48) as `waybill serve` does unless `--request-log off`.
 *
 * Writes the profiles to `reports/bench/profiles/<server>-<scenario>-<stamp>/` (open the
 * main thread's, `CPU.*.<pid>.0.*.cpuprofile`, in Chrome DevTools or speedscope) and the
 * summary beside them as `summary.json`.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDatabase } from './build-db.ts';
import { requireFreshBuild } from './served.ts';
import { killChildren, startChild } from './children.ts';
import { formatProfile, summarizeProfile } from './cpu-profile.ts';
import { sampleCursors } from './cursors.ts';
import { measure } from './load.ts';

const PROFILE_DIR = 'reports/bench/profiles';

const HELP = `npx tsx dev/bench/profile.ts [options]

  --server S         sandbox (default) or baseline (the bare node:http ceiling)
  --scenario S       feedPage (default: a page of 50 at random cursors) or caughtUp (an empty page)
  --orders N         the benchmark database's size (default 1000000)
  --duration S       seconds profiled, after 2 s of warm-up (default 8)
  --connections N    concurrent connections (default 10)
  --top N            entries in each list of the summary (default 25)
  --request-log M    the sandbox's request log: on (default, as waybill serve runs) or off

The servers run the compiled dist/ of \`npm run build\` (WAYBILL_BENCH_CODE=sources for the
TypeScript through tsx). Profiles and summary.json go to reports/bench/profiles/.
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: 'sandbox' },
      scenario: { type: 'string', default: 'feedPage' },
      orders: { type: 'string', default: '1000000' },
      duration: { type: 'string', default: '8' },
      connections: { type: 'string', default: '10' },
      top: { type: 'string', default: '25' },
      'request-log': { type: 'string', default: 'on' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const requestLog = values['request-log'];
  if (requestLog !== 'on' && requestLog !== 'off') throw new Error(`--request-log must be on or off, not ${requestLog}`);
  if (values.server !== 'sandbox' && values.server !== 'baseline') throw new Error(`--server must be sandbox or baseline, not ${values.server}`);
  if (values.scenario !== 'feedPage' && values.scenario !== 'caughtUp') throw new Error(`--scenario must be feedPage or caughtUp, not ${values.scenario}`);
  const server = values.server;
  const scenario = values.scenario;
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  requireFreshBuild();
  const database = await benchDatabase(Number(values.orders), { progress });
  const cursors = sampleCursors(database.file, database.tenantId, 4000, 50);
  const name = `${server}-${scenario}${server === 'sandbox' ? `-log-${requestLog}` : ''}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  // One folder per run: tsx's loader thread writes a profile of its own beside the main thread's.
  const dir = join(PROFILE_DIR, name);
  const child = await startChild(
    server,
    server === 'sandbox' ? './serve-sandbox.ts' : './serve-baseline.ts',
    ['--db', database.file, ...(server === 'baseline' ? ['--tenant', database.tenantId] : ['--request-log', requestLog])],
    { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] },
  );
  const keys = database.keys; // the baseline ignores them, but gets the same requests
  const targetCursors = scenario === 'feedPage' ? cursors.pages : [cursors.caughtUp];
  const settings = { connections: Number(values.connections), pipelining: 1, warmupS: 0 };
  let window: { fromUs: number; toUs: number };
  try {
    progress(`profiling ${server}${server === 'sandbox' ? ` (request log ${requestLog})` : ''} ${scenario} at ${database.orders.toLocaleString('en-US')} orders: 2 s warm-up + ${values.duration} s`);
    await measure(child, '/api/v1/integration/orders?limit=50', targetCursors, keys, { ...settings, durationS: 2 });
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    const figures = await measure(child, '/api/v1/integration/orders?limit=50', targetCursors, keys, { ...settings, durationS: Number(values.duration) });
    window = { fromUs, toUs: Number(process.hrtime.bigint() / 1000n) };
    progress(`  ${figures.reqPerSec.toFixed(0)} req/s under the profiler, p99 ${figures.latencyMs.p99} ms, ${figures.non2xx} non-2xx`);
  } finally {
    await child.stop();
  }
  // Node names profiles CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; the main thread is 0.
  const main = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile') && entry.split('.').at(-3) === '0');
  if (main === undefined) throw new Error(`no main-thread profile in ${dir}`);
  const file = join(dir, main);
  const summary = summarizeProfile(file, window, Number(values.top));
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`${formatProfile(summary)}\n\nprofile: ${file}\n`);
}

process.once('exit', killChildren);
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    killChildren();
    process.exit(code);
  });
}
main().catch((error: unknown) => {
  process.stderr.write(`profile: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
