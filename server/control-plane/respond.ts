/** What every control-plane handler shares: its validated input, JSON answers, and refusals answered as problems. */
import type { NextFunction, Request, Response } from 'express';
import { catalogEntry } from '../../spec/load.ts';
import { Refusal } from '../domain/refusal.ts';
import { contextOf } from '../http/context.ts';
import { fieldError, problem, type ProblemError } from '../http/problem.ts';
import { sendJsonText } from '../http/reply.ts';

/**
 * A control-plane handler: it answers or throws (a Refusal or a problem). Most are
 * synchronous; one that waits (a clock advance running the simulation) returns a promise,
 * and a rejection is answered the same way.
 */
export type Handler = (req: Request, res: Response) => void | Promise<void>;

/** The problem a refusal is answered with: its catalog code and status, and for a 400 the field it names. */
export function refusalProblem(refusal: Refusal): ProblemError {
  const { field } = refusal;
  const errors = catalogEntry(refusal.code).status === 400 && field !== undefined ? [fieldError(field.name, refusal.code, refusal.detail, field.value)] : undefined;
  return problem(refusal.code, refusal.detail, errors);
}

/** Runs `handler`, answering a Refusal it throws as its problem. */
export function answering(handler: Handler) {
  const fail = (next: NextFunction) => (error: unknown) => next(error instanceof Refusal ? refusalProblem(error) : error);
  return function answer(req: Request, res: Response, next: NextFunction): void {
    try {
      const pending = handler(req, res);
      if (pending !== undefined) pending.catch(fail(next));
    } catch (error) {
      fail(next)(error);
    }
  };
}

/** The validated path parameters (coerced to their schema types). */
export function paramsOf(res: Response): Record<string, string> {
  return contextOf(res).input!.params;
}

/** The validated query. */
export function queryOf<T>(res: Response): T {
  return contextOf(res).input!.query as T;
}

/** The validated body. */
export function bodyOf<T>(res: Response): T {
  return contextOf(res).input!.body as T;
}

/** Sends `value` as JSON with `status`. */
export function sendJson(res: Response, status: number, value: unknown): void {
  sendJsonText(res, status, JSON.stringify(value));
}
