/**
 * What faults a call gets (D51): from the tenant's rules — tried oldest first, every
 * `latency` rule that fires adding its wait, the first other rule that fires deciding the
 * answer — or, when the request sends `Prefer: fault=…` / `latency=…`, from that alone.
 */
import { type FaultKind, type FaultProblemType, type FaultRule, type FaultWhen, spendInMemory } from './store.ts';
import { type CatalogCode, catalogEntry } from '../../spec/load.ts';
import type { components } from '../../spec/sandbox-types.ts';
import { DRAW, draw, drawBetween } from './draw.ts';
import { needsAnswer } from './kinds.ts';
import type { Preferred } from './prefer.ts';

/** The fault of a call as the request log records it (RequestLogFault of spec/sandbox.yaml). */
export type FaultMark = components['schemas']['RequestLogFault'];

/** A fault injected into a request: its mark, and what the client got when it is not what the server answered. */
export interface InjectedFault {
  mark: FaultMark;
  /** The status the client got (0: no answer at all), when the fault changed it. */
  status?: number;
  /** The bytes the client got (null: none), when the fault changed them. */
  answer?: string | Buffer | null;
}

/** The fault that decides the answer. */
export interface Strike {
  fault: Exclude<FaultKind, 'latency'>;
  status: FaultRule['status'];
  retryAfterSeconds: number | null;
  /** The `type` of a 429's problem (null for other faults). */
  problemType: FaultProblemType | null;
  /** The code a `problem` fault answers as the sandbox answers it for real (D95); null for other faults. */
  problem: CatalogCode | null;
  durationMs: number | null;
  /** Null on a read: `malformed` and `stall` strike at the answer, the others before the request runs. */
  when: FaultWhen | null;
}

/** What happens to a call. */
export interface FaultPlan {
  waitBeforeMs: number;
  /** Waited after the effect, before the answer (a write's `when: after` latency). */
  waitAfterMs: number;
  strike: Strike | null;
  mark: FaultMark;
  /**
   * The rules that fired `when: after`: they strike only an answer whose write committed
   * (2xx), and give their firing back otherwise (D51).
   */
  afterRules: FaultRule[];
  /** The mark when only the waits before the request happen (an `after` part met no committed write); null when there are none. */
  beforeMark: FaultMark | null;
}

/** True when the plan does something once the write has run: a strike or a wait `when: after`. */
export function actsAfterWrite(plan: FaultPlan): boolean {
  return plan.waitAfterMs > 0 || plan.strike?.when === 'after';
}

/** True when the call is faulted at its answer rather than before it runs. */
export function strikesAtAnswer(strike: Strike): boolean {
  return strike.when === 'after' || needsAnswer(strike.fault);
}

/** The wait of a latency rule on its `n`-th matching call. */
function waitOf(rule: FaultRule, n: number): number {
  const { min, max } = rule.latencyMs!;
  return min === max ? min : drawBetween(min, max, draw(rule.seed!, n, DRAW.latency));
}

/** Planning a call: yields each rule with `times` about to fire, to be answered whether one of its times was spent for it. */
export type Planning = Generator<FaultRule, FaultPlan | null, boolean>;

// requirement: D51
/**
 * The plan of a call of `operation` with `keyId` under `rules`, step by step: a rule with
 * `times` that would fire is yielded, and fires only when the answer says one of its times
 * was spent for it (D82). `count` is told of every rule the call matched and whether it
 * fired (the store keeps the counters). Null when no rule fired.
 */
export function* planning(rules: readonly FaultRule[], operation: string, keyId: string, count: (rule: FaultRule, fired: boolean) => void): Planning {
  let waitBeforeMs = 0;
  let waitAfterMs = 0;
  let latencyRule: FaultRule | null = null;
  let beforeLatencyRule: FaultRule | null = null;
  let strikeRule: FaultRule | null = null;
  const afterRules: FaultRule[] = [];
  for (const rule of rules) {
    if (rule.operation !== operation || (rule.keyId !== null && rule.keyId !== keyId)) continue;
    const n = rule.matched;
    const eligible = rule.remaining !== 0 && (rule.fault === 'latency' || strikeRule === null);
    let fires = eligible && (rule.probability === null || draw(rule.seed!, n, DRAW.fire) < rule.probability);
    // Spent now, so that concurrent calls never share one of its `times`; an `after` rule
    // gives it back when the write does not commit (inject.ts).
    if (fires && rule.remaining !== null) fires = yield rule;
    count(rule, fires);
    if (!fires) continue;
    if (rule.when === 'after') afterRules.push(rule);
    if (rule.fault !== 'latency') {
      strikeRule = rule;
      continue;
    }
    latencyRule ??= rule;
    if (rule.when === 'after') waitAfterMs += waitOf(rule, n);
    else {
      beforeLatencyRule ??= rule;
      waitBeforeMs += waitOf(rule, n);
    }
  }
  const decisive = strikeRule ?? latencyRule;
  if (decisive === null) return null;
  const strike: Strike | null =
    strikeRule === null
      ? null
      : {
          fault: strikeRule.fault as Strike['fault'],
          status: strikeRule.status,
          retryAfterSeconds: strikeRule.retryAfterSeconds,
          problemType: strikeRule.problemType,
          problem: strikeRule.problem as CatalogCode | null,
          durationMs: strikeRule.durationMs,
          when: strikeRule.when,
        };
  const mark: FaultMark = { fault: decisive.fault, source: 'rule', ruleId: decisive.id, when: decisive.when, ...(latencyRule === null ? {} : { latencyMs: waitBeforeMs + waitAfterMs }) };
  const beforeMark: FaultMark | null = beforeLatencyRule === null ? null : { fault: 'latency', source: 'rule', ruleId: beforeLatencyRule.id, when: beforeLatencyRule.when, latencyMs: waitBeforeMs };
  return { waitBeforeMs, waitAfterMs, strike, mark, afterRules, beforeMark };
}

/**
 * The plan of a call (`planning`), each `times` spent by `spend`: at once when it answers at
 * once (one process, in memory: the hot path awaits nothing), else once the database has
 * answered each in turn.
 */
export function planFromRules(
  rules: readonly FaultRule[],
  operation: string,
  keyId: string,
  count: (rule: FaultRule, fired: boolean) => void,
  spend: (rule: FaultRule) => boolean | Promise<boolean> = spendInMemory,
): FaultPlan | null | Promise<FaultPlan | null> {
  const steps = planning(rules, operation, keyId, count);
  let step = steps.next();
  while (!step.done) {
    const spent = spend(step.value);
    if (spent instanceof Promise) return spent.then((answer) => finish(steps, answer, spend));
    step = steps.next(spent);
  }
  return step.value;
}

/** Goes on planning from a spend the database answered, awaiting each further one. */
async function finish(steps: Planning, answer: boolean, spend: (rule: FaultRule) => boolean | Promise<boolean>): Promise<FaultPlan | null> {
  let step = steps.next(answer);
  while (!step.done) step = steps.next(await spend(step.value));
  return step.value;
}

/** The strike of `Prefer: fault=…` or `problem=…`, or null when it asks only for a wait. */
function preferredStrike({ fault, problem }: Preferred): Strike | null {
  if (problem !== null) {
    // requirement: D95
    const status = catalogEntry(problem.code).status;
    return { fault: 'problem', status: null, retryAfterSeconds: status === 429 ? 1 : null, problemType: null, problem: problem.code, durationMs: null, when: problem.when };
  }
  if (fault === null) return null;
  return { fault: fault.fault, status: fault.status, retryAfterSeconds: fault.status === 429 ? 1 : null, problemType: fault.status === 429 ? 'api.rate_limited' : null, problem: null, durationMs: null, when: fault.when };
}

/** The plan of a call that asked for its faults with `Prefer`; a latency range is drawn at random. */
export function planFromPrefer(preferred: Preferred): FaultPlan {
  const { latency } = preferred;
  const wait = latency === null ? 0 : drawBetween(latency.min, latency.max, Math.random());
  const strike = preferredStrike(preferred);
  const when = strike?.when ?? latency?.when ?? null;
  const waitBeforeMs = latency !== null && latency.when !== 'after' ? wait : 0;
  return {
    waitBeforeMs,
    waitAfterMs: latency?.when === 'after' ? wait : 0,
    strike,
    mark: { fault: strike?.fault ?? 'latency', source: 'prefer', ruleId: null, when, ...(latency === null ? {} : { latencyMs: wait }) },
    afterRules: [],
    beforeMark: waitBeforeMs > 0 ? { fault: 'latency', source: 'prefer', ruleId: null, when: latency!.when, latencyMs: waitBeforeMs } : null,
  };
}
