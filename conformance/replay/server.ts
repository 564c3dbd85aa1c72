/**
 * Replaying a conformance report's failures: the suite's own runner (`runSuite`) with `only` the
 * failed checks and the report's seed and options, against the report's target, with the
 * profile given again and the setup `waybill conformance` uses (setup/run-setup.ts).
 */
import { UsageError } from '../../cli/errors.ts';
import { integrationContract } from '../contract/contract.ts';
import { runLabel, runSuite, suiteVersion } from '../engine/runner.ts';
import { selectChecks } from '../engine/select.ts';
import { resolveChecks } from '../engine/verifies.ts';
import type { Check } from '../engine/types/check.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { Profile } from '../engine/types/profile.ts';
import type { CheckResult, CheckWait, RunReport } from '../engine/types/report.ts';
import { adminTokenSecrets, againstTarget, archiveRunTenants, checkTargetUrl, conformanceSuite, profileFrom, profileOrigin, type ProfileOrigin, readPools, startValidationProxy } from '../setup/run-setup.ts';
import { prismViolations } from '../checks/contract.ts';
import { notRunReason, type ReplayedCheck, type ReplayRun, unknownReason, verdictBook } from './verdicts.ts';

/** What a conformance replay is given. */
export interface ServerReplayOptions {
  report: RunReport;
  failed: readonly CheckResult[];
  /** The implementation at another address than the report's. */
  target?: string;
  profile?: string;
  provision?: boolean;
  adminToken?: string;
  keepTenants?: boolean;
  interrupt: AbortSignal;
  /** Each replayed failure as it ends. */
  onReplayed(check: ReplayedCheck): void;
  onWait?(wait: CheckWait): void;
}

/** The target to replay against: `--target`, else the report's (a usage error when the report's had a secret in it). */
function replayTarget(report: RunReport, given: string | undefined): string {
  if (given === undefined && report.target.includes('<redacted')) throw new UsageError(`the report's target ${report.target} had a secret in it, which the report leaves out: give --target URL`);
  const target = (given ?? report.target).replace(/\/+$/, '');
  checkTargetUrl(target);
  return target;
}

/**
 * The checks a run-level check is replayed with (those `after: 'all'`, which judge every
 * exchange of the run): the checks that made the exchanges its findings quote, so it judges
 * those requests again rather than a run of its own that sent none.
 */
function companionsOf(check: Check, failed: CheckResult, known: ReadonlySet<string>): string[] {
  if (check.after !== 'all') return [];
  const quoted = failed.findings.flatMap((finding) => (finding.exchange === undefined ? [] : [finding.exchange.checkId]));
  return [...new Set(quoted)].filter((id) => id !== check.id && known.has(id));
}

/** A line on stderr when the profile given lacks keys the run's profile had: the checks that need them will be NOT REPRODUCED. */
function warnOfMissingKeys(report: RunReport, profile: Profile): void {
  const missing = report.profile.keys.filter((key) => !(key in profile.keys));
  if (missing.length > 0) process.stderr.write(`waybill: warning: the profile has no ${missing.join(', ')}, which the run's profile had: a check that needs it is NOT REPRODUCED\n`);
}

/** Replays the failed checks of a conformance report (see the module comment). */
export async function replayServer(options: ServerReplayOptions): Promise<ReplayRun> {
  const { report, failed } = options;
  const target = replayTarget(report, options.target);
  const origin = await profileOrigin(options, target, 'the report holds no keys (they are secrets): give --profile FILE (the profile the run used, or the one --save-profile kept) or --provision (a fresh one from a waybill sandbox\'s control plane)');
  const fuzz = report.options.fuzz ?? 0;
  const suite = conformanceSuite({ viaPrism: failed.some((result) => result.id === prismViolations.id), fuzz });
  const byId = new Map(suite.map((check) => [check.id, check]));
  const known = new Set(byId.keys());
  const companions = new Map(failed.filter((result) => byId.has(result.id)).map((result) => [result.id, companionsOf(byId.get(result.id)!, result, known)]));
  const only = [...new Set([...companions.keys(), ...[...companions.values()].flat()])];
  const book = verdictBook(failed, options.onReplayed, companions);
  for (const failure of failed.filter((result) => !byId.has(result.id))) {
    book.missed(failure, `${unknownReason(`check ${failure.id}`, report, suiteVersion)}${failure.id === 'fuzz.requests' && fuzz === 0 ? '; the report does not say how many cases it drew' : ''}`);
  }
  let interrupted: string | undefined;
  if (only.length > 0) interrupted = (await runFailures({ ...options, target, origin, suite, only, fuzz }, (result) => book.ran(result))).interrupted?.signal;
  return { target, seed: report.seed, checks: book.close(notRunReason(interrupted)), ...(interrupted === undefined ? {} : { interrupted }) };
}

/** Runs `only` of `suite` as the report's run ran them: its seed, strictness, concurrency, timeout and fuzz cases; the profile read, the tenants archived. */
async function runFailures(
  run: ServerReplayOptions & { target: string; origin: ProfileOrigin; suite: Check[]; only: string[]; fuzz: number },
  onResult: (result: CheckResult) => void,
): Promise<RunReport> {
  const { report, target, origin, suite, only, interrupt } = run;
  const timeoutMs = report.options.timeoutMs;
  const label = runLabel(new Date());
  const provisioned = 'adminToken' in origin;
  let profile = await profileFrom(origin, target, timeoutMs, label);
  warnOfMissingKeys(report, profile);
  let exchanges: readonly ExchangeRecord[] = [];
  try {
    const selected = selectChecks(resolveChecks(suite, integrationContract.requirements), { only });
    if (!interrupt.aborted) profile = await readPools(target, profile, selected, timeoutMs, { name: provisioned ? 'the provisioned profile' : origin.file, refillable: !provisioned && profile.sandbox !== undefined });
    const prism = only.includes(prismViolations.id) && !interrupt.aborted ? await startValidationProxy(target) : null;
    try {
      return await runSuite({
        checks: suite,
        ...againstTarget(profile, target, prism),
        concurrency: report.options.concurrency,
        only,
        strict: report.options.strict,
        timeoutMs,
        seed: report.seed,
        fuzz: run.fuzz,
        secrets: adminTokenSecrets(provisioned ? origin.adminToken : undefined),
        label,
        interrupt,
        onResult,
        ...(run.onWait === undefined ? {} : { onWait: run.onWait }),
        onExchanges: (all) => (exchanges = all),
      });
    } finally {
      await prism?.stop();
    }
  } finally {
    await archiveRunTenants({ profile, target, timeoutMs, provisioned, ...(run.keepTenants ? { keepTenants: true } : {}), exchanges });
  }
}
