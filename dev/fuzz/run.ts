/**
 * `npm run fuzz`: the fuzz campaign against an in-process reference sandbox on 127.0.0.1
 * (see campaign.ts). Prints the seed first, progress on stderr, then the counts, the
 * duration and the probe's worst delay; on failure the smallest failing case and the line
 * that replays it. Exit 0 when every case held and (one case at a time) no probe waited more
 * than 100 ms longer than usual, 1 otherwise, 2 on a usage error.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { runCampaign } from './campaign.ts';
import { printableCase, PROBE_BOUND_MS, summary } from './summary.ts';

/** An integer option of at least `min`. */
function integer(min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError(`must be an integer of at least ${min}`);
    return Number(value);
  };
}

function program(): Command {
  return new Command('npm run fuzz --')
    .description(
      'Fuzz the reference sandbox: generated requests to every operation of spec/openapi.yaml and spec/sandbox.yaml over fetch (bodies nested or widened to 1 MiB among them), and malformed bytes over raw sockets, each held to: no 5xx, every error problem+json with a catalog (or about:blank) type of its status, a status the contract declares for the operation, X-Request-Id on every answer, no connection dropped without an answer unless nothing asked for one; and a probe request never delayed more than 100 ms by them. Traffic goes only to a sandbox this command starts on 127.0.0.1.',
    )
    .option('--cases <n>', 'number of generated cases', integer(1), 10_000)
    .option('--seed <n>', 'seed of the generator (default: random; always printed)', integer(0))
    .option('--concurrency <n>', 'cases in flight at once; above 1 a failing case is not shrunk (replay it with --concurrency 1 and the same seed and cases)', integer(1), 1)
    .option('--path <path>', "fast-check's replay path of a failing case (printed with it): runs that case alone")
    .addHelpText('after', '\nExamples:\n  $ npm run fuzz\n  $ npm run fuzz -- --cases 50000 --seed 42\n  $ npm run fuzz -- --cases 10000 --concurrency 8\n  $ npm run fuzz -- --seed 42 --path 1234:5:0   # replay the failure a run printed\n')
    .exitOverride();
}

/** Runs `npm run fuzz` with `argv` and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let options: { cases: number; seed?: number; path?: string; concurrency: number };
  try {
    options = program().parse(argv, { from: 'user' }).opts();
  } catch (error) {
    if (error instanceof CommanderError) return error.code === 'commander.helpDisplayed' ? 0 : 2;
    throw error;
  }
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  process.stdout.write(`fuzz: ${options.cases} cases, seed ${seed}${options.path === undefined ? '' : `, path ${options.path}`}\n`);
  const tty = process.stderr.isTTY;
  const result = await runCampaign({
    cases: options.cases,
    seed,
    concurrency: options.concurrency,
    ...(options.path === undefined ? {} : { path: options.path }),
    onProgress: (done) => {
      if (tty) process.stderr.write(`\r  ${done} / ${options.cases} cases…`);
      else if (done % 2000 === 0) process.stderr.write(`  ${done} / ${options.cases} cases…\n`);
    },
  });
  if (tty) process.stderr.write('\r\u001b[K');
  process.stdout.write(`${summary(result)}\n`);
  // Several cases at once queue the probe behind each other: the bound is held one case at a time.
  const slow = result.concurrency === 1 && result.probe.maxDelayMs > PROBE_BOUND_MS;
  if (slow) process.stdout.write(`FAIL: a probe waited ${result.probe.maxDelayMs.toFixed(1)} ms beyond its usual time while bad requests were in flight (bound ${PROBE_BOUND_MS} ms)\n`);
  if (result.failure !== undefined) {
    process.stdout.write(`FAIL: ${result.failure.error}\n  smallest failing case: ${printableCase(result.failure.counterexample)}\n`);
    process.stdout.write(`  replay: npm run fuzz -- --seed ${seed} --path ${result.failure.path} --cases ${options.cases}\n`);
  }
  if (result.failures.length > 0) process.stdout.write(`  replay one at a time, shrinking the first failure: npm run fuzz -- --seed ${seed} --cases ${result.failures[0]!.index + 1} --concurrency 1\n`);
  const passed = result.passed && !slow;
  process.stdout.write(passed ? 'PASS\n' : result.failure === undefined && !slow ? 'FAIL\n' : '');
  return passed ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
