/**
 * The HTTP server around the app. Node answers requests it cannot parse before Express
 * sees them; `clientError` makes those answers problem+json too (D17, D18), in the order of
 * the requests on a kept-alive connection, and a client's half-close ends nothing (D60).
 */
import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { catalogEntry } from '../../spec/load.ts';
import { onAnswerEvent } from './answer-events.ts';
import { newRequestId } from './request-id.ts';

/** What the server hands its requests to: an Express app, or a listener carrying an Express app's prototypes. */
export type RequestApp = ((request: IncomingMessage, response: ServerResponse) => void) & Pick<Express, 'request' | 'response'>;

// requirement: D89
/** A problem's title: the catalog's for a code of it (D89), the status's reason phrase for `about:blank` (D3). */
function titleOf(type: string, reason: string): string {
  return type === 'about:blank' ? reason : catalogEntry(type).title;
}

/** The raw HTTP/1.1 text of a problem answer written straight to a socket; `path` when the request line was read. */
function rawProblem(status: number, reason: string, type: string, detail: string, path: string): string {
  const requestId = newRequestId();
  const body = JSON.stringify({ type, title: titleOf(type, reason), status, detail, instance: `${path}#${requestId}` });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** The detail of the 400 a request that cannot be read as HTTP/1.1 gets (D60). */
export const UNREADABLE_REQUEST = 'The request is not valid HTTP/1.1.';

// requirement: int.body.unreadable
// requirement: cat.api.body-incomplete
/** The problem text for a client error Node raised, by its code. */
function clientErrorAnswer(code: string | undefined, path: string): string {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_INVALID_EOF_STATE':
      return rawProblem(408, 'Request Timeout', 'api.request_body_incomplete', 'The request ended, or stopped arriving, before it was complete; send again.', path);
    default:
      return rawProblem(400, 'Bad Request', 'api.malformed_request', UNREADABLE_REQUEST, path);
  }
}

/** How long a connection stays half-closed after its last answer, reading what the client still sends. */
const LINGER_MS = 5000;

/** What the server keeps of one connection: its answers in progress, and an answer that waits behind them. */
interface ConnectionState {
  /** Answers on the connection not yet fully written, in the order of their requests. */
  answers: ServerResponse[];
  /** Bytes written when the last answer was complete: more means one is partly out. */
  answeredBytes: number;
  /**
   * The request whose head was read last: while its body is still being read, a parse error is
   * about that body (bad chunked framing), not about a request behind it, and names its path (D23).
   */
  latest: IncomingMessage | null;
  /** The problem for a request that could not be parsed behind answers in progress, written once they are out ('' closes without one). */
  waiting: string | null;
  /** The connection's last answer is written: it only waits for the client to close. */
  closing: boolean;
}

/** A problem answer written through Node's response object (for requests Node parsed but would answer itself). */
function writeProblem(response: ServerResponse, status: number, reason: string, type: string, detail: string, path: string, headers: Record<string, string> = {}): void {
  const requestId = newRequestId();
  const body = JSON.stringify({ type, title: titleOf(type, reason), status, detail, instance: `${path}#${requestId}` });
  response.writeHead(status, reason, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': requestId, Connection: 'close', ...headers });
  response.end(body);
}

/**
 * A class derived from `Base` with nothing of its own, made anonymous on purpose: run from the
 * sources, tsx (esbuild's keepNames) names a named class by redefining its `name` afterwards,
 * and a response class so changed kept V8 from ever optimizing Node's `parserOnIncoming`
 * (every try aborted on a changed dependency), which then ran unoptimized for every request.
 */
function subclassOf<T extends abstract new (...args: never[]) => object>(Base: T): T {
  return class extends (Base as unknown as new (...args: unknown[]) => object) {} as unknown as T;
}

/**
 * Gives `app` request and response prototypes of classes derived from Node's own, so that
 * the server makes its requests and responses with them (`createHttpServer`) and Express,
 * which gives every request and response `app.request` and `app.response` as prototypes with
 * `Object.setPrototypeOf`, finds them already there: on Node's plain objects that reshaped
 * each one (about 80 µs of a 150 µs request, `npm run bench`). The classes are real subclasses,
 * not functions that call Node's constructors on an object made by another: V8 sizes an
 * instance for the properties its constructor gives it only when the object is made by that
 * constructor, and the ~40 a response gets turned each one made otherwise into a
 * dictionary-mode object, every property of it read and written the slow way, Node's own
 * code included (2.5 µs to make one, against 0.13 µs; the event loop's time a caught-up poll
 * went from 176 to 109 µs). Done once per app; a second call changes nothing.
 */
export function deriveAppClasses(app: Pick<Express, 'request' | 'response'>): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  const derived = (prototype: object) => Object.hasOwn(prototype, 'constructor') ? (prototype.constructor as { prototype: unknown }).prototype === prototype : false;
  if (!derived(app.request)) {
    const AppRequest = subclassOf(IncomingMessage);
    Object.setPrototypeOf(AppRequest.prototype, app.request);
    app.request = AppRequest.prototype as Express['request'];
  }
  if (!derived(app.response)) {
    const AppResponse = subclassOf(ServerResponse);
    Object.setPrototypeOf(AppResponse.prototype, app.response);
    app.response = AppResponse.prototype as Express['response'];
  }
  return { IncomingMessage: app.request.constructor as typeof IncomingMessage, ServerResponse: app.response.constructor as typeof ServerResponse };
}

/** Where a connection's state is kept: on its socket. */
const CONNECTION = Symbol('waybill connection');
type TrackedSocket = Socket & { [CONNECTION]?: ConnectionState };

/** The state of the connection over `socket`, made on first use. */
function stateOf(socket: Socket): ConnectionState {
  return ((socket as TrackedSocket)[CONNECTION] ??= { answers: [], answeredBytes: 0, latest: null, waiting: null, closing: false });
}

/** Writes the connection's last answer and half-closes it; the client's FIN, or LINGER_MS, closes it for good. */
function endWith(socket: Socket, state: ConnectionState, answer: string): void {
  state.closing = true;
  socket.end(answer);
  // Destroying the socket now would reset the connection while the client may still be
  // sending, and a reset can discard the answers it has not read yet (RFC 9112 §9.6).
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** Takes `answer` off the connection's answers in progress. */
function forget(state: ConnectionState, answer: ServerResponse): void {
  const at = state.answers.indexOf(answer);
  if (at !== -1) state.answers.splice(at, 1);
}

/** An answer is written (Node has detached it from its socket by then; its request keeps it): one waiting behind it may go. */
function answerFinished(response: ServerResponse): void {
  const socket = response.req.socket;
  const state = stateOf(socket);
  forget(state, response);
  state.answeredBytes = socket.bytesWritten;
  if (state.answers.length === 0 && state.waiting !== null && socket.writable) endWith(socket, state, state.waiting);
}

/** An answer closed before it was written (its connection went): one waiting behind it never can go. */
function answerClosed(response: ServerResponse): void {
  const state = (response.req.socket as TrackedSocket)[CONNECTION];
  if (state === undefined || response.writableFinished) return;
  forget(state, response);
  if (state.waiting !== null) response.req.socket.destroy();
}

// requirement: int.errors.problem-json
// requirement: D23
// requirement: D60
/**
 * An HTTP server for `app` whose every answer is problem+json with a request id, those Node
 * would give on its own included: a request it cannot parse (also on a connection that already
 * carried answers, once they are out), one without Host (RFC 9112 §3.2), one whose target is no
 * URL, an Expect it cannot meet, and CONNECT. A connection is closed only after its answers
 * (a client's half-close included), when a partly written answer leaves no room for one, or
 * when the client closes its side in the middle of an answer (D60).
 */
export function createHttpServer(app: RequestApp): Server {
  // Host is checked below, so that its absence is answered as a problem too.
  const classes = deriveAppClasses(app);
  const Response = classes.ServerResponse;
  const server = createServer({ requireHostHeader: false, ...classes }, (request, response) => {
    const state = stateOf(request.socket);
    state.latest = request;
    state.answers.push(response);
    if (request.headers.host === undefined && request.httpVersion === '1.1') {
      writeProblem(response, 400, 'Bad Request', 'api.malformed_request', 'An HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).', (request.url ?? '').split('?')[0]!);
      return;
    }
    // An absolute-form target that is no URL leaves the router without a path: it would end in Express's HTML 404.
    if (!request.url?.startsWith('/') && request.url !== '*' && !URL.canParse(request.url ?? '')) {
      writeProblem(response, 400, 'Bad Request', 'api.malformed_request', 'The request target is not a valid URL.', '');
      return;
    }
    app(request, response);
  });
  // Node ends a connection as soon as the client half-closes it, dropping the answers still
  // being made; a FIN only says the client sends nothing more. The switch is Node's own
  // (`_http_server.js`), undocumented; connections.test.ts fails if it stops working.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // A client that closes its side in the middle of an answer (a stalled one it timed out on)
  // has gone, not half-closed: it waits for answers to begin, not for the rest of one.
  server.on('connection', (socket: Socket) => socket.on('end', clientEnded));
  function clientEnded(this: Socket): void {
    if ((this as TrackedSocket)[CONNECTION]?.answers.some((answer) => answer.headersSent && !answer.writableEnded)) this.destroy();
  }
  // The response class's 'finish' and 'close' keep each connection's answers in order: hooks on its
  // prototype, run ahead of any listener (Node's own, which closes a half-closed connection after an
  // answer, included), not two listeners added to every response.
  onAnswerEvent(Response.prototype, 'finish', answerFinished);
  onAnswerEvent(Response.prototype, 'close', answerClosed);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const state = stateOf(socket);
    // The last answer is out or on its way: what the client still sends is read and dropped.
    if (state.closing) return;
    if (!socket.writable) return void socket.destroy();
    const latest = state.latest;
    const inBody = latest !== null && !latest.complete;
    // A body cut short, too slow or badly framed, being read for the request being answered:
    // its problem is that request's answer, unless part of an answer is already out.
    const answerBody = () => {
      if (socket.bytesWritten === state.answeredBytes) endWith(socket, state, clientErrorAnswer(error.code, (latest!.url ?? '').split('?')[0]!));
      else socket.destroy();
    };
    if (inBody && latest.listenerCount('data') > 0) return answerBody();
    if (inBody && state.answers.length > 0 && !latest.readableDidRead) {
      // Its handling may not have reached the body yet (it awaits the database first): the body's
      // problem is the answer if it goes on to read it; if it answers without, the connection closes.
      const reading = (event: string | symbol) => {
        if (event !== 'data' || state.closing) return;
        latest.off('newListener', reading);
        answerBody();
      };
      latest.on('newListener', reading);
      state.waiting = '';
      return;
    }
    // A body nobody reads (its operation takes none, or its answer is out) gets no answer of
    // its own: the connection closes after the answers in progress. Anything else is a new
    // request behind them, whose path is unknown (D23), answered once they are out.
    const answer = inBody ? '' : clientErrorAnswer(error.code, '');
    if (state.answers.length > 0) state.waiting = answer;
    else if (socket.bytesWritten === state.answeredBytes) endWith(socket, state, answer);
    else socket.destroy();
  });
  // requirement: D60
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    writeProblem(response, 417, 'Expectation Failed', 'about:blank', `Expect: ${String(request.headers.expect).slice(0, 100)} cannot be met; only 100-continue is understood.`, (request.url ?? '').split('?')[0]!);
  });
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    socket.end(rawProblem(405, 'Method Not Allowed', 'about:blank', 'CONNECT is not supported: this is not a proxy.', '').replace('\r\nConnection: close', '\r\nAllow: GET, POST, DELETE\r\nConnection: close'));
  });
  return server;
}

/** Listens on `host:port` (0 for an ephemeral port); resolves to the base URL. */
export function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no TCP address'));
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`http://${shownHost}:${address.port}`);
    });
  });
}
