/**
 * Middleware: captures every request to the integration API whose key resolved to a
 * tenant (a live key, or a revoked one refused 401), and hands it to the request log when its answer is out (D48). What it keeps is
 * views — of the raw request body, of the answer's text as `res.end` got it — so the hot
 * path copies nothing; the log cuts and writes them with its next batch. Never a header
 * value but the Idempotency-Key and the content types: no key, no token.
 */
import type { NextFunction, Request, Response } from 'express';
import { revokedKeyOf } from '../http/auth.ts';
import { onAnswerEvent } from '../http/answer-events.ts';
import { contextOf, type RequestContext } from '../http/context.ts';
import { BODY_LIMIT } from './store.ts';
import { type EntryPage, feedPageText, PAGE_IN_BODY } from './page-text.ts';
import type { CapturedRequest, RequestLog } from './recorder.ts';

/** Where the integration API lives. */
export const INTEGRATION_PREFIX = '/api/v1/integration/';

/** A copy of the first `max` bytes of `buffer`: a view would carry its whole memory to the writer thread. */
const copyOf = (buffer: Buffer, max: number): Uint8Array => Uint8Array.prototype.slice.call(buffer, 0, max);

/**
 * Gives the responses of `prototype` what the request log needs of a request `capture` marked:
 * `end` remembers the body it is given, then ends as before, and 'close' hands the request to
 * the log. On the prototype, not on each response: an own `end` on every response would give
 * them another shape than Node's code meets elsewhere, and a 'close' listener on each would be
 * added and emitted per answer. A wrapper a fault puts on one response (D51) calls this `end` in turn.
 */
export function captureAnswersOf(prototype: Response, capture: RequestCapture): void {
  // 'close' rather than 'finish': a connection a fault cut (D51) never finishes its answer; it is emitted once.
  onAnswerEvent(prototype, 'close', (res) => {
    if ((res as Response).locals?.logged === true) capture.answered(res as Response);
  });
  if (Object.hasOwn(prototype, 'end')) return;
  const end = prototype.end;
  prototype.end = function capturingEnd(this: Response, chunk?: unknown, encoding?: unknown, callback?: unknown): Response {
    const context = this.locals as RequestContext | undefined;
    if (context?.logged === true && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) context.logAnswer = chunk;
    return end.call(this, chunk, encoding as BufferEncoding, callback as () => void);
  } as Response['end'];
}

/**
 * The feed page `request` answered, as the log keeps it (D48): the page as the client got it —
 * a 200 with a body (not HEAD), not cut by a `malformed` fault — read back from the body when
 * the log keeps that whole and no fault touched it, else its own text; null for any other answer.
 */
function pageOf(context: RequestContext, request: CapturedRequest): EntryPage {
  const page = context.feedPage;
  if (page === undefined || request.status !== 200 || request.method !== 'GET' || context.fault?.mark.fault === 'malformed') return null;
  return context.fault === undefined && request.responseBody !== null && request.responseBytes <= BODY_LIMIT ? PAGE_IN_BODY : feedPageText(page);
}

// requirement: D48
/** Middleware marking the integration API's requests for `log`, and what records one once its connection is done with it (`captureAnswersOf`). */
export type RequestCapture = ((req: Request, res: Response, next: NextFunction) => void) & { answered(res: Response): void };

/** Middleware recording the integration API's requests into `log` (its responses' class hooked by `captureAnswersOf`). */
export function makeRequestCapture(options: { log: RequestLog }): RequestCapture {
  const { log } = options;

  /** Records the request once its connection is done with it: answered, or cut short by a fault (D51). */
  function answered(res: Response): void {
    const context = contextOf(res);
    // A revoked key of a tenant is that tenant's request, refused 401; no key or an unknown one is nobody's.
    const principal = context.principal ?? revokedKeyOf(res);
    const injected = context.fault;
    // A client that went away before its answer was not answered; a fault's cut connection was.
    if (principal === undefined || (!res.writableFinished && injected === undefined)) return;
    const req = res.req;
    const operation = context.operation;
    if (operation === undefined) return;
    // An answer written with `writeHead` alone (server/http/reply.ts) holds no header to read: its context says.
    const contentType = context.answerType ?? res.getHeader('content-type');
    const raw = context.rawBody;
    const answer = injected?.answer !== undefined ? injected.answer : context.logAnswer;
    const length = injected?.answer !== undefined ? (answer === null ? 0 : Buffer.byteLength(answer)) : context.answerType !== null ? context.answerBytes : Number(res.getHeader('content-length'));
    // What the client got: the status sent, or 0 when no answer reached it (D51).
    const status = injected?.status ?? (res.writableFinished || res.headersSent ? res.statusCode : 0);
    const request: CapturedRequest = {
      tenantId: principal.tenantId,
      startedAt: context.logStartedAt,
      operation,
      method: req.method,
      target: req.originalUrl,
      status,
      latencyMs: performance.now() - context.logStartedMs,
      keyId: principal.keyId,
      requestId: context.requestId,
      idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
      replayed: res.getHeader('idempotent-replayed') === 'true',
      requestContentType: req.headers['content-type'] ?? null,
      requestBody: raw === undefined ? null : copyOf(raw, BODY_LIMIT),
      requestBytes: raw?.length ?? 0,
      responseContentType: typeof contentType === 'string' ? contentType : null,
      // A problem whole, so its type and field errors can be read; else a prefix of at least 16 KiB (a string slice copies nothing).
      responseBody: typeof answer === 'string' ? (status >= 400 ? answer : answer.slice(0, BODY_LIMIT)) : answer === null ? null : copyOf(answer, status >= 400 ? answer.length : BODY_LIMIT),
      responseBytes: answer === null ? 0 : Number.isInteger(length) ? length : Buffer.byteLength(answer),
      orderIds: context.changed?.orderIds ?? [],
      tripIds: context.changed?.tripIds ?? [],
      fault: injected?.mark ?? null,
      feedPage: null,
    };
    request.feedPage = pageOf(context, request);
    log.record(request);
  }

  function requestCapture(req: Request, res: Response, next: NextFunction): void {
    if (req.url.startsWith(INTEGRATION_PREFIX)) {
      const context = contextOf(res);
      context.logged = true;
      context.logStartedAt = Date.now();
      context.logStartedMs = performance.now();
    }
    next();
  }
  return Object.assign(requestCapture, { answered });
}
