/**
 * Test support: a small HTTP proxy in front of a target (usually the reference) that rewrites
 * one thing, to build a deliberately broken server without touching the server's code. Request
 * bodies stream through as they arrive (so a request held half-sent stays held upstream);
 * answers are read whole and handed to the rewrite before they are sent back.
 */
import { createServer, type IncomingMessage, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy forwards it; header names in lower case. */
export interface ProxiedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
}

/** An upstream answer, read whole; header names in lower case. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Rewrites one upstream answer. `resend` forwards the same request again (with `changes` to its
 * method, url or headers, and the same body once it has fully arrived, or `changes.body` with
 * its own Content-Length) and returns that answer; `requestBody` gives the body that came.
 */
export type AnswerRewrite = (
  answer: ProxiedAnswer,
  request: ProxiedRequest,
  resend: (changes?: Partial<ProxiedRequest> & { body?: Buffer }) => Promise<ProxiedAnswer>,
  requestBody: () => Promise<Buffer>,
) => ProxiedAnswer | Promise<ProxiedAnswer>;

/** What a proxy changes: requests before they are forwarded, answers before they go back. */
export interface ProxyRewrite {
  request?(request: ProxiedRequest): ProxiedRequest;
  answer?: AnswerRewrite;
}

/** A running proxy. */
export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** Headers of `message` as single strings, hop-by-hop ones left out. */
function headersOf(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined && !hopByHop.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** `answer` as JSON, or undefined when its body is not JSON (for rewrites that look inside). */
export function answerJson(answer: ProxiedAnswer): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Starts a proxy on 127.0.0.1 and an ephemeral port that forwards to `targetUrl`, applying `rewrite` (an answer rewrite, or both hooks). */
export async function startProxy(targetUrl: string, rewrite: AnswerRewrite | ProxyRewrite = {}): Promise<RunningProxy> {
  const target = new URL(targetUrl);
  const hooks: ProxyRewrite = typeof rewrite === 'function' ? { answer: rewrite } : rewrite;

  /** Sends `request` upstream with `body` (a stream that is piped, or whole bytes) and reads the answer. */
  const forward = (request: ProxiedRequest, body: IncomingMessage | Buffer): Promise<ProxiedAnswer> =>
    new Promise((resolve, reject) => {
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: { ...request.headers, host: target.host } },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: headersOf(answer), body: Buffer.concat(chunks) }));
          answer.on('error', reject);
        },
      );
      upstream.on('error', reject);
      if (Buffer.isBuffer(body)) upstream.end(body);
      else body.pipe(upstream);
    });

  const server = createServer((incoming, outgoing) => {
    const received: Buffer[] = [];
    const complete = new Promise<Buffer>((resolve) => {
      incoming.on('data', (chunk: Buffer) => received.push(chunk));
      incoming.on('end', () => resolve(Buffer.concat(received)));
    });
    const original: ProxiedRequest = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: headersOf(incoming) };
    const request = hooks.request ? hooks.request(original) : original;
    const resend = async ({ body, ...changes }: Partial<ProxiedRequest> & { body?: Buffer } = {}) => {
      if (body === undefined) return forward({ ...request, ...changes }, await complete);
      const changed = { ...request, ...changes };
      return forward({ ...changed, headers: { ...changed.headers, 'content-length': String(body.length) } }, body);
    };
    void (async () => {
      try {
        const upstream = await forward(request, incoming);
        const answer = hooks.answer ? await hooks.answer(upstream, request, resend, () => complete) : upstream;
        const headers = { ...answer.headers };
        delete headers['content-length'];
        const bodiless = answer.status === 204 || answer.status === 304;
        outgoing.writeHead(answer.status, bodiless ? headers : { ...headers, 'content-length': String(answer.body.length) });
        outgoing.end(answer.body);
      } catch {
        outgoing.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
