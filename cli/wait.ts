/**
 * `waybill wait URL`: waits until URL answers 2xx, for a CI step that starts a sandbox or a
 * mock in the background (or deploys a server) and must not go on before it answers. It asks
 * again every quarter of a second, each attempt given at most five seconds, until `--timeout`.
 * Exit 0 once ready, 1 when the time ran out (the line says what the last attempt got), 2 for a
 * command line it cannot act on.
 */
import { Command, InvalidArgumentError } from 'commander';
import { parseCommandLine } from './command-line.ts';
import { UsageError } from './errors.ts';

/** How long to leave between two attempts. */
const INTERVAL_MS = 250;
/** The longest one attempt may take: a server that accepts but never answers is asked again. */
const ATTEMPT_MS = 5000;

function command(): Command {
  return new Command('waybill wait')
    .description('Wait until URL answers with a 2xx status, asking again every 0.25 s: a CI step that started `waybill serve` or `waybill mock` in the background runs this before its tests.')
    .argument('<url>', 'the address to ask, e.g. http://127.0.0.1:4000/health (waybill serve and waybill mock both answer /health)')
    .option('--timeout <seconds>', 'give up after this many seconds (exit 1)', seconds, 60)
    .addHelpText(
      'after',
      `
Exit codes:
  0  URL answered 2xx
  1  it did not within --timeout (the last attempt's status or error is printed)
  2  a usage error

Examples:
  waybill serve --db :memory: & waybill wait http://127.0.0.1:4000/health
  waybill wait https://staging.example.test/health --timeout 300
`,
    )
    .exitOverride();
}

/** A commander parser for a positive number of seconds (fractions allowed). */
function seconds(value: string): number {
  const parsed = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || parsed <= 0) throw new InvalidArgumentError('must be a number of seconds above 0');
  return parsed;
}

/** What one attempt got: the status, or why there was none. */
async function attempt(url: URL, timeoutMs: number): Promise<{ ok: boolean; said: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { 'User-Agent': 'waybill-wait' } });
    await response.body?.cancel();
    return { ok: response.status >= 200 && response.status <= 299, said: `answered ${response.status}` };
  } catch (error) {
    return { ok: false, said: whyNoAnswer(error) };
  }
}

/** A fetch failure in a few words: the system error's code where there is one. */
function whyNoAnswer(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'no answer in time';
  const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** Asks `url` until it answers 2xx or `timeoutMs` has passed; resolves to the exit code. */
export async function waitFor(url: URL, timeoutMs: number, print: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  for (;;) {
    const { ok, said } = await attempt(url, Math.max(1, Math.min(ATTEMPT_MS, deadline - Date.now())));
    const elapsed = ((Date.now() - started) / 1000).toFixed(1);
    if (ok) {
      print.out(`waybill wait: ${url.href} ${said} after ${elapsed} s`);
      return 0;
    }
    if (Date.now() + INTERVAL_MS >= deadline) {
      print.err(`waybill wait: ${url.href} not ready within ${timeoutMs / 1000} s (last attempt: ${said})`);
      return 1;
    }
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  }
}

/** Runs `waybill wait`; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = command();
  if (!parseCommandLine(program, argv)) return 0;
  const [address] = program.args as [string];
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new UsageError(`'${address}' is not a URL; give one such as http://127.0.0.1:4000/health (see waybill wait --help)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`'${address}' is not an http or https URL (see waybill wait --help)`);
  const { timeout } = program.opts<{ timeout: number }>();
  return waitFor(url, timeout * 1000, { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) });
}
