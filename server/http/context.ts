/** What the middleware chain learns about a request, kept on `res.locals`. */
import type { Response } from 'express';
import type { InjectedFault } from '../faults/plan.ts';
import type { KeyPrincipal } from '../tenants/keys.ts';
import type { LoggedPage } from '../request-log/store.ts';

/** The request's validated inputs, coerced to their schema types. */
export interface ValidInput {
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
}

/**
 * The per-request state the middleware shares, one per request as `res.locals`: a class with
 * every field there from the start, so that all requests' contexts share one shape that V8
 * reads fast (an `Object.create(null)` bag, Express's default, is a dictionary, and a field
 * deleted from an object turns it into one). A field not known yet is undefined.
 */
export class RequestContext {
  requestId = '';
  /** The integration operation the request reached (its route names it), for the request log. */
  operation: string | undefined = undefined;
  principal: KeyPrincipal | undefined = undefined;
  input: ValidInput | undefined = undefined;
  /** The request body's bytes as received (for the Idempotency-Key fingerprint). */
  rawBody: Buffer | undefined = undefined;
  /** Called with every answer this request sends (the idempotency store listens); the answer waits for a promise it returns. */
  onAnswer: ((status: number, contentType: string | null, body: string) => Promise<void> | undefined) | undefined = undefined;
  /**
   * Lets go of the request's Idempotency-Key once its answer is stored and before it is sent,
   * so that a retry made on seeing the answer never finds the key still in flight (D13); the
   * answer waits for a promise it returns.
   */
  letGoOfKey: (() => Promise<void> | undefined) | undefined = undefined;
  /** The orders and trips this request changed (the request log records them, D48). */
  changed: { orderIds: string[]; tripIds: string[] } | undefined = undefined;
  /** The fault injected into this request (D51), which the request log marks. */
  fault: InjectedFault | undefined = undefined;
  /** The feed page this request answered, as the request log keeps it (D48). */
  feedPage: LoggedPage | undefined = undefined;
  /**
   * Headers of the answer not set on the response yet, as name, value, name, value: the answer
   * writes them with its own in one `writeHead` (a `setHeader` each cost 3–4 times as much),
   * or, written any other way, the response sets them before its head goes out
   * (`writePendingHeaders`, server/http/reply.ts).
   */
  headers: string[] = [];
  /** The answer's content type and byte length, when it was written with `writeHead` alone (the response then holds no header to read). */
  answerType: string | null = null;
  answerBytes = 0;
  /** Whether the request log records this request's answer (server/request-log/capture.ts), and when it started (wall clock, ms, and `performance.now()`). */
  logged = false;
  logStartedAt = 0;
  logStartedMs = 0;
  /** The body the answer was ended with, as `res.end` got it, when `logged`. */
  logAnswer: string | Buffer | null = null;
}

/** The request context of `res` (made with the request: `withContext`). */
export function contextOf(res: Response): RequestContext {
  return res.locals as RequestContext;
}

/**
 * Sets header `name` of the answer of `res`: kept in its request context until the answer is
 * written (replacing one of the same name kept before), or set on the response at once when
 * it has none (a response the sandbox's app did not make).
 */
export function setAnswerHeader(res: Response, name: string, value: string): void {
  const context = res.locals;
  if (!(context instanceof RequestContext)) {
    res.setHeader(name, value);
    return;
  }
  const { headers } = context;
  for (let at = 0; at < headers.length; at += 2) {
    if (headers[at] === name) {
      headers[at + 1] = value;
      return;
    }
  }
  headers.push(name, value);
}

/** Gives `res` a fresh request context, before any middleware runs (Express keeps a `locals` it finds). */
export function withContext(res: object): void {
  (res as { locals: RequestContext }).locals = new RequestContext();
}

/** The authenticated principal; throws if auth did not run (a wiring bug, answered 500). */
export function principalOf(res: Response): KeyPrincipal {
  const principal = contextOf(res).principal;
  if (principal === undefined) throw new Error('route reached without authentication');
  return principal;
}
