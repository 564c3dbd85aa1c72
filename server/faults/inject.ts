/**
 * Middleware: the fault injection of one integration operation (D51), and the problems it
 * answers on demand (D95). It runs after authentication, the rate limit and the scope check —
 * a fault belongs to a tenant and carries its RateLimit-* headers — and before the
 * idempotency key, the body and validation. A call of a tenant without rules that sends no
 * `Prefer` costs one map lookup.
 *
 * A fault `before` the request runs answers at once (nothing is written); one at the answer
 * (a write's `when: after`, and `malformed` and `stall`, which need the answer) lets the
 * request run to its end — effect committed, answer stored for its Idempotency-Key — and
 * takes over `res.end`: the answer is then lost, late, cut, dribbled or replaced. A write's
 * `after` fault strikes only an answer whose write committed.
 */
import type { NextFunction, Request, Response } from 'express';
import { catalogEntry, type CatalogCode, type OperationSpec, operations } from '../../spec/load.ts';
import { contextOf, principalOf } from '../http/context.ts';
import { aboutBlank, fieldError, problem, type ProblemError } from '../http/problem.ts';
import { sendProblem } from '../http/reply.ts';
import type { Faults } from './store.ts';
import { actsAfterWrite, type FaultPlan, type InjectedFault, planFromPrefer, planFromRules, type Strike, strikesAtAnswer } from './plan.ts';
import { parsePrefer, PreferError, type Preferred, type PreferTarget } from './prefer.ts';
import { forcedProblem } from './problems.ts';

/** How long a `stall` takes when the rule does not say (ms), and in how many parts its body comes. */
export const STALL = { durationMs: 10_000, parts: 10 } as const;

/** Headers an answer keeps when a status fault replaces it: who it is about, and the rate limit. */
const KEPT_HEADERS = new Set(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);

/** The problem a status fault answers, exactly as the contract gives it. */
function statusProblem(strike: Strike, requestId: string): ProblemError {
  const retryAfter: Record<string, string> = strike.retryAfterSeconds === null ? {} : { 'Retry-After': String(strike.retryAfterSeconds) };
  if (strike.status === 429 && strike.problemType === 'idempotency.inFlight') {
    // What the idempotency layer answers a key whose first request still runs (D13), staged.
    return problem('idempotency.inFlight', `A request with the same Idempotency-Key is still in flight (a fault the sandbox was asked for, D51); retry after the delay in Retry-After (${strike.retryAfterSeconds} s).`, undefined, { headers: retryAfter });
  }
  if (strike.status === 429) {
    return problem('api.rate_limited', `Rate limit exceeded (a fault the sandbox was asked for, D51); retry after ${strike.retryAfterSeconds} s.`, undefined, { headers: retryAfter });
  }
  if (strike.status === 503) {
    return aboutBlank(503, strike.retryAfterSeconds === null ? 'The service is unavailable; retry later.' : 'The service is unavailable; retry after the delay in Retry-After.', retryAfter);
  }
  return aboutBlank(500, `Unexpected error; quote the request id ${requestId}.`);
}

/** Runs `fn` after `ms`; the wait never keeps a stopping server's process alive (its connections are closed). */
function later(fn: () => void, ms: number): void {
  setTimeout(fn, ms).unref();
}

/** Closes the connection without an answer: a TCP reset, or a FIN before any byte. */
function cut(res: Response, how: 'reset' | 'empty'): void {
  const injected = contextOf(res).fault!;
  injected.status = 0;
  injected.answer = null;
  const socket = res.req.socket;
  if (how === 'reset') socket.resetAndDestroy();
  else socket.end();
}

/** The body `res.end` was given, as bytes. */
function bodyOf(args: unknown[]): Buffer {
  const [chunk, encoding] = args;
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.alloc(0);
}

/** Sends `body` in parts spread over `durationMs`, the headers at once; stops if the client goes away. */
function dribble(res: Response, end: Response['end'], body: Buffer, durationMs: number): void {
  contextOf(res).fault!.answer = body;
  res.flushHeaders();
  const timers: NodeJS.Timeout[] = [];
  for (let part = 1; part <= STALL.parts; part += 1) {
    const chunk = body.subarray(Math.floor(((part - 1) * body.length) / STALL.parts), Math.floor((part * body.length) / STALL.parts));
    const timer = setTimeout(() => {
      if (part < STALL.parts) res.write(chunk);
      else Reflect.apply(end, res, [chunk]);
    }, Math.round((part * durationMs) / STALL.parts));
    timers.push(timer.unref());
  }
  res.once('close', () => timers.forEach(clearTimeout));
}

/** Strikes at the answer `res.end` was given (`args`), `end` being the one to send with. */
function strikeAnswer(res: Response, end: Response['end'], args: unknown[], strike: Strike | null): void {
  if (strike === null) {
    Reflect.apply(end, res, args);
    return;
  }
  switch (strike.fault) {
    case 'reset':
    case 'empty':
      cut(res, strike.fault);
      return;
    case 'status':
      for (const name of res.getHeaderNames()) if (!KEPT_HEADERS.has(name)) res.removeHeader(name);
      contextOf(res).fault!.status = strike.status!;
      sendProblem(res.req, res, statusProblem(strike, contextOf(res).requestId));
      return;
    case 'malformed': {
      const body = bodyOf(args);
      const half = body.subarray(0, Math.floor(body.length / 2));
      contextOf(res).fault!.answer = half;
      if (body.length > 0) res.setHeader('Content-Length', half.length);
      Reflect.apply(end, res, [half]);
      return;
    }
    case 'stall':
      dribble(res, end, bodyOf(args), strike.durationMs ?? STALL.durationMs);
  }
}

/**
 * Takes over `res.end` once: the answer waits `plan.waitAfterMs`, then meets the plan's
 * strike. What the plan does `when: after` needs a write that committed: an answer that is
 * no 2xx (a request refused as invalid, an order not found) goes out untouched, and the
 * rules that fired for it get their firing back (D51).
 */
function interceptAnswer(res: Response, plan: FaultPlan, faults: Faults): void {
  const end = res.end;
  res.end = function faultyEnd(this: Response, ...args: unknown[]): Response {
    this.end = end;
    if (actsAfterWrite(plan) && (this.statusCode < 200 || this.statusCode > 299)) {
      for (const rule of plan.afterRules) faults.unfire(rule);
      const context = contextOf(this);
      if (plan.beforeMark === null) context.fault = undefined;
      else context.fault = { mark: plan.beforeMark };
      Reflect.apply(end, this, args);
      return this;
    }
    const strike = () => strikeAnswer(this, end, args, plan.strike);
    if (plan.waitAfterMs > 0) later(strike, plan.waitAfterMs);
    else strike();
    return this;
  } as Response['end'];
}

/** Carries out what the plan does before the request runs, then lets it run unless that ended it. */
function proceed(req: Request, res: Response, next: NextFunction, plan: FaultPlan, faults: Faults, operation: OperationSpec): void {
  const { strike } = plan;
  if (strike !== null && !strikesAtAnswer(strike)) {
    if (strike.fault === 'problem') {
      // requirement: D95
      const code = strike.problem as CatalogCode;
      contextOf(res).fault!.status = catalogEntry(code).status;
      next(forcedProblem(operation, code, req, res, strike.retryAfterSeconds));
    } else if (strike.fault === 'status') {
      contextOf(res).fault!.status = strike.status!;
      next(statusProblem(strike, contextOf(res).requestId));
    } else cut(res, strike.fault as 'reset' | 'empty');
    return;
  }
  if (strike !== null || plan.waitAfterMs > 0) interceptAnswer(res, plan, faults);
  if (req.socket.destroyed) return;
  next();
}

// requirement: D51
/** The fault injection of the integration operation `operationId`; `refusesPrefer`: it reads input of its own, so a malformed Prefer may be its 400 (D51). */
export function makeFaultInjection(options: { faults: Faults; operationId: string; write: boolean; refusesPrefer: boolean }) {
  const { faults, operationId, write } = options;
  const operation = operations.get(operationId)!;
  const target: PreferTarget = { operationId, write, errorCodes: operation.errorCodes };

  /** The preferences of the call, null when it asks for none (or for one it cannot have and may not be refused). */
  function preferredOf(header: string): Preferred | null {
    try {
      return parsePrefer(header, target);
    } catch (error) {
      if (!(error instanceof PreferError)) throw error;
      // whoami reads no input, so its only 400 is the HTTP layer's (D60): there a Prefer it cannot honour is ignored (D51).
      if (!options.refusesPrefer) return null;
      throw problem('api.malformed_request', error.message, [fieldError('Prefer', 'api.malformed_request', error.message, header)]);
    }
  }

  /** Lets the request meet `plan`, or go on untouched without one. */
  function carryOut(req: Request, res: Response, next: NextFunction, plan: FaultPlan | null): void {
    if (plan === null) {
      next();
      return;
    }
    const injected: InjectedFault = { mark: plan.mark };
    contextOf(res).fault = injected;
    if (plan.waitBeforeMs > 0) later(() => proceed(req, res, next, plan, faults, operation), plan.waitBeforeMs);
    else proceed(req, res, next, plan, faults, operation);
  }

  return function faultInjection(req: Request, res: Response, next: NextFunction): void {
    const header = req.headers.prefer;
    const prefer = Array.isArray(header) ? header.join(', ') : header;
    const { tenantId, keyId } = principalOf(res);
    const rules = faults.rulesOf(tenantId);
    if (prefer === undefined && rules === undefined) {
      next();
      return;
    }
    let plan: FaultPlan | null | Promise<FaultPlan | null>;
    try {
      const preferred = prefer === undefined ? null : preferredOf(prefer);
      plan = preferred !== null ? planFromPrefer(preferred) : rules === undefined ? null : planFromRules(rules, operationId, keyId, faults.count, faults.spend);
    } catch (error) {
      next(error);
      return;
    }
    // A rule's `times` spent in the database (several processes, D82) is awaited; in memory, nothing is.
    if (plan instanceof Promise) plan.then((planned) => carryOut(req, res, next, planned), next);
    else carryOut(req, res, next, plan);
  };
}
