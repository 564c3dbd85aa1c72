/**
 * The mock `waybill mock` serves: Prism over the document document.ts derives, on a private
 * port of 127.0.0.1, behind a small HTTP front on the port the user asked for. The front passes
 * each request through unchanged and sends Prism's answer back as answers.ts reshapes it.
 */
import { Agent, createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../cli/errors.ts';
import { type MockAnswer, type MockRequest, reshape } from './answers.ts';
import { dynamicDocumentFile } from './document.ts';
import { type RunningPrism, startPrism } from './prism.ts';

/** The options of `waybill mock` that shape its answers. */
export interface MockOptions {
  dynamic: boolean;
  seed?: string;
  verbose: boolean;
}

/** A running mock: its URL, the Prism behind it, and how to stop both. */
export interface RunningMock {
  url: string;
  prism: RunningPrism;
  stop(): Promise<void>;
}

/**
 * The arguments of `prism mock` for the mock's options (port and host aside). It serves the
 * document document.ts derives: the same examples, and generated answers (`--dynamic`,
 * `Prefer: dynamic=true`) drawn from them where they are problems.
 */
export function prismArguments(options: MockOptions): string[] {
  return ['-v', options.verbose ? 'info' : 'error', ...(options.dynamic ? ['--dynamic'] : []), ...(options.seed ? ['--seed', options.seed] : []), dynamicDocumentFile()];
}

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** The headers of `message` as single strings, hop-by-hop ones left out. */
function headersOf(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

/** The whole body of `message`. */
async function bodyOf(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Sends `request` to Prism at `upstream` and reads its answer whole. */
function forward(upstream: URL, agent: Agent, request: MockRequest, chunked: boolean): Promise<MockAnswer> {
  // A chunked request reaches Prism whole, with its length.
  const headers = { ...request.headers, host: upstream.host, ...(chunked ? { 'content-length': String(request.body.length) } : {}) };
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers, agent }, (answer) => {
      bodyOf(answer).then((body) => resolve({ status: answer.statusCode ?? 502, headers: headersOf(answer), body }), reject);
    });
    sent.once('error', reject);
    sent.end(request.body);
  });
}

/** Listens on `host:port`; a port in use or an address not of this machine is the UsageError `waybill serve` words. */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new UsageError(`port ${port} on ${host} is in use; pick another with --port`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new UsageError(`cannot listen on ${host}`));
      else reject(error);
    });
    server.listen(port, host, () => resolve());
  });
}

/**
 * Starts the front on `host:port` (127.0.0.1 and a free port by default), then Prism behind it,
 * and resolves once both answer. The front listens first, so that a port in use is refused before
 * Prism is started; a request that comes while Prism starts waits for it.
 */
export async function startMock(options: MockOptions & { host?: string; port?: number; inherit?: boolean }): Promise<RunningMock> {
  const agent = new Agent({ keepAlive: true });
  let started: Promise<RunningPrism> | undefined;
  const answer = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    try {
      const request: MockRequest = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: headersOf(incoming), body: await bodyOf(incoming) };
      const upstream = new URL((await started!).url);
      const shaped = reshape(request, await forward(upstream, agent, request, incoming.headers['transfer-encoding'] !== undefined), options.dynamic);
      outgoing.writeHead(shaped.status, { ...shaped.headers, 'content-length': String(shaped.body.length) });
      outgoing.end(shaped.body);
    } catch (error) {
      if (outgoing.headersSent) outgoing.destroy();
      else outgoing.writeHead(502, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail: `Prism did not answer: ${(error as Error).message}` }));
    }
  };
  const server = createServer((incoming, outgoing) => void answer(incoming, outgoing));
  const host = options.host ?? '127.0.0.1';
  await listen(server, host, options.port ?? 0);
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    agent.destroy();
  };
  started = startPrism({ mode: 'mock', args: prismArguments(options), inherit: options.inherit === true });
  let prism: RunningPrism;
  try {
    prism = await started;
  } catch (error) {
    await close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= close().then(() => prism.stop()));
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, prism, stop };
}
