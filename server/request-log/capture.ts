/**
 * Middleware: captures every request to the integration API whose key resolved to a
 * tenant, and hands it to the request log when its answer is out (D48). What it keeps is
 * references — the raw request body, the answer's text as `res.end` got it — so the hot
 * path copies nothing; the log cuts and writes them with its next batch. Never a header
 * value but the Idempotency-Key and the content types: no key, no token.
 */
import { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { operations } from '../../spec/load.ts';
import { contextOf } from '../http/context.ts';
import { expressPath } from '../integration/routes.ts';
import type { CapturedRequest, RequestLog } from './recorder.ts';

/** Where the integration API lives. */
export const INTEGRATION_PREFIX = '/api/v1/integration/';

/** What the capture keeps on `res.locals` between the request and its answer. */
interface CaptureState {
  logStartedAt: number;
  logStartedMs: number;
  logAnswer: string | Buffer | null;
}

const nodeEnd = ServerResponse.prototype.end;

/** `res.end` of a captured answer: remembers the body it is given, then ends as Node does. */
function capturingEnd(this: Response, ...args: unknown[]): Response {
  const chunk = args[0];
  if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) (this.locals as CaptureState).logAnswer = chunk;
  return Reflect.apply(nodeEnd, this, args) as Response;
}

/** `METHOD expressPath` → operationId, for the operation a request reached. */
const operationByRoute = new Map([...operations.values()].map((op) => [`${op.method} ${expressPath(op.path)}`, op.operationId]));

/** Middleware recording the integration API's requests into `log`. */
export function makeRequestCapture(options: { log: RequestLog }) {
  const { log } = options;

  function answered(this: Response): void {
    const res = this;
    const context = contextOf(res);
    const principal = context.principal;
    if (principal === undefined) return;
    const req = res.req;
    const route = (req as Request & { route?: { path?: unknown } }).route;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const operation = typeof route?.path === 'string' ? operationByRoute.get(`${method} ${route.path}`) : undefined;
    if (operation === undefined) return;
    const state = res.locals as CaptureState;
    const contentType = res.getHeader('content-type');
    const request: CapturedRequest = {
      tenantId: principal.tenantId,
      startedAt: state.logStartedAt,
      operation,
      method: req.method,
      target: req.originalUrl,
      status: res.statusCode,
      latencyMs: performance.now() - state.logStartedMs,
      keyId: principal.keyId,
      requestId: context.requestId,
      idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
      replayed: res.getHeader('idempotent-replayed') === 'true',
      requestContentType: req.headers['content-type'] ?? null,
      requestBody: context.rawBody ?? null,
      responseContentType: typeof contentType === 'string' ? contentType : null,
      responseBody: state.logAnswer,
      orderIds: context.changed?.orderIds ?? [],
      tripIds: context.changed?.tripIds ?? [],
    };
    log.record(request);
  }

  return function requestCapture(req: Request, res: Response, next: NextFunction): void {
    if (req.url.startsWith(INTEGRATION_PREFIX)) {
      const state = res.locals as CaptureState;
      state.logStartedAt = Date.now();
      state.logStartedMs = performance.now();
      state.logAnswer = null;
      res.end = capturingEnd as Response['end'];
      res.once('finish', answered);
    }
    next();
  };
}
