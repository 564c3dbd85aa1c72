/**
 * Checks and the requirements they verify. A check's level and rule text are never written by
 * hand: `resolveChecks` derives them from the register the contract brings, and refuses a check
 * that verifies nothing, names an id the register lacks or one no exchange can test, or mixes a
 * seed statement with a decision (a MUST failure must always point at a sentence of the seeds),
 * or brings no fix sentence citing what it verifies.
 * `requirementResults` turns a run's results into coverage of the register.
 */
import type { Check, Level, ResolvedCheck } from './types/check.ts';
import type { RequirementInfo } from './types/contract.ts';
import type { CheckResult, RequirementCounts, RequirementOutcome, RequirementResult, RunReport } from './types/report.ts';

/** A check whose `verifies` the register cannot back: a bug of the suite, found before any request. */
export class CheckDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckDefinitionError';
  }
}

const strictness: Record<Level, number> = { MUST: 0, SHOULD: 1, DECISION: 2 };

/** The level a check takes from the requirements it verifies (the strictest of them). */
export function levelOf(verified: readonly RequirementInfo[]): Level {
  return verified.map((requirement) => requirement.level).sort((a, b) => strictness[a] - strictness[b])[0]!;
}

/** `Source: "quote"`, one per requirement, as a check's rule and a report cite it. */
export function citation(requirement: RequirementInfo): string {
  return `${requirement.source}: "${requirement.quote}"`;
}

/** The ids a fix sentence cites: those in the parentheses it ends with (`… (D13)`, `… (int.a, int.b)`); none when it ends otherwise. */
export function citedIds(fix: string): string[] {
  const cited = /\(([^()]+)\)$/.exec(fix)?.[1];
  return cited === undefined ? [] : cited.split(', ');
}

/** What is wrong with `fix` as the fix sentence of a check verifying `verifies`, or null: it must end citing ids, each one of those. */
export function fixProblem(fix: unknown, verifies: readonly string[]): string | null {
  if (typeof fix !== 'string' || fix.trim() === '') return 'has no fix sentence';
  const cited = citedIds(fix);
  if (cited.length === 0) return `has a fix sentence that cites no id at its end: "${fix}"`;
  const foreign = cited.filter((id) => !verifies.includes(id));
  if (foreign.length > 0) return `has a fix sentence citing ${foreign.join(', ')}, which it does not verify: "${fix}"`;
  return null;
}

/** `check` with the level and rule its requirements give it; throws `CheckDefinitionError` when they cannot, or when its fix sentence cites none of them. */
export function resolveCheck(check: Check, register: ReadonlyMap<string, RequirementInfo>): ResolvedCheck {
  if (check.verifies.length === 0) throw new CheckDefinitionError(`check ${check.id} verifies no requirement`);
  const verified = check.verifies.map((id) => {
    const requirement = register.get(id);
    if (requirement === undefined) throw new CheckDefinitionError(`check ${check.id} verifies '${id}', which the requirements register does not hold`);
    if (!requirement.testable) throw new CheckDefinitionError(`check ${check.id} verifies '${id}', which the register lists as not testable over HTTP`);
    return requirement;
  });
  const decisions = verified.filter((requirement) => requirement.level === 'DECISION');
  if (decisions.length > 0 && decisions.length < verified.length) {
    throw new CheckDefinitionError(`check ${check.id} mixes seed statements with decisions (${check.verifies.join(', ')}): split it`);
  }
  const problem = fixProblem(check.fix, check.verifies);
  if (problem !== null) throw new CheckDefinitionError(`check ${check.id} ${problem}`);
  return { ...check, level: levelOf(verified), rule: verified.map(citation).join(' · ') };
}

/** Every check resolved, in order (see `resolveCheck`). */
export function resolveChecks(checks: readonly Check[], register: ReadonlyMap<string, RequirementInfo>): ResolvedCheck[] {
  return checks.map((check) => resolveCheck(check, register));
}

/** True when `requirement` is a decision of waybill's (spec/DECISIONS.md), not a seed statement (see `RequirementInfo.origin`). */
export function isDecision(requirement: Pick<RequirementInfo, 'level' | 'origin'>): boolean {
  return (requirement.origin ?? (requirement.level === 'DECISION' ? 'decision' : 'seed')) === 'decision';
}

/** Where a requirement stands, given the results of the checks that verify it. */
function outcomeOf(requirement: RequirementInfo, checks: readonly Pick<CheckResult, 'outcome'>[]): RequirementOutcome {
  if (!requirement.testable) return 'not-testable';
  if (checks.length === 0) return 'untested';
  for (const outcome of ['fail', 'error', 'waived', 'pass'] as const) if (checks.some((check) => check.outcome === outcome)) return outcome;
  return 'skip';
}

/** Counts over `entries` (seed statements or decisions). */
function countsOf(entries: readonly RequirementResult[]): RequirementCounts {
  const testable = entries.filter((entry) => entry.testable);
  return {
    total: entries.length,
    testable: testable.length,
    covered: testable.filter((entry) => ['pass', 'fail', 'error', 'waived'].includes(entry.outcome)).length,
    passed: testable.filter((entry) => entry.outcome === 'pass').length,
    failed: testable.filter((entry) => entry.outcome === 'fail').length,
  };
}

/** The register after a run: each requirement with the checks of the run that verify it, seed statements first. */
export function requirementResults(register: ReadonlyMap<string, RequirementInfo>, results: readonly CheckResult[]): RunReport['requirements'] {
  const verifying = new Map<string, { id: string; outcome: CheckResult['outcome'] }[]>();
  for (const result of results) {
    for (const id of result.verifies) verifying.set(id, [...(verifying.get(id) ?? []), { id: result.id, outcome: result.outcome }]);
  }
  const entries = [...register.values()]
    .map((requirement): RequirementResult => {
      const checks = verifying.get(requirement.id) ?? [];
      return { ...requirement, checks, outcome: outcomeOf(requirement, checks) };
    })
    .sort((a, b) => Number(isDecision(a)) - Number(isDecision(b)));
  return {
    entries,
    counts: {
      seed: countsOf(entries.filter((entry) => !isDecision(entry))),
      decision: countsOf(entries.filter(isDecision)),
    },
  };
}
