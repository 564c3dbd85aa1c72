/**
 * The one error handler. Problems are written as `application/problem+json`; Express's
 * own failures (body parser, bad URL encoding) are mapped to their catalog codes; anything
 * else is logged with its stack and request id and answered 500 without detail.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './log.ts';
import { contextOf } from './context.ts';
import { aboutBlank, problem, ProblemError } from './problem.ts';
import { sendProblem } from './reply.ts';

/** The `type` of a body-parser error (see body-parser's README, "Errors"). */
type ParserErrorType =
  | 'entity.parse.failed'
  | 'entity.too.large'
  | 'request.aborted'
  | 'request.size.invalid'
  | 'charset.unsupported'
  | 'encoding.unsupported';

/** True when `text` is JSON text (the parser's strict mode refused it for not being an object). */
function isJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// requirement: int.body.unreadable
// requirement: cat.api.malformed-request
// requirement: cat.api.payload-too-large
// requirement: cat.api.body-incomplete
/** The problem an Express or body-parser error stands for, or null when it is not one of theirs. */
function expressProblem(error: { type?: string; status?: number; body?: unknown }): ProblemError | null {
  switch (error.type as ParserErrorType | undefined) {
    case 'entity.parse.failed':
      // The parser refuses JSON that is not an object or array (`null`, `42`, `"x"`) the same way as broken JSON.
      return problem('api.malformed_request', isJson(error.body) ? 'The body must be a JSON object.' : 'The body is not valid JSON.');
    case 'entity.too.large':
      return problem('api.payload_too_large', 'The body exceeds 1048576 bytes.');
    case 'request.aborted':
    case 'request.size.invalid':
      return problem('api.request_body_incomplete', 'The body ended before its declared length; send again.');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return problem('api.unsupported_media_type', 'Send the body as application/json in UTF-8, without Content-Encoding.');
    default:
      // The router answers a path that does not decode (`%E0%A4%A`) with a 400 error.
      return error.status === 400 ? problem('api.malformed_request', 'The request path is not valid URL encoding.') : null;
  }
}

// requirement: int.endpoints.error-bodies
// requirement: int.errors.problem-json
/** Express error middleware (four arguments). */
export function makeErrorHandler(options: { log: Logger }) {
  return function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    let answer = error instanceof ProblemError ? error : expressProblem((error ?? {}) as { type?: string; status?: number });
    if (answer === null) {
      const { requestId } = contextOf(res);
      options.log.error(`${requestId} ${req.method} ${req.path} failed: ${error instanceof Error ? error.stack : String(error)}`);
      answer = aboutBlank(500, `Unexpected error; quote the request id ${requestId}.`);
    }
    sendProblem(req, res, answer);
  };
}
