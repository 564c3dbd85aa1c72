/**
 * Proofs that a scenario staged what it claims: before the client runs (the order in its status,
 * the fault rule armed, the key as the scenario needs it) and from the run (the fault struck the
 * client's first call). Each throws a `StagingError`, which ends the scenario in error: the run is
 * INCOMPLETE, never a pass or a fail over something that was not there.
 */
import type { Finding } from '../../engine/types/check.ts';
import type { FaultRuleState, LogSummary } from '../control-plane.ts';
import { GRADER_REQUEST_ID, type ScenarioSession, StagingError } from '../scenario.ts';
import { found } from './grading.ts';
import { counted } from '../../../cli/counted.ts';

/** Throws unless the order the setup noted as `orderId` (or `note`) is in `status`. */
export async function orderIs(session: ScenarioSession, status: string, note = 'orderId'): Promise<void> {
  const orderId = session.notes.get(note);
  if (orderId === undefined) throw new StagingError(`the setup noted no ${note}`);
  const actual = await session.control.orderStatus(session.tenantId, orderId);
  if (actual !== status) throw new StagingError(`the order ${orderId} is ${actual}, not ${status}`);
}

/**
 * Throws unless the tenant holds one fault rule like `rule` for the client's key, armed (not fired
 * yet). Rules name the client's key so that the grader's own calls never meet them.
 */
export async function faultArmed(session: ScenarioSession, rule: Partial<Pick<FaultRuleState, 'operation' | 'fault' | 'status' | 'when'>>): Promise<void> {
  const rules = await session.control.faults(session.tenantId);
  const like = rules.filter((candidate) => candidate.keyId === session.clientKeyId && Object.entries(rule).every(([name, value]) => candidate[name as keyof FaultRuleState] === value));
  if (like.length !== 1) throw new StagingError(`${counted(like.length, 'fault rule')} like ${JSON.stringify(rule)} in the tenant, not one`);
  const [armed] = like as [FaultRuleState];
  if (armed.fired > 0 || armed.remaining === 0) throw new StagingError(`the fault rule ${armed.id} fired before the client ran`);
}

/**
 * Throws unless the first of `attempts` (the client's calls of the faulted operation) carries the
 * fault `fault` of a rule: the scenario's fault struck the call it was set for.
 */
export function struckFirst(attempts: readonly LogSummary[], fault: string, status?: number): void {
  const [first] = attempts;
  if (first === undefined) return;
  if (first.fault?.fault !== fault || first.fault.source !== 'rule' || (status !== undefined && first.status !== status)) {
    throw new StagingError(`the ${fault}${status === undefined ? '' : ` ${status}`} fault did not strike the client's first ${first.operation} (#${first.id}: ${first.status}${first.fault === null ? ', no fault' : `, ${first.fault.fault}`})`);
  }
}

/**
 * A finding when the client's first write of `attempts` was refused 4xx with no fault: it never
 * committed, so an `after` fault could not strike it (D51). That is the client's failure — a
 * request the API does not take — not the staging's. Its fix sentence cites `rule`.
 */
export function refusedBeforeCommit(attempts: readonly LogSummary[], rule: string): Finding[] {
  const [first] = attempts;
  if (first === undefined || first.fault !== null || first.status < 400 || first.status > 499) return [];
  const refusal = `${first.status}${first.problemType === null ? '' : ` ${first.problemType}`}`;
  const fix = `send the write as the API takes it, a JSON body with Content-Type: application/json, so that it commits and a lost answer can be retried under its Idempotency-Key (${rule})`;
  return [found(`The client's ${first.operation} was refused ${refusal}: it never committed, so the scenario's lost answer never came to pass`, `a ${first.operation} the API takes (a JSON body, application/json), which commits`, refusal, [first], fix)];
}

/** Throws unless the client's key carries exactly `scopes` and is `revoked` or not. */
export async function clientKeyIs(session: ScenarioSession, expected: { scopes?: readonly string[]; revoked: boolean }): Promise<void> {
  const key = (await session.control.keys(session.tenantId)).find((candidate) => candidate.id === session.clientKeyId);
  if (key === undefined) throw new StagingError("the client's key is not among the tenant's keys");
  if (key.revoked !== expected.revoked) throw new StagingError(`the client's key is ${key.revoked ? '' : 'not '}revoked`);
  if (expected.scopes !== undefined && [...key.scopes].sort().join(' ') !== [...expected.scopes].sort().join(' ')) {
    throw new StagingError(`the client's key has the scopes ${key.scopes.join(', ')}, not ${expected.scopes.join(', ')}`);
  }
}

/** Waits `ms` milliseconds. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The client's first request (of `operation`, when given) once the log holds it, polled every
 * 15 ms (listing the log flushes it, D48); null when the client exited before making one.
 */
export async function firstRequest(session: ScenarioSession, exited: Promise<unknown>, operation?: string): Promise<LogSummary | null> {
  let done = false;
  void exited.then(() => (done = true));
  // Each poll reads only what was logged since the last one (the log ids grow).
  let afterId = 0;
  for (;;) {
    // Checked before the read: a request the client made just before it exited is still found.
    const last = done;
    const entries = await session.control.requests(session.tenantId, session.clientKeyId, afterId);
    const first = entries.find((entry) => !entry.requestId.startsWith(GRADER_REQUEST_ID) && (operation === undefined || entry.operation === operation));
    if (first !== undefined) return first;
    afterId = entries.at(-1)?.id ?? afterId;
    if (last) return null;
    await sleep(15);
  }
}

/** Polls until the client's fault rule like `rule` has fired (true), or the client exited first (false). */
export async function faultFired(session: ScenarioSession, exited: Promise<unknown>, rule: Pick<FaultRuleState, 'operation' | 'fault'>): Promise<boolean> {
  let done = false;
  void exited.then(() => (done = true));
  for (;;) {
    const last = done;
    const rules = await session.control.faults(session.tenantId);
    if (rules.some((candidate) => candidate.keyId === session.clientKeyId && candidate.operation === rule.operation && candidate.fault === rule.fault && candidate.fired > 0)) return true;
    if (last) return false;
    await sleep(15);
  }
}
