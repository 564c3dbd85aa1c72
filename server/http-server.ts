/**
 * The HTTP server around the app. Node answers requests it cannot parse before Express
 * sees them; `clientError` makes those answers problem+json too (D17, D18).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { newRequestId } from './http/request-id.ts';

/** The raw HTTP/1.1 text of a problem answer written straight to a socket; `path` when the request line was read. */
function rawProblem(status: number, reason: string, type: string, detail: string, path: string): string {
  const requestId = newRequestId();
  const body = JSON.stringify({ type, title: reason, status, detail, instance: `${path}#${requestId}` });
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

/** The problem text for a client error Node raised, by its code. */
function clientErrorAnswer(code: string | undefined, path: string): string {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_INVALID_EOF_STATE':
      return rawProblem(408, 'Request Timeout', 'api.request_body_incomplete', 'The request ended before its declared length; send again.', path);
    default:
      return rawProblem(400, 'Bad Request', 'api.malformed_request', 'The request is not valid HTTP/1.1.', path);
  }
}

/** An HTTP server for `app` that answers unparseable requests with problem+json. */
export function createHttpServer(app: Express): Server {
  const server = createServer(app);
  // The path of the request a socket is in, so a problem written to the socket names it (D23).
  const pathOf = new WeakMap<Socket, string>();
  server.on('request', (request: IncomingMessage) => pathOf.set(request.socket, (request.url ?? '').split('?')[0]!));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && socket.bytesWritten === 0) socket.end(clientErrorAnswer(error.code, pathOf.get(socket) ?? ''));
    else socket.destroy();
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
