/**
 * What `waybill replay` says of each failure it ran again (D94): FIXED, STILL FAILING or NOT
 * REPRODUCED, the exit code they make, the console lines, and `replay.json`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { counted, seconds } from '../../cli/counted.ts';
import { signalExitCode } from '../../cli/interrupt.ts';
import { findingLines } from '../reporters/console.ts';
import type { Level, Outcome } from '../engine/types/check.ts';
import type { CheckResult, GradedClient, ReportedFinding, RunReport, SuiteName } from '../engine/types/report.ts';

/**
 * What became of a failure replayed: FIXED (it ran and passed), STILL FAILING (it ran and
 * failed again), NOT REPRODUCED (it could not be graded: skipped, in error, unknown to this
 * waybill or interrupted, so neither fixed nor failing).
 */
export type ReplayVerdict = 'FIXED' | 'STILL FAILING' | 'NOT REPRODUCED';

/** The verdicts in the order every count and summary gives them. */
export const VERDICTS: readonly ReplayVerdict[] = ['FIXED', 'STILL FAILING', 'NOT REPRODUCED'];

/** One failure of the report, replayed. */
export interface ReplayedCheck {
  id: string;
  title: string;
  level: Level;
  verdict: ReplayVerdict;
  /** Its outcome in the report replayed: `fail` or `waived`. */
  was: Outcome;
  /** Its outcome in the replay; absent when it did not run at all. */
  now?: Outcome;
  /** Why it is NOT REPRODUCED, in a sentence. */
  reason?: string;
  /** The checks run beside a run-level check so that it judged the requests its findings quoted again. */
  with?: string[];
  /** What the replay found, when it is STILL FAILING. */
  findings: ReportedFinding[];
  durationMs: number;
}

/** What a replay ran against, and what became of each failure. */
export interface ReplayRun {
  /** The implementation (conformance) or the sandbox it staged in (client-check). */
  target: string;
  seed: number;
  /** The client run again (client-check). */
  client?: GradedClient;
  checks: ReplayedCheck[];
  /** The signal that stopped it. */
  interrupted?: string;
}

/** `replay.json`: the replay of one report. */
export interface ReplayReport {
  replayVersion: 1;
  /** The report replayed: its file, the tool that made it, its target, seed and start. */
  replayOf: { report: string; suite: SuiteName; target: string; seed: number; startedAt: string };
  /** What the replay ran against: the implementation (conformance) or the sandbox it staged in (client-check). */
  target: string;
  seed: number;
  /** The client run again (client-check). */
  client?: GradedClient;
  startedAt: string;
  durationMs: number;
  checks: ReplayedCheck[];
  counts: Record<ReplayVerdict, number>;
  exitCode: number;
  interrupted?: { signal: string };
}

/** The verdict of `failed` (a result of the report) from what the replay made of it (`now`), or NOT REPRODUCED with `missing` when it did not run. */
export function replayedCheck(failed: CheckResult, now: CheckResult | undefined, missing: string, companions?: readonly string[]): ReplayedCheck {
  const base = { id: failed.id, title: failed.title, level: failed.level, was: failed.outcome, ...(companions === undefined || companions.length === 0 ? {} : { with: [...companions] }) };
  if (now === undefined) return { ...base, verdict: 'NOT REPRODUCED', reason: missing, findings: [], durationMs: 0 };
  const ran = { ...base, now: now.outcome, durationMs: now.durationMs };
  switch (now.outcome) {
    case 'pass':
      return { ...ran, verdict: 'FIXED', findings: [] };
    case 'fail':
    case 'waived':
      return { ...ran, verdict: 'STILL FAILING', findings: now.findings };
    case 'skip':
      return { ...ran, verdict: 'NOT REPRODUCED', reason: `skipped: ${now.reason ?? 'no reason given'}`, findings: [] };
    case 'error':
      return { ...ran, verdict: 'NOT REPRODUCED', reason: `ended in error: ${now.error?.message ?? 'no message'}`, findings: [] };
  }
}

/** 0 when every replayed failure is FIXED, 1 when one is STILL FAILING, else 2 (one NOT REPRODUCED); an interrupted replay exits as its signal says. */
export function replayExitCode(checks: readonly ReplayedCheck[], interrupted?: string): number {
  if (interrupted !== undefined) return signalExitCode(interrupted);
  if (checks.some((check) => check.verdict === 'STILL FAILING')) return 1;
  return checks.some((check) => check.verdict === 'NOT REPRODUCED') ? 2 : 0;
}

/** How many of each verdict. */
export function verdictCounts(checks: readonly ReplayedCheck[]): Record<ReplayVerdict, number> {
  return Object.fromEntries(VERDICTS.map((verdict) => [verdict, checks.filter((check) => check.verdict === verdict).length])) as Record<ReplayVerdict, number>;
}

const verdictWidth = Math.max(...VERDICTS.map((verdict) => verdict.length));

/** `  FIXED           auth.key.revoked (212 ms)`: one replayed failure as it ends. */
export function replayedLine(check: ReplayedCheck): string {
  const tail =
    check.verdict === 'STILL FAILING' ? ` — ${counted(check.findings.length, 'finding')}` : check.verdict === 'NOT REPRODUCED' ? ` — ${check.reason ?? ''}` : '';
  const companions = check.with === undefined ? '' : ` (judged with ${counted(check.with.length, 'check')} whose requests it quoted)`;
  const took = check.verdict === 'NOT REPRODUCED' ? '' : ` (${check.durationMs} ms)`;
  return `  ${check.verdict.padEnd(verdictWidth)}  ${check.id}${took}${tail}${companions}`;
}

/** The findings of each failure that is STILL FAILING, as the console prints a failure (at most five each). */
export function stillFailingLines(checks: readonly ReplayedCheck[]): string[] {
  return checks
    .filter((check) => check.verdict === 'STILL FAILING')
    .flatMap((check) => [
      '',
      `STILL FAILING ${check.id} [${check.level}] ${check.title}`,
      ...check.findings.slice(0, 5).flatMap((finding, index) => findingLines(finding, index)),
      ...(check.findings.length > 5 ? [`  … and ${counted(check.findings.length - 5, 'more finding')} in replay.json`] : []),
    ]);
}

/** `replay: 1 FIXED, 1 STILL FAILING, 0 NOT REPRODUCED (exit 1, 4.2 s)`: the one line that ends a replay, on stderr. */
export function summaryLine(replay: Pick<ReplayReport, 'counts' | 'exitCode' | 'durationMs' | 'interrupted'>): string {
  const counts = VERDICTS.map((verdict) => `${replay.counts[verdict]} ${verdict}`).join(', ');
  return `replay: ${counts} (exit ${replay.exitCode}${replay.interrupted === undefined ? '' : ', interrupted'}, ${seconds(replay.durationMs)})`;
}

/** Writes `<dir>/replay.json` and resolves to its path. */
export async function writeReplay(dir: string, replay: ReplayReport): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'replay.json');
  await writeFile(file, `${JSON.stringify(replay, null, 2)}\n`);
  return file;
}

/** The report replayed, as `replay.json` names it. */
export function replayOf(file: string, report: RunReport): ReplayReport['replayOf'] {
  return { report: file, suite: report.suite.name, target: report.target, seed: report.seed, startedAt: report.startedAt };
}

/** The verdicts of one replay as they become known: each failure's once, `onReplayed` told of each. */
export interface VerdictBook {
  /** A result of the replay's run: the verdict of the failure of its id, if it is one. */
  ran(result: CheckResult): void;
  /** A failure that could not run, NOT REPRODUCED for `reason`. */
  missed(failure: CheckResult, reason: string): void;
  /** Every failure's verdict, in the report's order; one not heard of yet is NOT REPRODUCED for `reason`. */
  close(reason: string): ReplayedCheck[];
}

/** A book of the verdicts of `failed`; `companions` gives the checks each run-level one ran with. */
export function verdictBook(failed: readonly CheckResult[], onReplayed: (check: ReplayedCheck) => void, companions: ReadonlyMap<string, readonly string[]> = new Map()): VerdictBook {
  const verdicts = new Map<string, ReplayedCheck>();
  const settle = (failure: CheckResult, result: CheckResult | undefined, reason: string) => {
    if (verdicts.has(failure.id)) return;
    const check = replayedCheck(failure, result, reason, companions.get(failure.id));
    verdicts.set(failure.id, check);
    onReplayed(check);
  };
  return {
    ran(result) {
      const failure = failed.find((candidate) => candidate.id === result.id);
      if (failure !== undefined) settle(failure, result, '');
    },
    missed: (failure, reason) => settle(failure, undefined, reason),
    close(reason) {
      for (const failure of failed) settle(failure, undefined, reason);
      return failed.map((failure) => verdicts.get(failure.id)!);
    },
  };
}

/** Why a failure the replay never heard of was not run: `not run`, or the interruption that stopped it. */
export function notRunReason(interrupted: string | undefined): string {
  return interrupted === undefined ? 'not run' : `not run: the replay was interrupted (${interrupted})`;
}

/** Why a failure of a check the replay does not know is NOT REPRODUCED: this waybill has no such `thing`, and the report's waybill when it was another. */
export function unknownReason(thing: string, report: Pick<RunReport, 'suite'>, current: string): string {
  return `no ${thing} in waybill ${current}${report.suite.version === current ? '' : ` (the report was made by waybill ${report.suite.version})`}`;
}
