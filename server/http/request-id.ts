/** Request ids (D23): every answer carries `X-Request-Id`, echoing a sane client value. */
import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { contextOf, setAnswerHeader } from './context.ts';

const ACCEPTED = /^[\x21-\x7e]{1,128}$/;

// A random prefix per process and a counter: unique across restarts, and no random bytes per request.
const PREFIX = `req_${randomBytes(6).toString('base64url')}`;
let issued = 0;

/** A fresh request id, e.g. `req_4bq0m2xk7dpa3f`. */
export function newRequestId(): string {
  issued += 1;
  return `${PREFIX}${issued.toString(36)}`;
}

// requirement: D23
/** Middleware: takes the client's `X-Request-Id` when it is 1–128 visible ASCII characters, issues one otherwise. */
export function makeRequestId() {
  return function requestId(req: Request, res: Response, next: NextFunction): void {
    // Node's parsed headers and `setHeader` directly: Express's `get` and `set` only add work here.
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && ACCEPTED.test(sent) ? sent : newRequestId();
    contextOf(res).requestId = id;
    setAnswerHeader(res, 'X-Request-Id', id);
    next();
  };
}
