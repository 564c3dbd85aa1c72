/**
 * `npm run bench:start`: how quickly the compiled commands start, side by side with what
 * they are measured against, in one run.
 *
 *   serve  `waybill serve --db :memory:` from process start to its first HTTP answer,
 *          against Prism's mock of the same spec (`prism mock spec/openapi.yaml`)   target <= 0.4x
 *   help   `waybill --help` from process start to exit, against `node -e 0`           target <= 2x
 *
 * Each pair runs alternately, the order swapped every round, and the medians count. Both
 * sides are polled the same way (a GET every 5 ms until anything answers). Figures go to
 * the console and `reports/bench/start-latest.json`. Targets, not assertions: the exit
 * code is 1 only when a command failed to start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../mock/prism.ts';
import { packageFile } from '../../spec/package-files.ts';
import { waitForQuiet } from './machine.ts';

const HELP = `npm run bench:start [-- options]

  --rounds N     alternating rounds per pair (default 9)
  --no-prism     measure serve alone (no Prism comparison)
`;

const WAYBILL = packageFile('bin/waybill.js');
const PRISM = join(dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
// The compiled package, as a user runs it: never the sources.
const env = { ...process.env, WAYBILL_FROM_SOURCES: '' };

/** Milliseconds from spawning `args` to the first HTTP answer on `port`. */
async function timeToFirstAnswer(args: string[], port: number): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before answering\n${stderr}`))));
  try {
    for (;;) {
      const answered = await fetch(`http://127.0.0.1:${port}/api/v1/integration/orders`).then(
        async (response) => (await response.arrayBuffer(), true),
        () => false,
      );
      if (answered) return performance.now() - started;
      await Promise.race([new Promise((resolve) => setTimeout(resolve, 5)), exited]);
    }
  } finally {
    await stop(child);
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Milliseconds from spawning `args` to its exit (which must be 0). */
function timeToExit(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: 'ignore', env });
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited ${code}`)))),
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface Pair {
  name: string;
  subject: string;
  baseline: string;
  target: number;
  subjectMs: number[];
  baselineMs: number[];
}

/** Runs `subject` and `baseline` alternately for `rounds` rounds, the order swapped each round. */
async function alternate(pair: Omit<Pair, 'subjectMs' | 'baselineMs'>, rounds: number, subject: () => Promise<number>, baseline: (() => Promise<number>) | null): Promise<Pair> {
  const result: Pair = { ...pair, subjectMs: [], baselineMs: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ['subject', 'baseline'] : ['baseline', 'subject'];
    for (const side of order) {
      if (side === 'subject') result.subjectMs.push(await subject());
      else if (baseline !== null) result.baselineMs.push(await baseline());
    }
    if (process.stderr.isTTY) process.stderr.write(`\r${pair.name}: round ${round + 1}/${rounds}`);
  }
  process.stderr.write(`${process.stderr.isTTY ? '\r' : ''}${pair.name}: ${rounds} rounds done\n`);
  return result;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '9' }, 'no-prism': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number of at least 1, not ${values.rounds}`);
  if (!existsSync(packageFile('dist/bin/waybill.js'))) throw new Error('no compiled code in dist/: run `npm run build` first');
  const waited = await waitForQuiet({ timeoutS: 20, onWait: (busy) => process.stderr.write(`waiting for the machine to be quiet (${busy.toFixed(0)} % of a core busy)\n`) });
  if (waited === null) process.stderr.write('the machine stayed busy; measuring anyway (the ratios still compare like with like)\n');

  const serve = async () => {
    const port = await freePort();
    return timeToFirstAnswer([WAYBILL, 'serve', '--port', String(port), '--db', ':memory:', '--quiet'], port);
  };
  const prism = async () => {
    const port = await freePort();
    return timeToFirstAnswer([PRISM, 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'error', packageFile('spec/openapi.yaml')], port);
  };
  const pairs = [
    await alternate({ name: 'serve', subject: 'waybill serve, first answer', baseline: "Prism's mock, first answer", target: 0.4 }, rounds, serve, values['no-prism'] ? null : prism),
    await alternate({ name: 'help', subject: 'waybill --help, to exit', baseline: 'node -e 0, to exit', target: 2 }, rounds, () => timeToExit([WAYBILL, '--help']), () => timeToExit(['-e', '0'])),
  ];

  const rows = pairs.map((pair) => {
    const subject = median(pair.subjectMs);
    const baseline = pair.baselineMs.length === 0 ? null : median(pair.baselineMs);
    const ratio = baseline === null ? null : subject / baseline;
    return { ...pair, subjectMedianMs: subject, baselineMedianMs: baseline, ratio, met: ratio === null ? null : ratio <= pair.target };
  });
  const lines = [
    `start-up, medians of ${rounds} alternating runs (node ${process.version})`,
    '',
    '| measure | waybill | baseline | ratio | target |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.subject} vs ${row.baseline} | ${row.subjectMedianMs.toFixed(0)} ms | ${row.baselineMedianMs === null ? '—' : `${row.baselineMedianMs.toFixed(0)} ms`} | ${row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×`} | ≤ ${row.target}× ${row.met === null ? '' : row.met ? 'met' : 'MISSED'} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync('reports/bench', { recursive: true });
  const file = 'reports/bench/start-latest.json';
  writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, rounds, rows }, null, 2)}\n`);
  process.stdout.write(`\nwrote ${file}\n`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`bench:start: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
