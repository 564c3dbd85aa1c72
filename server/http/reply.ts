/** The two ways an answer leaves the server; both tell the idempotency store what was sent. */
import type { Request, Response } from 'express';
import { contextOf } from './context.ts';
import type { ProblemError } from './problem.ts';

/**
 * Tells the idempotency store what is about to be sent, lets go of the request's key, then
 * sends it with `send`: once the answer is stored and the key free, when either takes a wait
 * (a retry must find the answer, and not the key in flight). Sent all the same when storing
 * fails: the write it answers happened.
 */
function answer(res: Response, status: number, contentType: string | null, body: string, send: () => void): void {
  const context = contextOf(res);
  const storing = context.onAnswer?.(status, contentType, body);
  const sendFree = () => {
    const lettingGo = context.letGoOfKey?.();
    if (lettingGo === undefined) send();
    else lettingGo.then(send, send);
  };
  if (storing === undefined) sendFree();
  else storing.then(sendFree, sendFree);
}

/**
 * Writes `body` with its type and length straight to Node's response: the text is final,
 * so Express's `send` (type sniffing, ETag and freshness checks) would only cost time on the
 * feeds' hot path. Node itself leaves the body out of an answer to HEAD.
 */
function writeText(res: Response, status: number, contentType: string, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${contentType}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

// requirement: int.service.json
/** Sends JSON text already serialised (the feeds build it in SQL). */
export function sendJsonText(res: Response, status: number, json: string): void {
  // A read (no Idempotency-Key to store or let go) is written at once, with no closure made for it.
  const context = contextOf(res);
  if (context.onAnswer === undefined && context.letGoOfKey === undefined) writeText(res, status, 'application/json', json);
  else answer(res, status, 'application/json', json, () => writeText(res, status, 'application/json', json));
}

/** Sends an empty answer (204). */
export function sendEmpty(res: Response, status: number): void {
  answer(res, status, null, '', () => res.status(status).end());
}

// requirement: int.service.json
// requirement: int.errors.problem-json
// requirement: int.errors.validation-body
// requirement: int.errors.validation-errors
// requirement: int.errors.no-overridable
// requirement: int.errors.other-bodies
// requirement: cat.validation-errors
// requirement: D23
/** Sends a problem as `application/problem+json`, with `instance` = the path and the request id (D23). */
export function sendProblem(req: Request, res: Response, problem: ProblemError): void {
  const body = JSON.stringify({
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    // The path is echoed at most 200 characters long: a huge id in it should not make a huge answer.
    instance: `${req.path.slice(0, 200)}#${contextOf(res).requestId}`,
    ...(problem.errors !== undefined && problem.errors.length > 0 ? { errors: problem.errors } : {}),
  });
  answer(res, problem.status, 'application/problem+json', body, () => {
    for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
    writeText(res, problem.status, 'application/problem+json', body);
  });
}
