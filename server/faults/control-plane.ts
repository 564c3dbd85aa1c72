/**
 * The tenant's fault rules in the control plane (D51): list them, add one, delete one or
 * all. A rule the schema lets through but that cannot be honoured — a field that does not
 * fit its fault, `when` on a read, a key that is not the tenant's, a `problem` its operation
 * does not list (D95) — is refused 400 `api.malformed_request` naming the field.
 */
import { randomInt } from 'node:crypto';
import type { components } from '../../spec/sandbox-types.ts';
import { type CatalogCode, catalogEntry, operations } from '../../spec/load.ts';
import { refuse } from '../domain/refusal.ts';
import { needsAnswer } from './kinds.ts';
import { unlistedProblem } from './prefer.ts';
import { STALL } from './inject.ts';
import { aboutBlank } from '../http/problem.ts';
import { sendEmpty } from '../http/reply.ts';
import type { FaultKind, FaultProblemType, FaultRuleSpec, FaultWhen } from './store.ts';
import type { Store } from '../store/index.ts';
import { bodyOf, type Handler, paramsOf, sendJson } from '../control-plane/respond.ts';

/** A rule as the control plane receives it (NewFaultRule of spec/sandbox.yaml), already valid against its schema. */
export type NewFaultRule = components['schemas']['NewFaultRule'];

/** The integration operations that write, and so have an effect to fail before or after: the contract's non-GET ones. */
const WRITES = new Set([...operations.values()].filter((operation) => operation.method !== 'GET').map((operation) => operation.operationId));

/** Refuses, naming `field`, a member given for a fault it does not fit. */
function refuseUnfit(input: NewFaultRule, field: keyof NewFaultRule, fits: string): void {
  if (input[field] !== undefined) refuse('api.malformed_request', `${field} applies to ${fits} only; leave it out of a ${input.fault === 'status' ? `status ${input.status}` : input.fault} rule.`, field, input[field]);
}

// requirement: D95
/** The code of a `problem` rule: one its operation lists in `x-error-codes`, else refused naming `problem` with those it can answer. */
function problemOf(input: NewFaultRule): CatalogCode | null {
  if (input.fault !== 'problem') {
    refuseUnfit(input, 'problem', 'problem faults');
    return null;
  }
  const errorCodes = operations.get(input.operation)!.errorCodes;
  if (input.problem === undefined) refuse('api.malformed_request', `A problem fault needs problem: one of ${errorCodes.join(', ')}.`, 'problem');
  if (!(errorCodes as readonly string[]).includes(input.problem)) refuse('api.malformed_request', unlistedProblem(input.problem, { operationId: input.operation, errorCodes }), 'problem', input.problem);
  return input.problem as CatalogCode;
}

/** True when the rule answers a 429, which takes `retryAfterSeconds`: a status 429, or a problem whose code is a 429. */
function answers429(input: NewFaultRule, problem: CatalogCode | null): boolean {
  return input.status === 429 || (problem !== null && catalogEntry(problem).status === 429);
}

/** Refuses the members that do not fit the rule's fault, and those a fault needs but lacks. */
function checkFit(input: NewFaultRule, problem: CatalogCode | null): void {
  const { fault } = input;
  if (fault !== 'status') refuseUnfit(input, 'status', 'status faults');
  if (fault === 'problem' ? !answers429(input, problem) : fault !== 'status' || input.status === 500) {
    refuseUnfit(input, 'retryAfterSeconds', 'status 429 and 503 faults, and problems answered 429');
  }
  if (fault !== 'status' || input.status !== 429) refuseUnfit(input, 'problemType', 'status 429 faults');
  if (input.problemType === 'idempotency.inFlight' && !WRITES.has(input.operation)) {
    refuse('api.malformed_request', `${input.operation} is a read, which takes no Idempotency-Key: only a write can have a request in flight; leave out problemType or send api.rate_limited.`, 'problemType', input.problemType);
  }
  if (fault !== 'latency') refuseUnfit(input, 'latencyMs', 'latency faults');
  if (fault !== 'stall') refuseUnfit(input, 'durationMs', 'stall faults');
  if (fault === 'status' && input.status === undefined) refuse('api.malformed_request', 'A status fault needs status: 429, 500 or 503.', 'status');
  if (fault === 'latency' && input.latencyMs === undefined) refuse('api.malformed_request', 'A latency fault needs latencyMs: a wait in ms, or {min, max}.', 'latencyMs');
  const range = input.latencyMs;
  if (typeof range === 'object' && range.min > range.max) refuse('api.malformed_request', `latencyMs.min (${range.min}) must not exceed latencyMs.max (${range.max}).`, 'latencyMs', `${range.min}-${range.max}`);
}

/** The rule's `when`: refused on a read, before a fault that needs the answer and after a problem; defaulted on a write. */
function whenOf(input: NewFaultRule): FaultWhen | null {
  const answerNeeded = needsAnswer(input.fault);
  if (!WRITES.has(input.operation)) {
    if (input.when !== undefined) refuse('api.malformed_request', `${input.operation} is a read, with no effect to fail before or after; leave out when.`, 'when', input.when);
    return null;
  }
  if (input.when === 'before' && answerNeeded) refuse('api.malformed_request', `A ${input.fault} fault needs the answer, so it strikes after the effect; leave out when or send after.`, 'when', input.when);
  if (input.when === 'after' && input.fault === 'problem') {
    refuse('api.malformed_request', 'A problem is answered as the sandbox refuses a request, before it runs and with nothing written; leave out when, or use a status fault with when after for an answer lost after the write.', 'when', input.when);
  }
  return input.when ?? (answerNeeded ? 'after' : 'before');
}

/** The rule's `times` and `seed`: `times` and `probability` exclude each other, and a seed needs something to draw. */
function countingOf(input: NewFaultRule, latencyMs: FaultRuleSpec['latencyMs']): Pick<FaultRuleSpec, 'times' | 'probability' | 'seed'> {
  if (input.times !== undefined && input.probability !== undefined) {
    refuse('api.malformed_request', 'times and probability do not go together: a rule fires on its next times calls, or on each call with a probability.', 'times', input.times);
  }
  const draws = input.probability !== undefined || (latencyMs !== null && latencyMs.min < latencyMs.max);
  if (input.seed !== undefined && !draws) refuse('api.malformed_request', 'seed seeds the draws of probability and of a latencyMs range; this rule draws nothing.', 'seed', input.seed);
  return {
    times: input.probability === undefined ? (input.times ?? 1) : null,
    probability: input.probability ?? null,
    seed: draws ? (input.seed ?? randomInt(2 ** 32)) : null,
  };
}

/** The stored form of a valid new rule of `tenantId`, defaults filled in; refuses what cannot be honoured. */
export async function ruleSpecOf(store: Store, tenantId: string, input: NewFaultRule): Promise<FaultRuleSpec> {
  const problem = problemOf(input);
  checkFit(input, problem);
  const when = whenOf(input);
  if (input.keyId !== undefined && (await store.keys.get(tenantId, input.keyId)) === undefined) {
    refuse('api.malformed_request', `The tenant has no key ${input.keyId}.`, 'keyId', input.keyId);
  }
  const latencyMs = input.latencyMs === undefined ? null : typeof input.latencyMs === 'number' ? { min: input.latencyMs, max: input.latencyMs } : { min: input.latencyMs.min, max: input.latencyMs.max };
  return {
    operation: input.operation,
    keyId: input.keyId ?? null,
    fault: input.fault,
    status: input.status ?? null,
    retryAfterSeconds: input.retryAfterSeconds ?? (answers429(input, problem) ? 1 : null),
    problemType: input.status === 429 ? (input.problemType ?? 'api.rate_limited') : null,
    problem,
    latencyMs,
    durationMs: input.fault === 'stall' ? (input.durationMs ?? STALL.durationMs) : null,
    when,
    ...countingOf(input, latencyMs),
  };
}

// requirement: D51
/** Handlers of the faults operations. */
export function makeFaultHandlers(store: Store): Record<string, Handler> {
  const { faults } = store;
  const tenantOf = (res: Parameters<Handler>[1]) => paramsOf(res)['tenantId']!;
  return {
    async listFaults(_req, res) {
      sendJson(res, 200, { items: await faults.list(tenantOf(res)) });
    },
    async createFault(_req, res) {
      const tenantId = tenantOf(res);
      sendJson(res, 201, await faults.add(tenantId, await ruleSpecOf(store, tenantId, bodyOf<NewFaultRule>(res))));
    },
    async deleteFaults(_req, res) {
      await faults.clear(tenantOf(res));
      sendEmpty(res, 204);
    },
    async deleteFault(_req, res) {
      const faultId = paramsOf(res)['faultId']!;
      if (!(await faults.remove(tenantOf(res), faultId))) throw aboutBlank(404, `No fault rule ${faultId} in the tenant.`);
      sendEmpty(res, 204);
    },
  };
}
