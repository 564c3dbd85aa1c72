/**
 * Runs a list of checks against a target and returns the report. Knows nothing about the API:
 * checks bring the rules, the `Contract` brings the routes, spec hash, requirements register
 * (from which each check takes its level) and catalog coverage.
 * Order: independent checks in a pool of `concurrency`, then `exclusive` checks one at a time,
 * then `after: 'all'` checks, which see the exchanges of the whole run.
 */
import { performance } from 'node:perf_hooks';
import { PACKAGE_VERSION } from '../../spec/package-files.ts';
import { createCheckContext, type RunEnvironment, SkipSignal } from './context.ts';
import { createExchangeLog, ExchangeError } from '../transport/exchange.ts';
import { failsRun } from './exit-code.ts';
import { createPoolAllocator } from './pools.ts';
import { profileSummary } from '../setup/profile.ts';
import { createRedactor, profileSecrets, type Redactor, type Secret } from '../transport/redaction.ts';
import { planPreconditions } from './preconditions.ts';
import { createRouteMatcher } from '../contract/routes.ts';
import { selectChecks } from './select.ts';
import type { Check, Finding, Level, LevelFilter, Outcome, ResolvedCheck } from './types/check.ts';
import type { Contract, CoverageState } from './types/contract.ts';
import type { ExchangeRecord } from './types/exchange.ts';
import type { PoolName, Profile } from './types/profile.ts';
import type { CheckResult, CheckWait, OutcomeCounts, ReportedFinding, RunReport, RunStart, SuiteName, Waiver } from './types/report.ts';
import { runVerdict } from './verdict.ts';
import { fixProblem, requirementResults, resolveChecks } from './verifies.ts';

/** The suite's version: the package's. */
export const suiteVersion = PACKAGE_VERSION;

/** Everything a run needs. */
export interface RunOptions {
  checks: readonly Check[];
  profile: Profile;
  target: string;
  contract: Contract;
  /** How many independent checks run at once; default 4. */
  concurrency?: number;
  only?: readonly string[];
  skip?: readonly string[];
  level?: LevelFilter;
  /** DECISION failures count for the exit code. */
  strict?: boolean;
  /** Per request; default 10 000 ms. */
  timeoutMs?: number;
  /**
   * Where hand-written socket requests go (`ctx.raw`, `ctx.rawSession`) when that is not
   * `target`: behind a validating proxy, which reads whole bodies before forwarding, a
   * held or cut-off body must still reach the implementation itself.
   */
  rawTarget?: string;
  /** The implementation under test when `target` is a proxy in front of it: the report names this one. */
  reportedTarget?: string;
  /** Seeds every check's PRNG; random when absent, and recorded either way. */
  seed?: number;
  /** Generated cases the checks that draw them add (`--fuzz N`); default 0. */
  fuzz?: number;
  /** The tool the report names; default `waybill-conformance` (`waybill-client-check` for `waybill client-check`). */
  suite?: SuiteName;
  /** Secrets that are not in the profile (the admin token), redacted the same way. */
  secrets?: readonly Secret[];
  onStart?(start: RunStart): void;
  onResult?(result: CheckResult): void;
  /** A check is about to wait (`ctx.waiting`). */
  onWait?(wait: CheckWait): void;
  /** A waiver in force for a failed check: the result becomes `waived`, which never fails the run. */
  waive?(check: ResolvedCheck): Waiver | undefined;
  /** Receives every exchange of the run (redacted) once the last check has finished. */
  onExchanges?(exchanges: readonly ExchangeRecord[]): void;
  /** The name of what the run creates on the target; default `runLabel(start of the run)`. */
  label?: string;
  /**
   * Aborted when the user interrupts the run (Ctrl-C): no further check starts, a check still
   * running is left to finish on its own, and the report is written of what ran, every other
   * check skipped and the verdict INCOMPLETE. The abort's reason (`'SIGINT'`) is the report's.
   */
  interrupt?: AbortSignal;
}

/** `waybill conformance 2026-11-22T01:40:00Z`: the name of what a run started at `startedAt` creates (tenants). */
export function runLabel(startedAt: Date): string {
  return `waybill conformance ${startedAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
}

/** A check the runner will run, with the pool ids it was given. */
interface Planned {
  check: ResolvedCheck;
  pools: Map<PoolName, string[]>;
}

/** `target` without credentials, secrets or trailing slash, as the report shows it. */
function publicTarget(target: string, redactor: Redactor): string {
  const url = new URL(target);
  url.username = '';
  url.password = '';
  return redactor.redactUrl(url.toString()).replace(/\/+$/, '');
}

/**
 * Findings as the report holds them: every secret a check copied into their text redacted, each
 * with its fix sentence, its own or else the check's. A sentence of its own that cites none of
 * the check's requirements is a bug of the suite: it throws (the check ends in `error`).
 */
function reportedFindings(findings: readonly Finding[], check: ResolvedCheck, redactor: Redactor): ReportedFinding[] {
  return findings.map((finding) => {
    const problem = finding.fix === undefined ? null : fixProblem(finding.fix, check.verifies);
    if (problem !== null) throw new Error(`a finding of ${check.id} ${problem}`);
    return {
      ...finding,
      message: redactor.redact(String(finding.message)),
      expected: redactor.redact(String(finding.expected)),
      received: redactor.redact(String(finding.received)),
      fix: redactor.redact(finding.fix ?? check.fix),
    };
  });
}

/**
 * What a finding says of an exchange that got no answer. A connection refused (EPIPE) or reset
 * while the request was still being written is most often a server that answered early and
 * closed at once, which RFC 9112 §9.6 asks it not to do: the finding says so.
 */
function noAnswer(error: string, timeoutMs: number): { message: string; expected: string } {
  if (/\b(EPIPE|ECONNRESET)\b/.test(error)) {
    return {
      message: 'The target closed the connection before the client could read an answer, most likely while it was still sending the request',
      expected: `an HTTP answer within ${timeoutMs} ms; a server that refuses a body reads on before it closes, so the client sees the answer (RFC 9112 §9.6)`,
    };
  }
  return { message: 'The target gave no complete answer', expected: `an HTTP answer within ${timeoutMs} ms` };
}

/** Runs `tasks` with at most `limit` of them in flight; none starts once `stop` is aborted. */
async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>, stop?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && stop?.aborted !== true) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** Zero of every outcome. */
function noOutcomes(): OutcomeCounts {
  return { pass: 0, fail: 0, skip: 0, error: 0 };
}

/** Runs the selected checks and returns the report (see the module comment for the order). */
export async function runSuite(options: RunOptions): Promise<RunReport> {
  const ids = new Set<string>();
  for (const check of options.checks) {
    if (ids.has(check.id)) throw new Error(`two checks share the id '${check.id}'`);
    ids.add(check.id);
  }
  const strict = options.strict ?? false;
  const concurrency = options.concurrency ?? 4;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const level = options.level ?? 'all';
  const target = options.target.replace(/\/+$/, '');
  const selected = selectChecks(resolveChecks(options.checks, options.contract.requirements), { only: options.only ?? [], skip: options.skip ?? [], level });
  const redactor = createRedactor(profileSecrets(options.profile, options.secrets));
  const log = createExchangeLog();
  const env: RunEnvironment = {
    target,
    rawTarget: (options.rawTarget ?? target).replace(/\/+$/, ''),
    profile: options.profile,
    log,
    redactor,
    matchRoute: createRouteMatcher(options.contract.routes, target),
    timeoutMs,
    seed,
    fuzz: options.fuzz ?? 0,
    userAgent: `${options.suite ?? 'waybill-conformance'}/${suiteVersion}`,
    shared: new Map(),
    clientRuns: new Map(),
    runLabel: options.label ?? runLabel(new Date()),
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
  };
  const startedAt = new Date();
  options.onStart?.({ ...(options.suite === undefined ? {} : { suite: options.suite }), target: publicTarget(options.reportedTarget ?? target, redactor), suiteVersion, specHash: options.contract.specHash, seed, checkCount: selected.length, startedAt: startedAt.toISOString() });

  const results = new Map<string, CheckResult>();
  const finish = (check: ResolvedCheck, phase: CheckResult['phase'], started: Date, durationMs: number, found: Outcome, extra: Partial<CheckResult> = {}) => {
    // A check the interrupt left running may still end after the report was made: it is not heard of again.
    if (results.has(check.id)) return;
    const waiver = found === 'fail' ? options.waive?.(check) : undefined;
    const outcome: Outcome = waiver === undefined ? found : 'waived';
    const result: CheckResult = {
      id: check.id,
      family: check.family,
      title: check.title,
      level: check.level,
      rule: check.rule,
      verifies: [...check.verifies],
      requires: [...check.requires],
      outcome,
      failsRun: failsRun(check.level, outcome, strict),
      findings: [],
      phase,
      startedAt: started.toISOString(),
      durationMs: Math.round(durationMs),
      exchangeCount: log.all().filter((exchange) => exchange.checkId === check.id).length,
      ...(env.clientRuns.has(check.id) ? { clientRuns: env.clientRuns.get(check.id)! } : {}),
      ...extra,
      ...(waiver === undefined ? {} : { waiver }),
    };
    results.set(check.id, result);
    options.onResult?.(result);
  };
  const phaseOf = (check: Check): CheckResult['phase'] => (check.after === 'all' ? 'after-all' : check.exclusive ? 'exclusive' : 'concurrent');

  const allocator = createPoolAllocator(options.profile);
  const planned: Planned[] = [];
  for (const check of selected) {
    let plan;
    try {
      plan = planPreconditions(check.requires, options.profile, allocator);
    } catch (error) {
      finish(check, phaseOf(check), new Date(), 0, 'error', { error: { message: (error as Error).message } });
      continue;
    }
    if ('skip' in plan) finish(check, phaseOf(check), new Date(), 0, 'skip', { reason: plan.skip });
    else planned.push({ check, pools: plan.pools });
  }

  const interrupt = options.interrupt;
  const interrupted = interrupt === undefined ? null : new Promise<'interrupted'>((resolve) => {
    if (interrupt.aborted) resolve('interrupted');
    else interrupt.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  const interruption = () => `the run was interrupted (${String(interrupt?.reason ?? 'aborted')})`;
  const runOne = async ({ check, pools }: Planned) => {
    const started = new Date();
    const start = performance.now();
    let outcome: Outcome;
    let extra: Partial<CheckResult>;
    try {
      const running = check.run(createCheckContext(env, check.id, pools));
      const returned = interrupted === null ? await running : await Promise.race([running, interrupted]);
      if (returned === 'interrupted') {
        running.catch(() => undefined);
        finish(check, phaseOf(check), started, performance.now() - start, 'skip', { reason: `not finished: ${interruption()} while it ran` });
        return;
      }
      if (returned !== undefined && !Array.isArray(returned)) throw new Error(`run() returned ${typeof returned}, not an array of findings`);
      const findings = reportedFindings(returned ?? [], check, redactor);
      [outcome, extra] = [findings.length > 0 ? 'fail' : 'pass', { findings }];
    } catch (error) {
      if (error instanceof SkipSignal) {
        [outcome, extra] = ['skip', { reason: redactor.redact(error.reason) }];
      } else if (error instanceof ExchangeError) {
        // The target did not answer: that breaks the contract, it is not a bug of the suite.
        const finding = { ...noAnswer(error.message, timeoutMs), received: error.message, exchange: error.exchange };
        [outcome, extra] = ['fail', { findings: reportedFindings([finding], check, redactor) }];
      } else {
        const { message, stack } = error instanceof Error ? error : new Error(String(error));
        [outcome, extra] = ['error', { error: { message: redactor.redact(message), ...(stack ? { stack: redactor.redact(stack) } : {}) } }];
      }
    }
    finish(check, phaseOf(check), started, performance.now() - start, outcome, extra);
  };
  await pool(planned.filter(({ check }) => phaseOf(check) === 'concurrent'), concurrency, runOne, interrupt);
  for (const phase of ['exclusive', 'after-all'] as const) {
    for (const item of planned.filter(({ check }) => phaseOf(check) === phase)) {
      if (interrupt?.aborted) break;
      await runOne(item);
    }
  }
  for (const { check } of planned) {
    if (!results.has(check.id)) finish(check, phaseOf(check), new Date(), 0, 'skip', { reason: `not run: ${interruption()} before it started` });
  }

  const ordered = selected.map((check) => results.get(check.id)).filter((result): result is CheckResult => result !== undefined);
  const finishedAt = new Date();
  const byLevel: Record<Level, OutcomeCounts> = { MUST: noOutcomes(), SHOULD: noOutcomes(), DECISION: noOutcomes() };
  const byOutcome = noOutcomes();
  for (const result of ordered) {
    byOutcome[result.outcome] = (byOutcome[result.outcome] ?? 0) + 1;
    byLevel[result.level][result.outcome] = (byLevel[result.level][result.outcome] ?? 0) + 1;
  }
  options.onExchanges?.(log.all());
  const codes = options.contract.coverage(log.all(), options.profile);
  const coverageCounts: Record<CoverageState, number> = { exercised: 0, 'expected-not-seen': 0, 'not-reachable': 0 };
  const interruptedBy = interrupt?.aborted ? String(interrupt.reason ?? 'aborted') : undefined;
  const { exitCode, ...verdict } = runVerdict(options.suite ?? 'waybill-conformance', ordered, interruptedBy);
  for (const entry of codes) coverageCounts[entry.state] += 1;
  return {
    reportVersion: 1,
    suite: { name: options.suite ?? 'waybill-conformance', version: suiteVersion },
    specHash: options.contract.specHash,
    target: publicTarget(options.reportedTarget ?? target, redactor),
    seed,
    options: { only: [...(options.only ?? [])], skip: [...(options.skip ?? [])], level, strict, concurrency, timeoutMs, ...((options.fuzz ?? 0) > 0 ? { fuzz: options.fuzz! } : {}) },
    profile: profileSummary(options.profile),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    counts: {
      checks: ordered.length,
      byOutcome,
      byLevel,
      failing: ordered.filter((result) => result.failsRun).length,
      warnings: ordered.filter((result) => result.outcome === 'fail' && !result.failsRun).length,
    },
    exitCode,
    verdict,
    results: ordered,
    coverage: { codes, counts: coverageCounts },
    requirements: requirementResults(options.contract.requirements, ordered),
    exchangeCount: log.all().length,
    ...(interruptedBy === undefined ? {} : { interrupted: { signal: interruptedBy } }),
  };
}
