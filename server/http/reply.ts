/** The two ways an answer leaves the server; both tell the idempotency store what was sent. */
import type { Request, Response } from 'express';
import { contextOf, RequestContext } from './context.ts';
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
 * feeds' hot path. Node itself leaves the body out of an answer to HEAD. The head goes out in
 * one `writeHead` with the headers the request context kept (request id, rate limit), unless
 * something took over `end` (a fault, D51, may still change the head when the answer comes):
 * then the headers are set on the response and the head is written at `end`, as before.
 */
function writeText(res: Response, status: number, contentType: string, body: string): void {
  const type = `${contentType}; charset=utf-8`;
  const bytes = Buffer.byteLength(body);
  const context = res.locals;
  if (context instanceof RequestContext && !Object.hasOwn(res, 'end') && !res.headersSent) {
    const headers = context.headers;
    context.headers = [];
    headers.push('Content-Type', type, 'Content-Length', String(bytes));
    context.answerType = type;
    context.answerBytes = bytes;
    res.writeHead(status, headers);
    res.end(body);
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', bytes);
  res.end(body);
}

/**
 * Makes the responses of `prototype` set the headers their request context kept
 * (`setAnswerHeader`) before their head goes out, however it goes out: Node writes every
 * head through `writeHead`, called or implied by the first write or `end`. Once per prototype.
 */
export function writePendingHeaders(prototype: Response): void {
  if (Object.hasOwn(prototype, 'writeHead')) return;
  const writeHead = prototype.writeHead;
  prototype.writeHead = function writeHeadWithPending(this: Response, ...args: unknown[]): Response {
    const context = this.locals;
    if (context instanceof RequestContext && context.headers.length > 0) {
      const pending = context.headers;
      context.headers = [];
      for (let at = 0; at < pending.length; at += 2) if (!this.hasHeader(pending[at]!)) this.setHeader(pending[at]!, pending[at + 1]!);
    }
    return Reflect.apply(writeHead, this, args) as Response;
  } as Response['writeHead'];
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
