/**
 * `waybill conformance`: parses the command line, gets the profile (file or provisioned),
 * runs the suite with the chosen reporters and resolves to the exit code (see engine/exit-code.ts).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { reportToolError, UsageError, WaybillError } from '../cli/errors.ts';
import { ADMIN_TOKEN_FILE } from '../cli/admin-token-file.ts';
import { commaList, parseCommandLine } from '../cli/command-line.ts';
import type { RunningPrism } from '../mock/prism.ts';
import { integrationContract } from './contract/contract.ts';
import { bundleSummary } from './certify/bundle-summary.ts';
import { prepareRun, readCertifyFiles, validateCertifyOptions } from './certify/session.ts';
import { certificationExitCode, exitCodeHelp } from './engine/exit-code.ts';
import { isReporterName, type Reporter, type ReporterName, reporters } from './reporters/index.ts';
import { useColour, verdictLine } from './reporters/console.ts';
import { suiteHar, writeHar } from './transport/har.ts';
import { profileSecrets } from './transport/redaction.ts';
import { runLabel, runSuite } from './engine/runner.ts';
import { selectChecks } from './engine/select.ts';
import { profileEnvLine } from './setup/profile-cli.ts';
import { adminTokenSecrets, againstTarget, archiveRunTenants, checkTargetUrl, conformanceSuite, interruptible, profileFrom, profileOrigin, type ProfileOrigin, readPools, startValidationProxy } from './setup/run-setup.ts';
import type { Check } from './engine/types/check.ts';
import type { ExchangeRecord } from './engine/types/exchange.ts';
import type { Profile } from './engine/types/profile.ts';
import { resolveChecks } from './engine/verifies.ts';
import { counted } from '../cli/counted.ts';
import { unmetPreconditions } from './engine/preconditions.ts';
import { signalExitCode } from '../cli/interrupt.ts';
import { replayCommand } from './replay/failed.ts';

/** The parsed options of one invocation. */
interface CliOptions {
  target: string;
  profile?: string;
  provision?: boolean;
  adminToken?: string;
  saveProfile?: string;
  out?: string;
  only: string[];
  skip: string[];
  level?: 'must' | 'should';
  strict?: boolean;
  timeout: number;
  concurrency: number;
  seed?: number;
  reporter: ReporterName[];
  viaPrism?: boolean;
  fuzz: number;
  certify?: boolean;
  product?: string;
  signKey?: string;
  waivers?: string;
  keepTenants?: boolean;
}

const examples = `
Examples:
  # the local reference sandbox (npm start): fresh tenants and keys, every check; the admin
  # token comes from .waybill/admin-token.json, which the sandbox writes for its own URL
  $ waybill conformance --target http://127.0.0.1:4000 --provision

  # a vendor's API in CI: MUST rules only, JUnit for the CI and the console for the log
  $ waybill conformance --target https://api.example.com --profile profile.json --level must --reporter console,junit --out reports/ci

  # an independent witness: every exchange also judged by Stoplight Prism's validation proxy
  $ waybill conformance --target http://127.0.0.1:4000 --provision --via-prism

  # keep the provisioned profile to run it again later; top its pools up when a run says they ran out
  $ waybill conformance --target http://127.0.0.1:4000 --provision --save-profile .waybill/profile.json
  $ waybill conformance --target http://127.0.0.1:4000 --profile .waybill/profile.json
  $ waybill profile refill .waybill/profile.json

  # 2000 generated malformed requests as well, reproducible with the same --seed
  $ waybill conformance --target http://127.0.0.1:4000 --provision --fuzz 2000 --seed 7

  # a certification bundle (folder and .tar.gz) of the whole suite, signed; check it with waybill verify
  $ waybill conformance --target https://api.example.com --profile profile.json --certify --product product.json --sign-key .waybill/keys/waybill-signing.key

  # one family and one check, replaying an earlier run's seed
  $ waybill conformance --target http://127.0.0.1:4000 --profile profile.json --only discovery,problems.catalog --seed 1234

${exitCodeHelp}
`;

/** An integer option of at least `min`. */
function integer(min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError(`must be an integer of at least ${min}`);
    return Number(value);
  };
}

/** The `--reporter` list, each name checked against the reporter map. */
function reporterList(value: string, previous?: ReporterName[]): ReporterName[] {
  const names = commaList(value);
  const unknown = names.filter((name) => !isReporterName(name));
  if (unknown.length > 0) throw new InvalidArgumentError(`unknown reporter ${unknown.join(', ')} (choose from ${Object.keys(reporters).join(', ')})`);
  return [...(previous === defaultReporters ? [] : (previous ?? [])), ...(names as ReporterName[])];
}

const defaultReporters: ReporterName[] = ['console', 'json', 'junit', 'html'];

/** `reports/2026-11-22T01-40-00Z`: the default output directory of a run started now. */
export function defaultOutDir(now = new Date()): string {
  return `reports/${now.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-')}`;
}

function program(): Command {
  return new Command('waybill conformance')
    .description('Run the conformance suite of the Delivery Integration API against a base URL and write reports.')
    .requiredOption('--target <url>', 'base URL of the API under test (http or https); overrides the profile\'s target')
    .addOption(new Option('--profile <file>', 'conformance profile (JSON, see conformance/profile.schema.json)').conflicts('provision'))
    .addOption(new Option('--provision', "build a fresh profile through the target's sandbox control plane").conflicts('profile'))
    .option('--admin-token <token>', `admin token of the control plane for --provision (default: env WAYBILL_ADMIN_TOKEN, else ${ADMIN_TOKEN_FILE} when it has an entry for this --target; localhost = 127.0.0.1)`)
    .option('--save-profile <file>', "with --provision: write the provisioned profile (with its keys) to this new file, mode 0600, to run it again (waybill profile refill FILE tops its pools up) and for the replay lines' $WAYBILL_KEY_… variables (waybill profile env FILE); its tenants are kept; an existing file is refused")
    .option('--keep-tenants', "keep the tenants the run creates (default: archived when it ends: the checks' own and, with --provision but no --save-profile, the profile's)")
    .option('--out <dir>', "directory for the reports (default: reports/<UTC timestamp>/); '-' is refused: the reports are files, and the one-line verdict always goes to stderr")
    .addOption(new Option('--only <ids>', 'run only these checks: ids, families or prefixes such as feeds. (comma-separated)').argParser(commaList).default([], 'every check'))
    .addOption(new Option('--skip <ids>', 'leave out these checks: ids, families or prefixes (comma-separated)').argParser(commaList).default([], 'none'))
    .addOption(new Option('--level <level>', 'must = MUST checks only; should = MUST and SHOULD (default: every level)').choices(['must', 'should']))
    .option('--strict', 'DECISION failures count for the exit code (otherwise they are warnings)')
    .option('--timeout <ms>', 'timeout of each request in milliseconds', integer(1), 10_000)
    .option('--concurrency <n>', 'checks run at once (exclusive and run-level checks always run alone)', integer(1), 4)
    .option('--seed <n>', 'seed of the checks\' random choices (default: random, printed in the report)', integer(0))
    .addOption(new Option('--fuzz <n>', 'add the fuzz family: N generated malformed requests (fetch and raw sockets), seeded by --seed, after every other check').argParser(integer(0)).default(0, 'off'))
    .option('--certify', 'run every check (no --only, --skip or --level) and write a certification bundle to <out>/certification/ and <out>/certification.tar.gz; exit 0 only for a PASS verdict, 1 FAIL, 2 INCOMPLETE (a check skipped or in error)')
    .option('--product <file>', 'with --certify: product.json of the certificate (vendor, product, version, contact; conformance/certify/product.schema.json)')
    .option('--sign-key <file>', 'with --certify: Ed25519 private key (waybill keys generate) that signs manifest.json')
    .option('--waivers <file>', 'YAML waivers (conformance/certify/waivers.schema.json): a failure a waiver in force covers is reported as waived and does not count; under --certify a MUST check needs the waiver to name its seed requirement')
    .option('--via-prism', "send the suite's requests through a Prism validation proxy and report each spec violation it finds (check contract.prism)")
    .addOption(new Option('--reporter <names>', `report formats, comma-separated: ${Object.keys(reporters).join(', ')}`).argParser(reporterList).default(defaultReporters, defaultReporters.join(',')))
    .addHelpText('after', examples)
    .exitOverride();
}

/** Checks what commander cannot: the URL, the checks chosen, and that exactly one profile source is given; resolves to that source. */
async function validate(options: CliOptions): Promise<ProfileOrigin> {
  checkTargetUrl(options.target);
  if (options.out === '-') throw new UsageError('--out -: reports are files written into a directory, not standard output; give a directory (e.g. --out reports/ci)');
  if (options.profile === undefined && !options.provision) throw new UsageError(NO_PROFILE);
  validateCertifyOptions(options);
  if (!options.provision && options.saveProfile !== undefined) throw new UsageError('--save-profile is only used with --provision (with --profile, the profile is already in a file)');
  if (options.provision && options.saveProfile !== undefined && existsSync(options.saveProfile)) {
    throw new UsageError(`--save-profile ${options.saveProfile}: the file exists; remove it or give a new name (it is never overwritten)`);
  }
  return profileOrigin(options, options.target, NO_PROFILE);
}

const NO_PROFILE = 'one of --profile FILE or --provision is required';

/** Writes the provisioned profile to a new file only its owner can read; the keys are never printed. */
async function saveProfile(file: string, profile: Profile): Promise<void> {
  await mkdir(dirname(resolve(file)), { recursive: true });
  try {
    await writeFile(file, `${JSON.stringify(profile, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`--save-profile ${file}: the file exists; remove it or give a new name (it is never overwritten)`);
    throw new WaybillError(`--save-profile ${file}: ${(error as Error).message}`, 'tool');
  }
  await chmod(file, 0o600);
  process.stderr.write(`saved the provisioned profile to ${file} (mode 0600: it holds the keys); to set them as the replay lines' $WAYBILL_KEY_… variables in this shell:\n  ${profileEnvLine(file)}\n`);
}


/** Every check of this run's suite, and those --only, --skip and --level select (a usage error when they select none). */
function suiteOf(options: CliOptions): { suite: Check[]; selected: ReturnType<typeof selectChecks> } {
  const suite = conformanceSuite(options);
  return { suite, selected: selectChecks(resolveChecks(suite, integrationContract.requirements), { only: options.only, skip: options.skip, level: options.level ?? 'all' }) };
}

/**
 * Under --certify, a usage error naming what the profile lacks when some check could not be
 * graded with it (a certificate is never issued over a skipped check): one line, before any
 * request, instead of the run's list of skips.
 */
function refuseUngradable(selected: readonly Check[], profile: Profile, source: string): void {
  const unmet = unmetPreconditions(selected, profile);
  if (unmet.size === 0) return;
  const fields = [...unmet].map(([reason, ids]) => `${reason.replace(/^profile has no /, '')} (${counted(ids.length, 'check')})`);
  throw new UsageError(`--certify: ${source} cannot grade every check: it has no ${fields.join(', ')}; add them (conformance/profile.example.json shows each) or certify with --provision against a waybill sandbox`);
}

/** The checks of this run, and the profile with the pools the selected ones need cut to the ids still usable, once the target is confirmed. */
async function suiteAndPools(options: CliOptions, profile: Profile, target: string, provisioned: boolean): Promise<{ suite: Check[]; profile: Profile }> {
  const { suite, selected } = suiteOf(options);
  const source = { name: provisioned ? 'the provisioned profile' : (options.profile as string), refillable: !provisioned && profile.sandbox !== undefined };
  return { suite, profile: await readPools(target, profile, selected, options.timeout, source) };
}

/** Runs `waybill conformance` with `argv` (the arguments after the subcommand) and resolves to its exit code; Ctrl-C ends it as D55 says. */
export async function main(argv: string[]): Promise<number> {
  return interruptible("no further check starts; the partial report is written and the run's tenants archived", (interrupt) => conformance(argv, interrupt));
}

/** `waybill conformance` with `argv`, stopped early (D55) when `interrupt` is aborted: the partial report is written, the tenants archived, and the exit code is the signal's. */
export async function conformance(argv: string[], interrupt: AbortSignal): Promise<number> {
  const startedAt = performance.now();
  try {
    const command = program();
    if (!parseCommandLine(command, argv)) return 0;
    const options = command.opts<CliOptions>();
    const origin = await validate(options);
    // A selection that names no check is refused before anything is provisioned.
    suiteOf(options);
    // A bad product file or signing key is the user's to fix before anything is sent to the target.
    readCertifyFiles(options);
    const target = options.target.replace(/\/+$/, '');
    const label = runLabel(new Date());
    const provisioned = 'adminToken' in origin;
    const adminToken = provisioned ? origin.adminToken : undefined;
    let profile: Profile = await profileFrom(origin, target, options.timeout, label);
    if (options.certify) refuseUngradable(suiteOf(options).selected, profile, options.profile ?? 'the provisioned profile');
    if (provisioned && options.saveProfile !== undefined) await saveProfile(options.saveProfile, { ...profile, target });
    let exchanges: readonly ExchangeRecord[] = [];
    try {
      // Interrupted while provisioning: the pools are not read, and the report says no check ran.
      const run = interrupt.aborted ? { suite: suiteOf(options).suite, profile } : await suiteAndPools(options, profile, target, provisioned);
      profile = run.profile;
      const prism = options.viaPrism && !interrupt.aborted ? await startValidationProxy(target) : null;
      try {
        return await runAndReport(options, { profile, suite: run.suite, target, label, interrupt, startedAt }, prism, adminToken, (all) => (exchanges = all));
      } finally {
        await prism?.stop();
      }
    } finally {
      await archiveRunTenants({ profile, target, timeoutMs: options.timeout, provisioned, ...(options.saveProfile === undefined ? {} : { savedProfile: options.saveProfile }), ...(options.keepTenants ? { keepTenants: true } : {}), exchanges });
    }
  } catch (error) {
    return reportToolError(error);
  }
}

/** The profile flags `waybill replay` needs to run this run's failures again: the same file, the saved one, or a fresh provisioning (never the admin token: it is a secret). */
function replayFlags(options: CliOptions): string[] {
  const file = options.profile ?? options.saveProfile;
  return file === undefined ? ['--provision'] : ['--profile', file];
}

/** How to get the keys the replay lines' `$WAYBILL_…` variables stand for, never the keys themselves. */
function replayHint(options: CliOptions): string {
  const file = options.saveProfile ?? options.profile;
  if (file === undefined) {
    return 'Replay lines name the keys as $WAYBILL_KEY_… variables; the provisioned keys are not shown: run with --save-profile FILE to keep them.';
  }
  return `Replay lines name the keys as $WAYBILL_KEY_… variables; to set them from ${file} in this shell:\n  ${profileEnvLine(file)}`;
}

/** Runs the suite (through `prism` when given), writes the reports and resolves to the exit code; `onExchanges` gets the run's exchanges. */
async function runAndReport(
  options: CliOptions,
  run: { profile: Profile; suite: Check[]; target: string; label: string; interrupt: AbortSignal; startedAt: number },
  prism: RunningPrism | null,
  adminToken: string | undefined,
  onExchanges: (exchanges: readonly ExchangeRecord[]) => void,
): Promise<number> {
  const { profile, suite, target } = run;
  const outDir = options.out ?? defaultOutDir();
  const extras = prepareRun(options, outDir, new Set(suite.map((check) => check.id)));
  await mkdir(extras.reportDir, { recursive: true });
  // The verdict line goes to stderr below, whichever reporters are chosen, so the console one leaves it out.
  const replay = replayCommand(extras.reportDir, replayFlags(options));
  const active: Reporter[] = [...new Set(extras.reporters)].map((name) => reporters[name]({ outDir: extras.reportDir, verdict: false, replay }));
  const secrets = adminTokenSecrets(adminToken);
  let exchanges: readonly ExchangeRecord[] = [];
  const raw = await runSuite({
    checks: suite,
    ...againstTarget(profile, target, prism),
    concurrency: options.concurrency,
    only: options.only,
    skip: options.skip,
    ...(options.level === undefined ? {} : { level: options.level }),
    strict: options.strict ?? false,
    timeoutMs: options.timeout,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    fuzz: options.fuzz,
    secrets,
    label: run.label,
    interrupt: run.interrupt,
    onStart: (start) => active.forEach((reporter) => reporter.onStart?.(start)),
    onResult: (result) => active.forEach((reporter) => reporter.onResult?.(result)),
    onWait: (wait) => active.forEach((reporter) => reporter.onWait?.(wait)),
    ...(extras.waive === undefined ? {} : { waive: extras.waive }),
    onExchanges: (all) => {
      exchanges = all;
      extras.onExchanges(all);
      onExchanges(all);
    },
  });
  const report = extras.finishReport(raw);
  const files: string[] = [];
  for (const reporter of active) {
    const file = await reporter.onEnd(report);
    if (typeof file === 'string') files.push(file);
  }
  // Every run, whichever reporters: the exchanges are no report's, and under --certify the bundle holds them.
  files.push(await writeHar(extras.reportDir, suiteHar(report, exchanges)));
  if (files.length > 0) process.stdout.write(`\nReports:\n${files.map((file) => `  ${file}`).join('\n')}\n`);
  if (report.results.some((result) => result.findings.some((finding) => finding.exchange !== undefined))) {
    process.stdout.write(`\n${replayHint(options)}\n`);
  }
  process.stderr.write(`${verdictLine(report, useColour(process.stderr, process.env), performance.now() - run.startedAt)}\n`);
  if (report.interrupted !== undefined) {
    if (options.certify) process.stderr.write('no certification bundle: the run was interrupted\n');
    return signalExitCode(report.interrupted.signal);
  }
  const bundle = await extras.seal(report, profileSecrets(profile, secrets));
  if (bundle === null) return report.exitCode;
  process.stdout.write(`\n${bundleSummary(bundle)}\n`);
  return certificationExitCode(bundle.manifest.verdict);
}
