/**
 * The JSON request body (D17, D18, D19): whether there is one (D90), its media type, then
 * size, then parsing by Express's own body parser, whose failures the error handler maps to
 * catalog codes.
 * A body that stops arriving before its declared length is answered 408, and one nested
 * deeper than 64 levels 400 before it is parsed (D58).
 */
import { parse as parseContentType } from 'content-type';
import express, { type NextFunction, type Request, type Response } from 'express';
import { contextOf } from './context.ts';
import { MAX_JSON_DEPTH, tooDeep } from './json-depth.ts';
import { bounded, fieldError, problem } from './problem.ts';

// requirement: cat.api.payload-too-large
// requirement: D18
/** The body size limit (D18): 1 MiB. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

// requirement: D90
/** True when the request carries a body: chunked, or a Content-Length above zero (D90). */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

// requirement: D58
/** The problem of a body nested deeper than D58 allows, or null when it is not. */
function depthProblem(bytes: Buffer) {
  const found = tooDeep(bytes);
  if (found === null) return null;
  const what = `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
  if (found.member === null) return problem('api.malformed_request', `The body ${what}.`);
  const field = bounded(found.member);
  return problem('api.malformed_request', `${field} ${what}.`, [fieldError(field, 'api.malformed_request', `${field} ${what}`, null)]);
}

// requirement: int.body.media-type
// requirement: cat.api.unsupported-media-type
/** The problem for an unacceptable Content-Type, or null when it is JSON in UTF-8. */
function mediaTypeProblem(header: string) {
  try {
    const { type, parameters } = parseContentType(header);
    const charset = parameters['charset']?.toLowerCase();
    if (type === 'application/json' && (charset === undefined || charset === 'utf-8')) return null;
  } catch {
    // An unparseable Content-Type is as unacceptable as a wrong one.
  }
  return unsupportedMediaType(header);
}

/** The 415 of a body whose Content-Type is `header`, not JSON in UTF-8. */
export function unsupportedMediaType(header: string) {
  return problem('api.unsupported_media_type', `Content-Type ${header.slice(0, 100)} is not accepted; send application/json.`);
}

/** The 413 of a body over the size limit (D18). */
export function payloadTooLarge() {
  return problem('api.payload_too_large', `The body exceeds ${BODY_LIMIT_BYTES} bytes.`);
}

/** The 408 of a body that stopped arriving before its declared length (D18). */
export function bodyIncomplete() {
  return problem('api.request_body_incomplete', 'The body stopped arriving before its declared length; send again.');
}

/**
 * Runs `parse`, body-parser over `req`, as over a request whose client still sends. body-parser
 * skips a request whose socket no longer reads (on-finished's `isFinished`), taking the client's
 * half-close for the end of an exchange already read; here a half-close ends nothing (D60), and
 * what the client sent before it is the body, complete or cut short (408). It happens when the
 * request's handling awaited the database before it reached the body (a key read, PostgreSQL's
 * rate limit, D81), the client's FIN meanwhile read. The check is synchronous, at the start of
 * the call: the socket reads as readable for that call only.
 */
function parseDespiteHalfClose(req: Request, parse: () => void): void {
  const { socket } = req;
  if (socket.readable || (req.complete && !req.readable)) {
    parse();
    return;
  }
  Object.defineProperty(socket, 'readable', { configurable: true, value: true });
  try {
    parse();
  } finally {
    // The stream's own `readable` (a getter of its prototype) again.
    delete (socket as { readable?: boolean }).readable;
  }
}

// requirement: D18
/** How long the server still reads, and discards, a body it refused before answering and closing. */
export const LINGER_MS = 2000;

/**
 * Answers `refusal` to a request whose body will not be read, and closes the connection, once the
 * client has sent that body or `LINGER_MS` has passed (D18). Closing while the client still sends
 * makes the server's system reset the connection, and a client that writes its whole body before
 * it reads (fetch, most libraries) then sees the reset instead of the answer: RFC 9112 §9.6 asks
 * a server to close in stages for this reason. The bytes are discarded as they come, never kept;
 * a client that closes its sending side is answered at once.
 */
function refuseUnread(req: Request, res: Response, next: NextFunction, refusal: unknown): void {
  res.set('Connection', 'close');
  const { socket } = req;
  // A client that closed its sending side sends nothing more (D60: it still reads the answer).
  if (req.complete || socket.readableEnded) {
    next(refusal);
    return;
  }
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    socket.off('end', answer);
    next(refusal);
  };
  const timer = setTimeout(answer, LINGER_MS);
  socket.once('end', answer);
  req.once('end', answer);
  req.once('close', answer);
  req.once('error', answer);
  req.resume();
}

/**
 * Middleware chain for an operation's JSON body. `required` is the OpenAPI
 * `requestBody.required`; an optional body that is absent reads as `{}` (D11).
 */
export function makeJsonBody(options: { required: boolean; idleTimeoutMs: number }) {
  const parseJson = express.json({
    limit: BODY_LIMIT_BYTES,
    type: () => true,
    verify: (_req, res, buffer) => {
      contextOf(res as Response).rawBody = buffer;
      // Thrown before the parser runs, so a deep body is never parsed; body-parser passes the
      // error on with its own status (400) and the error handler answers the problem (D58).
      const tooDeepProblem = depthProblem(buffer);
      if (tooDeepProblem !== null) throw tooDeepProblem;
    },
  });

  return function jsonBody(req: Request, res: Response, next: NextFunction): void {
    // requirement: D90
    // A request without a body is one whatever its Content-Type says, or without one (D90):
    // clients set a type on a POST that sends nothing (axios: application/x-www-form-urlencoded).
    if (!hasBody(req)) {
      if (options.required) {
        // requirement: int.body.unreadable
        // requirement: D17
        next(problem('api.malformed_request', 'A JSON body is required.'));
        return;
      }
      req.body = {};
      next();
      return;
    }
    const contentType = req.get('content-type');
    if (contentType === undefined) {
      // requirement: cat.api.no-content-type
      next(problem('api.malformed_request', 'The request has no Content-Type; send the body as application/json.', undefined, { status: 415 }));
      return;
    }
    const refused = mediaTypeProblem(contentType);
    if (refused !== null) {
      next(refused);
      return;
    }
    // requirement: D47
    const encoding = req.headers['content-encoding']?.trim();
    if (encoding !== undefined && encoding !== '' && encoding.toLowerCase() !== 'identity') {
      // Only identity bodies are read (D47): a compressed body is refused, never decoded.
      refuseUnread(
        req,
        res,
        next,
        problem('api.unsupported_media_type', `Content-Encoding ${encoding.slice(0, 100)} is not accepted; send the body uncompressed.`, undefined, {
          headers: { 'Accept-Encoding': 'identity' },
        }),
      );
      return;
    }
    if (Number(req.headers['content-length'] ?? 0) > BODY_LIMIT_BYTES) {
      refuseUnread(req, res, next, payloadTooLarge());
      return;
    }
    // requirement: cat.api.body-incomplete
    // A client that stops sending gets 408 instead of holding the connection open forever.
    req.setTimeout(options.idleTimeoutMs, () => {
      if (res.headersSent) return;
      res.set('Connection', 'close');
      next(bodyIncomplete());
    });
    parseDespiteHalfClose(req, () =>
      parseJson(req, res, (error?: unknown) => {
        req.setTimeout(0);
        next(error);
      }),
    );
  };
}
