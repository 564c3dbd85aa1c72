/**
 * Seed-valid alternatives of what an HTTP layer decides: how deeply a body may nest (D58) and
 * what is answered before any operation (D60). The seeds say nothing of either, and RFC 9110
 * and 9112 let a server ignore an Expect it does not know or close a connection without a word,
 * so each of these is a server a client could meet. Part of alternatives.ts's list.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_JSON_DEPTH, tooDeep } from '../../server/http/json-depth.ts';
import type { AlternativeVariant } from './harness.ts';

/** The nesting another server allows. */
const LENIENT_DEPTH = 1000;

/** `body` as a server without D58's limit reads it: a too-deep value is what it is, of its kind, for the validation that follows. */
function shallow(body: unknown): unknown {
  if (Array.isArray(body)) return [];
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, tooDeep(Buffer.from(JSON.stringify(value)), MAX_JSON_DEPTH - 1) === null ? value : Array.isArray(value) ? [] : {}]));
}

/** On `server`, ends the connection of a client error `when` holds for without the answer the reference would write. */
function closeSilently(server: Server, when: (error: NodeJS.ErrnoException, socket: Socket) => boolean): void {
  // Ahead of the reference's own listener, whose answer is written with socket.end.
  server.prependListener('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!when(error, socket)) return;
    const end = socket.end.bind(socket) as () => Socket;
    socket.end = (() => end()) as Socket['end'];
  });
}

/** The last request whose head `server` read on each connection. */
function latestRequests(server: Server): WeakMap<Socket, IncomingMessage> {
  const latest = new WeakMap<Socket, IncomingMessage>();
  server.on('request', (request: IncomingMessage) => latest.set(request.socket, request));
  return latest;
}

export const httpAlternatives: Record<string, AlternativeVariant> = {
  // The reference refuses a body deeper than 64 levels before it parses it; this target parses
  // up to 1,000 and judges what it read, which the reference then does with the deep values
  // standing in as empty arrays or objects (an unknown member ignored, a defined one of the wrong type).
  'nesting refused only deeper than 1000 levels': {
    decides: ['D58'],
    failsStrict: ['http.body.depth'],
    proxy: () => ({
      answer: async (answer, _request, resend, requestBody) => {
        if (answer.status !== 400) return answer;
        const body = await requestBody();
        if (tooDeep(body, MAX_JSON_DEPTH) === null || tooDeep(body, LENIENT_DEPTH) !== null) return answer;
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          return answer;
        }
        return resend({ body: Buffer.from(JSON.stringify(shallow(parsed))) });
      },
    }),
  },
  // RFC 9110 §10.1.1: a server MAY answer 417 to an expectation it does not know; Node's own
  // answer is skipped when anyone listens, and this listener serves the request as it came.
  'an Expect it cannot meet ignored': {
    decides: ['D60'],
    failsStrict: ['http.expect.unmet'],
    server: (server) => {
      server.removeAllListeners('checkExpectation');
      server.on('checkExpectation', (request: IncomingMessage, response) => server.emit('request', request, response));
    },
  },
  // A request behind complete ones that cannot be read ends the connection once their answers are out, without a 400.
  'a request that cannot be read, behind others, closes the connection without its 400': {
    decides: ['D60'],
    failsStrict: ['http.pipeline.order'],
    server: (server) => {
      const latest = latestRequests(server);
      closeSilently(server, (_error, socket) => latest.get(socket)?.complete === true);
    },
  },
  // The first head of a connection cut short by the client's half-close: closed, as many servers do, without a 408.
  'a head cut short closed without an answer': {
    decides: ['D60'],
    failsStrict: ['http.head.unreadable'],
    server: (server) => {
      const latest = latestRequests(server);
      closeSilently(server, (error, socket) => error.code === 'HPE_INVALID_EOF_STATE' && !latest.has(socket));
    },
  },
};
