/**
 * One HTTP request on a connection of its own (no keep-alive pool), for tests of several
 * worker processes on one port: the primary hands each new connection to a worker in turn.
 */
import { request } from 'node:http';

/** An answer read whole. */
export interface FreshAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  requestId: string;
  /** The body as text. */
  body: string;
  /** The body parsed as JSON (throws on a body that is not). */
  json<T = any>(): T;
}

/** What a fresh request sends: a method, headers, and a body as text or as JSON. */
export interface FreshRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  json?: unknown;
}

/** Sends one request to `base` + `path` on a new connection; a request not answered within 20 s fails rather than waits forever. */
export function fresh(base: string, path: string, options: FreshRequest = {}): Promise<FreshAnswer> {
  const body = options.json === undefined ? options.body : JSON.stringify(options.json);
  const headers = { ...(options.json === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, requestId: String(res.headers['x-request-id']), body: text, json: () => JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    // A connection the primary handed a worker as it was killed is never answered (node:cluster's): fail it rather than wait forever.
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${path} within 20 s`)));
    req.end(body);
  });
}

/** The process a request id came from: each process issues ids of a random prefix of its own (D23's `req_` + 8 characters, D83). */
export const processOf = (requestId: string) => /^req_[A-Za-z0-9_-]{8}/.exec(requestId)?.[0] ?? requestId;
