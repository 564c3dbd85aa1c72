/**
 * `waybill replay REPORT_DIR`: runs the failed checks of a conformance report (or the failed
 * scenarios of a client-check report) again with the same engine, target and seed, says of
 * each FIXED, STILL FAILING or NOT REPRODUCED, writes `replay.json`, and resolves to the exit
 * code (D94).
 */
import { Command, Option } from 'commander';
import { ADMIN_TOKEN_FILE } from '../../cli/admin-token-file.ts';
import { commaList, parseCommandLine, wholeNumber } from '../../cli/command-line.ts';
import { counted, seconds } from '../../cli/counted.ts';
import { reportToolError, UsageError } from '../../cli/errors.ts';
import { shellLine } from '../../cli/shell-quote.ts';
import { toolName } from '../reporters/logged-request.ts';
import { interruptible } from '../setup/run-setup.ts';
import type { CheckResult, RunReport } from '../engine/types/report.ts';
import { replayClient } from './client.ts';
import { chosenFailures, readReportDir, type ReportToReplay } from './report-dir.ts';
import { replayServer } from './server.ts';
import { type ReplayedCheck, replayedLine, replayExitCode, replayOf, type ReplayReport, stillFailingLines, summaryLine, verdictCounts, writeReplay } from './verdicts.ts';

/** The parsed options. */
interface CliOptions {
  check: string[];
  profile?: string;
  provision?: boolean;
  adminToken?: string;
  target?: string;
  keepTenants?: boolean;
  timeoutMs: number;
  out?: string;
}

const help = `
What it replays, and with what:
  The report gives the target, the seed, the options the run had (--strict, --concurrency,
  --timeout, --fuzz) and the failures: each check that failed (a DECISION warning too) or was
  waived. Each runs again through the suite's own runner, with the same seed.
  The report holds no key (keys are secrets): a conformance replay needs --profile FILE again
  (the run's own, or the one --save-profile kept) or --provision (fresh tenants and keys from a
  waybill sandbox's control plane).
  A run-level check, which judges every exchange of the run (problems.catalog,
  discovery.responses.contract, …), runs with the checks whose exchanges its findings quote, so
  that it judges those requests again.
  A client-check replay runs the client command the report names, from the current folder, or the one
  given after --; in a sandbox of its own, or the running one --target names, as client-check.

Each failure replayed ends:
  FIXED           it ran and passed
  STILL FAILING   it ran and failed again (its findings are printed, and kept in replay.json)
  NOT REPRODUCED  it could not be graded, so it is neither: skipped (the reason names what the
                  profile lacks), ended in error, not in this waybill, or not run (interrupted)

It writes replay.json (each failure's verdict, its outcome then and now, and the findings of
those still failing) beside report.json; for a certification bundle's folder, in the folder
above it, since the bundle is signed.

Examples:
  # a run that provisioned its profile from the local sandbox: provision again
  $ waybill replay reports/2026-11-22T01-40-00Z --provision

  # a vendor's API, with the profile file the run used; two of its failures only
  $ waybill replay reports/ci --profile profile.json --check auth.key.revoked,feeds.orders.limit.invalid

  # a client-check report: the same client command, in a sandbox of its own
  $ waybill replay reports/client-check/2026-11-24T09-00-00Z

  # the client after a fix, under another command
  $ waybill replay reports/client-check/2026-11-24T09-00-00Z -- node dist/client.js

Exit codes:
  0  every failure replayed is FIXED; also a report with no failure (nothing to replay)
  1  one is STILL FAILING
  2  none still fails, but one is NOT REPRODUCED; also a usage or tool error
  130 / 143  interrupted by Ctrl-C (SIGINT) or SIGTERM
`;

function program(): Command {
  return new Command('waybill replay')
    .usage('[options] REPORT_DIR [-- COMMAND [ARGS...]]')
    .description('Run the failed checks of a conformance report (or the failed scenarios of a client-check report) again, against the same target with the same seed, and say of each FIXED, STILL FAILING or NOT REPRODUCED.')
    .argument('<report-dir>', "the folder a run wrote its reports to (its --out), holding report.json; a --certify run's --out is read from its certification/ folder")
    .addOption(new Option('--check <ids>', "replay only these of the report's failures: check or scenario ids (comma-separated or repeated)").argParser(commaList).default([], 'every failure'))
    .addOption(new Option('--profile <file>', 'conformance: the profile to run with (the run\'s own file, or the one --save-profile kept)').conflicts('provision'))
    .addOption(new Option('--provision', "conformance: a fresh profile from the target's sandbox control plane (a waybill sandbox)").conflicts('profile'))
    .option('--admin-token <token>', `the control plane's admin token, for --provision or a client-check's --target (default: env WAYBILL_ADMIN_TOKEN, else ${ADMIN_TOKEN_FILE} when it has an entry for the URL)`)
    .option('--target <url>', "conformance: the implementation at this base URL instead of the report's; client-check: a running waybill sandbox to stage in (default: one of its own)")
    .option('--keep-tenants', 'conformance: keep the tenants the replay creates (default: archived when it ends, D68)')
    .option('--timeout-ms <n>', "client-check: time limit of each run of the client, in milliseconds (the report does not record the run's)", wholeNumber(1), 30_000)
    .option('--out <dir>', 'folder for replay.json (default: the report\'s folder)')
    .addHelpText('after', help)
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ outputError: () => {} });
}

/** The arguments before `--`, and the client's command after it (null when there is none). */
function splitClient(argv: readonly string[]): { options: string[]; client: { command: string; args: string[] } | null } {
  const separator = argv.indexOf('--');
  if (separator === -1) return { options: [...argv], client: null };
  const [command, ...args] = argv.slice(separator + 1);
  if (command === undefined || command === '') throw new UsageError("give the client's command after --, e.g. waybill replay DIR -- node client.mjs");
  return { options: argv.slice(0, separator), client: { command, args } };
}

/** Refuses the options that belong to the other tool's reports. */
function checkOptionsFor(report: RunReport, options: CliOptions, client: unknown): void {
  const clientCheck = report.suite.name === 'waybill-client-check';
  const wrong = clientCheck
    ? [['--profile', options.profile], ['--provision', options.provision], ['--keep-tenants', options.keepTenants]].filter(([, value]) => value !== undefined).map(([flag]) => flag)
    : client !== null ? ['-- COMMAND'] : [];
  if (wrong.length > 0) throw new UsageError(`${wrong.join(', ')}: not for a ${toolName(report.suite.name)} report (see the options marked ${clientCheck ? 'client-check' : 'conformance'})`);
}

/** Runs `waybill replay` with `argv` (the arguments after the subcommand) and resolves to its exit code; Ctrl-C ends it as D55 says. */
export async function main(argv: string[]): Promise<number> {
  return interruptible('no further check starts; what ran is reported and its tenants archived', (interrupt) => replay(argv, interrupt));
}

/** `waybill replay` with `argv`, stopped early (D55) when `interrupt` is aborted. */
export async function replay(argv: string[], interrupt: AbortSignal): Promise<number> {
  const started = performance.now();
  const startedAt = new Date();
  try {
    const split = splitClient(argv);
    const command = program();
    if (!parseCommandLine(command, split.options)) return 0;
    const options = command.opts<CliOptions>();
    const read = readReportDir(command.args[0] as string);
    checkOptionsFor(read.report, options, split.client);
    const failed = chosenFailures(read.report, options.check);
    if (failed.length === 0) {
      process.stdout.write(`nothing to replay: no ${read.report.suite.name === 'waybill-client-check' ? 'scenario' : 'check'} of ${read.file} failed (${read.report.verdict.verdict})\n`);
      return 0;
    }
    process.stdout.write(`${headLine(read, failed, split.client)}\n`);
    const onReplayed = (check: ReplayedCheck) => process.stdout.write(`${replayedLine(check)}\n`);
    const ran = read.report.suite.name === 'waybill-client-check'
      ? await replayClient({ report: read.report, failed, ...pick(options, 'target', 'adminToken'), ...(split.client === null ? {} : { client: split.client }), timeoutMs: options.timeoutMs, interrupt, onReplayed })
      : await replayServer({ report: read.report, failed, ...pick(options, 'target', 'profile', 'provision', 'adminToken', 'keepTenants'), interrupt, onReplayed, onWait: (wait) => process.stdout.write(`  … ${wait.checkId} waits ${seconds(wait.ms)}: ${wait.why}\n`) });
    const exitCode = replayExitCode(ran.checks, ran.interrupted);
    const result: ReplayReport = {
      replayVersion: 1,
      replayOf: replayOf(read.file, read.report),
      target: ran.target,
      seed: ran.seed,
      ...(ran.client === undefined ? {} : { client: ran.client }),
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      checks: ran.checks,
      counts: verdictCounts(ran.checks),
      exitCode,
      ...(ran.interrupted === undefined ? {} : { interrupted: { signal: ran.interrupted } }),
    };
    for (const line of stillFailingLines(ran.checks)) process.stdout.write(`${line}\n`);
    await saveReplay(options.out ?? read.replayDir, result);
    process.stderr.write(`${summaryLine(result)}\n`);
    return exitCode;
  } catch (error) {
    return reportToolError(error);
  }
}

/** `replaying 2 failed checks of reports/x/report.json (waybill conformance 0.1.0, seed 7) against http://…`. */
function headLine(read: ReportToReplay, failed: readonly CheckResult[], given: { command: string; args: string[] } | null): string {
  const { report } = read;
  const clientCheck = report.suite.name === 'waybill-client-check';
  const client = given === null ? (report.client?.command ?? 'not named') : `${shellLine([given.command, ...given.args])} (given after --)`;
  const against = clientCheck ? `, client ${client}` : ` against ${report.target}`;
  return `replaying ${counted(failed.length, `failed ${clientCheck ? 'scenario' : 'check'}`)} of ${read.file} (${toolName(report.suite.name)} ${report.suite.version}, seed ${report.seed})${against}`;
}

/** Writes replay.json and names it; a folder it cannot write to is a warning, as the verdict stands printed. */
async function saveReplay(dir: string, result: ReplayReport): Promise<void> {
  try {
    process.stdout.write(`\nreplay.json: ${await writeReplay(dir, result)}\n`);
  } catch (error) {
    process.stderr.write(`waybill: warning: replay.json not written to ${dir}: ${(error as Error).message}\n`);
  }
}

/** The options of `keys` that were given. */
function pick<K extends keyof CliOptions>(options: CliOptions, ...keys: K[]): Partial<Pick<CliOptions, K>> {
  return Object.fromEntries(keys.filter((key) => options[key] !== undefined).map((key) => [key, options[key]])) as Partial<Pick<CliOptions, K>>;
}
