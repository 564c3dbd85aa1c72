/**
 * `npm run test:times`: runs vitest (the tier and paths as given) and prints where the time went —
 * the slowest test files and tests, how many files ran at once, and the time spent starting
 * sandboxes, PostgreSQL clusters and databases, Chromium and Prism (dev/testing/start-times.ts).
 *
 *   npm run test:times [-- VITEST_ARGS…]                  the `npm test` tier, or the paths given
 *   WAYBILL_TEST_TIER=all npm run test:times               the full gate
 *   npx tsx dev/testing/test-times.ts --from FOLDER        print a kept run again
 *
 * `--keep FOLDER` keeps the run's times there (run.json and the starts) for a later `--from`;
 * `--top N` sets the length of the tables (default 20).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StartRecord } from './start-times.ts';
import type { RunTimes } from './times-reporter.ts';

/** A run's times as the tables read them: the reporter's, the helpers' starts, and the run's wall time. */
export interface MeasuredRun extends RunTimes {
  starts: StartRecord[];
  wallMs: number;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const pad = (text: string, width: number) => text.padStart(width);

/** The lines of the report of `run`, its tables `top` rows long. */
export function timesReport(run: MeasuredRun, top = 20): string[] {
  const fileSum = run.files.reduce((sum, file) => sum + file.ms, 0);
  const tests = run.files.reduce((sum, file) => sum + file.tests, 0);
  const lines = [
    `wall time ${seconds(run.wallMs)} s: ${run.files.length} files, ${tests} tests; the files' own times sum to ${seconds(fileSum)} s, ${(fileSum / Math.max(run.wallMs, 1)).toFixed(2)} files at once on average`,
    '',
    `slowest ${Math.min(top, run.files.length)} files (s, tests, project, file)`,
  ];
  for (const file of [...run.files].sort((a, b) => b.ms - a.ms).slice(0, top)) {
    lines.push(`${pad(seconds(file.ms), 8)} ${pad(String(file.tests), 5)}  ${file.project.padEnd(9)} ${file.file}${file.failed ? '  (failed)' : ''}`);
  }
  lines.push('', `slowest ${Math.min(top, run.tests.length)} tests (s, file › test)`);
  for (const test of [...run.tests].sort((a, b) => b.ms - a.ms).slice(0, top)) lines.push(`${pad(seconds(test.ms), 8)}  ${test.file}${test.project === 'main' ? '' : ` [${test.project}]`} › ${test.name}`);
  lines.push('', 'starts (what the helpers of dev/testing started: count, total s, mean ms, longest ms; the files that spent most on it)');
  if (run.starts.length === 0) lines.push('  none recorded');
  const kinds = new Map<string, StartRecord[]>();
  for (const start of run.starts) kinds.set(start.kind, [...(kinds.get(start.kind) ?? []), start]);
  for (const [kind, starts] of [...kinds].sort((a, b) => total(b[1]) - total(a[1]))) {
    const byFile = new Map<string, number>();
    for (const start of starts) byFile.set(start.file ?? '(global setup)', (byFile.get(start.file ?? '(global setup)') ?? 0) + start.ms);
    const heaviest = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([file, ms]) => `${file} ${seconds(ms)} s`);
    lines.push(`  ${kind.padEnd(22)}${pad(String(starts.length), 5)}${pad(seconds(total(starts)), 8)}${pad(String(Math.round(total(starts) / starts.length)), 7)}${pad(String(Math.max(...starts.map((start) => start.ms))), 7)}   ${heaviest.join(', ')}`);
  }
  return lines;
}

const total = (starts: readonly StartRecord[]) => starts.reduce((sum, start) => sum + start.ms, 0);

/** The run kept in `folder`: run.json (the reporter's), wall.json, and every starts-*.jsonl. */
export function readRun(folder: string): MeasuredRun {
  const times = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')) as RunTimes;
  const { wallMs } = JSON.parse(readFileSync(join(folder, 'wall.json'), 'utf8')) as { wallMs: number };
  const starts = readdirSync(folder)
    .filter((name) => /^starts-\d+\.jsonl$/.test(name))
    .flatMap((name) => readFileSync(join(folder, name), 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as StartRecord));
  return { ...times, starts, wallMs };
}

/** Runs `vitest run …args` collecting times into `folder`; answers vitest's exit code. */
function measure(folder: string, args: readonly string[]): number {
  const began = Date.now();
  const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [vitest, 'run', ...args], { stdio: 'inherit', env: { ...process.env, WAYBILL_TEST_TIMES: folder } });
  writeFileSync(join(folder, 'wall.json'), JSON.stringify({ wallMs: Date.now() - began }));
  return result.status ?? 1;
}

/** Takes this script's own options out of `argv`; the rest goes to vitest. */
export function parseOptions(argv: readonly string[]): { from?: string; keep?: string; top: number; vitestArgs: string[] } {
  const options: { from?: string; keep?: string; top: number; vitestArgs: string[] } = { top: 20, vitestArgs: [] };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--from' || arg === '--keep' || arg === '--top') {
      const value = argv[++index];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      if (arg === '--top') options.top = Number(value);
      else options[arg === '--from' ? 'from' : 'keep'] = resolve(value);
    } else options.vitestArgs.push(arg);
  }
  return options;
}

function main(): number {
  const options = parseOptions(process.argv.slice(2));
  if (options.from !== undefined) {
    console.log(timesReport(readRun(options.from), options.top).join('\n'));
    return 0;
  }
  const folder = options.keep ?? mkdtempSync(join(tmpdir(), 'waybill-test-times-'));
  mkdirSync(folder, { recursive: true });
  const code = measure(folder, options.vitestArgs);
  try {
    console.log(`\n${timesReport(readRun(folder), options.top).join('\n')}`);
    if (options.keep !== undefined) console.log(`\nkept in ${folder}: npx tsx dev/testing/test-times.ts --from ${folder}`);
  } catch (error) {
    console.error(`no times to print: ${(error as Error).message}`);
    return code === 0 ? 1 : code;
  } finally {
    if (options.keep === undefined) rmSync(folder, { recursive: true, force: true });
  }
  return code;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
