/** The two ways an answer leaves the server; both tell the idempotency store what was sent. */
import type { Request, Response } from 'express';
import { contextOf } from './context.ts';
import type { ProblemError } from './problem.ts';

/** Sends JSON text already serialised (the feeds build it in SQL). */
export function sendJsonText(res: Response, status: number, json: string): void {
  contextOf(res).onAnswer?.(status, 'application/json', json);
  res.status(status).type('application/json').send(json);
}

/** Sends an empty answer (204). */
export function sendEmpty(res: Response, status: number): void {
  contextOf(res).onAnswer?.(status, null, '');
  res.status(status).end();
}

/** Sends a problem as `application/problem+json`, with `instance` = the path and the request id (D23). */
export function sendProblem(req: Request, res: Response, problem: ProblemError): void {
  const body = JSON.stringify({
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    instance: `${req.path}#${contextOf(res).requestId}`,
    ...(problem.errors !== undefined && problem.errors.length > 0 ? { errors: problem.errors } : {}),
  });
  contextOf(res).onAnswer?.(problem.status, 'application/problem+json', body);
  res.status(problem.status).set(problem.headers).type('application/problem+json').send(body);
}
