/**
 * `waybill client-check`: grades an integrator's client. Parses the command line, starts a
 * sandbox of its own (or uses `--target` with its admin token), runs the client through the
 * scenarios and writes the reports the conformance suite writes; resolves to the exit code.
 */
import { mkdir } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ADMIN_TOKEN_FILE } from '../../cli/admin-token-file.ts';
import { commaList, parseCommandLine, wholeNumber } from '../../cli/command-line.ts';
import { UsageError } from '../../cli/errors.ts';
import { useColour, verdictLine } from '../reporters/console.ts';
import { isReporterName, type Reporter, type ReporterName, reporters } from '../reporters/index.ts';
import { commandProblem } from './client-process.ts';
import { runClientCheck } from './run.ts';
import { replayCommand } from '../replay/failed.ts';
import { assertTargetAnswers, givenSandbox, openStageSandbox } from './stage-sandbox.ts';
import { clientCheckHar } from './har.ts';
import { writeHar } from '../transport/har.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import { matchesSelector } from '../engine/select.ts';
import { type ClientScenario, familyOf } from './scenario.ts';
import { scenarios } from './scenarios/index.ts';

/** The parsed options. */
interface CliOptions {
  scenario: string[];
  out?: string;
  target?: string;
  adminToken?: string;
  timeoutMs: number;
  concurrency: number;
  reporter: ReporterName[];
  strict?: boolean;
}

const allReporters: ReporterName[] = ['console', 'json', 'junit', 'html'];

const help = `
The client gets its task in its environment and prints nothing waybill relies on: the grade
comes from the sandbox's request log and state. Variables: WAYBILL_BASE_URL, WAYBILL_API_KEY,
WAYBILL_TASK (sync-orders, sync-trips, pay, cancel, archive), WAYBILL_EXTERNAL_ID,
WAYBILL_PAYMENT_ID, WAYBILL_AMOUNT, WAYBILL_CURRENCY, WAYBILL_STATE_FILE. Each scenario has a
tenant and key of its own. The command runs without a shell, in a process group of its own
that is killed when a run exceeds --timeout-ms.

Scenarios:
${scenarios.map((scenario) => `  ${scenario.id.padEnd(Math.max(...scenarios.map(({ id }) => id.length)))}  ${scenario.title}`).join('\n')}

Examples:
  # the example client, every scenario, in a sandbox of its own (and the same client in Python)
  $ waybill client-check -- node conformance/client-check/example/client.mjs
  $ waybill client-check -- python3 conformance/client-check/example/client.py

  # your client, the payment scenarios only, reports in reports/my-client
  $ waybill client-check --scenario client.pay --out reports/my-client -- ./bin/my-client --verbose

  # against a running sandbox (npm start): its admin token comes from ${ADMIN_TOKEN_FILE}
  $ waybill client-check --target http://127.0.0.1:4000 -- python3 client.py

A sync is graded at any page size from 1 to 100: the request log keeps each page's nextCursor
and items whatever the page's size. client.sync.rate-limit gives each run at least 120 s, so a
client that waits RateLimit-Reset seconds whenever RateLimit-Remaining is 0 (or a whole minute)
has the time it needs.

Exit codes (the verdict, D55):
  0  PASS: every scenario passed
  1  FAIL: a scenario failed: the client broke a rule (the findings show its requests); a
     DECISION scenario's failure (client.sync.tolerant-reader, D93) is a warning, exit 0,
     unless --strict
  2  INCOMPLETE: a scenario was skipped or ended in error (the sandbox could not stage what it
     claims); the verdict names each one. Also a usage or tool error
`;

/** `reports/client-check/2026-11-24T09-00-00Z`: the default output directory of a run started now. */
function defaultOutDir(now = new Date()): string {
  return `reports/client-check/${now.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-')}`;
}

/** The `--reporter` list, each name checked. */
function reporterList(value: string, previous?: ReporterName[]): ReporterName[] {
  const names = commaList(value);
  const unknown = names.filter((name) => !isReporterName(name));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown reporter ${unknown.join(', ')} (choose from ${allReporters.join(', ')})`);
  return [...(previous === allReporters ? [] : (previous ?? [])), ...(names as ReporterName[])];
}

function program(): Command {
  return new Command('waybill client-check')
    .usage('[options] -- COMMAND [ARGS...]')
    .description("Grade an integrator's client: run it through scenarios that stage the failures production brings, and grade it from the sandbox's request log.")
    .addOption(new Option('--scenario <names>', 'run only these scenarios: ids, families (client.pay) or prefixes (comma-separated or repeated)').argParser(commaList).default([], 'every scenario'))
    .option('--out <dir>', 'directory for report.json, junit.xml, report.html and exchanges.har (default: reports/client-check/<UTC timestamp>/)')
    .option('--target <url>', "a running waybill sandbox's base URL (default: a sandbox of its own, in memory)")
    .option('--admin-token <token>', `with --target: its control plane's admin token (default: env WAYBILL_ADMIN_TOKEN, else ${ADMIN_TOKEN_FILE} when it has an entry for --target)`)
    .option('--timeout-ms <n>', 'time limit of each run of the client, in milliseconds', wholeNumber(1), 30_000)
    .option('--concurrency <n>', 'scenarios run at once (each has its own tenant)', wholeNumber(1), 4)
    .option('--strict', "a DECISION scenario's failure counts for the exit code (otherwise it is a warning)")
    .addOption(new Option('--reporter <names>', `report formats, comma-separated: ${allReporters.join(', ')}`).argParser(reporterList).default(allReporters, allReporters.join(',')))
    .addHelpText('after', help)
    .exitOverride()
    .configureOutput({ outputError: () => {} });
}

/** The client's command line: what follows `--`; a usage error when there is none. */
function clientCommand(argv: readonly string[]): { options: string[]; command: string; args: string[] } | null {
  const separator = argv.indexOf('--');
  if (separator === -1) return null;
  const [command, ...args] = argv.slice(separator + 1);
  if (command === undefined || command === '') throw new UsageError("give the client's command after --, e.g. waybill client-check -- node client.mjs");
  return { options: argv.slice(0, separator), command, args };
}

/** Each `--scenario` name picks at least one scenario (an id, a family or a prefix). */
function checkScenarioNames(names: readonly string[]): void {
  // The runner's own selector (`--only` of the suite), so a name checked here is one the run picks.
  const unknown = names.filter((name) => !scenarios.some((scenario) => matchesSelector({ id: scenario.id, family: familyOf(scenario.id) }, name)));
  if (unknown.length > 0) throw new UsageError(`--scenario ${unknown.join(', ')}: no such scenario (see waybill client-check --help for the list)`);
}

/** Runs `waybill client-check` with `argv` (the arguments after the subcommand); resolves to its exit code. */
export async function main(argv: string[]): Promise<number> {
  const startedAt = performance.now();
  const split = clientCommand(argv);
  const asksForHelp = argv.includes('--help') || argv.includes('-h');
  if (split === null && !asksForHelp) throw new UsageError("give the client's command after --, e.g. waybill client-check -- node client.mjs");
  const command = program();
  if (!parseCommandLine(command, split?.options ?? argv) || split === null) return 0;
  const options = command.opts<CliOptions>();
  checkScenarioNames(options.scenario);
  const unstartable = commandProblem(split.command);
  if (unstartable !== null) throw new UsageError(`cannot run the client: ${unstartable}`);
  await assertTargetAnswers(options);
  if (options.out === '-') throw new UsageError('--out -: reports are files written into a directory; give a directory (e.g. --out reports/client)');
  const given = givenSandbox(options, 'client-check');
  const outDir = options.out ?? defaultOutDir();
  const sandbox = await openStageSandbox(given);
  try {
    return await runAndReport(options, sandbox, split, outDir, startedAt);
  } finally {
    await sandbox.close();
  }
}

/** Runs the scenarios, writes the reports and resolves to the exit code. */
async function runAndReport(options: CliOptions, sandbox: { target: string; adminToken: string }, client: { command: string; args: string[] }, outDir: string, startedAt: number): Promise<number> {
  await mkdir(outDir, { recursive: true });
  const chosen = [...new Set(options.reporter)];
  // A sandbox of its own is gone once the run ends: the replay starts another, as client-check does.
  const replay = replayCommand(outDir, options.target === undefined ? [] : ['--target', sandbox.target]);
  const active: Reporter[] = chosen.map((name) => reporters[name]({ outDir, verdict: false, replay }));
  // One line per scenario in a terminal: the console reporter's, as each ends. Its stderr line as
  // each starts is for runs without it (file reports only), which would otherwise print nothing.
  let exchanges: readonly ExchangeRecord[] = [];
  const startLine = chosen.includes('console') ? undefined : (scenario: ClientScenario) => process.stderr.write(`client-check: ${scenario.id} — ${scenario.title}\n`);
  const report = await runClientCheck({
    ...sandbox,
    command: client.command,
    args: client.args,
    timeoutMs: options.timeoutMs,
    only: options.scenario,
    concurrency: options.concurrency,
    strict: options.strict === true,
    ...(startLine === undefined ? {} : { onScenario: startLine }),
    onStart: (start) => active.forEach((reporter) => reporter.onStart?.(start)),
    onResult: (result) => active.forEach((reporter) => reporter.onResult?.(result)),
    onExchanges: (all) => {
      exchanges = all;
    },
  });
  const files: string[] = [];
  for (const reporter of active) {
    const file = await reporter.onEnd(report);
    if (typeof file === 'string') files.push(file);
  }
  // Every run, whichever reporters: the client's requests, a page per scenario (client-check/har.ts).
  files.push(await writeHar(outDir, clientCheckHar(report, exchanges)));
  if (files.length > 0) process.stdout.write(`\nReports:\n${files.map((file) => `  ${file}`).join('\n')}\n`);
  process.stderr.write(`${verdictLine(report, useColour(process.stderr, process.env), performance.now() - startedAt)}\n`);
  return report.exitCode;
}
