/**
 * `ctx.raw`, `ctx.rawSession` and `ctx.rawPipeline`: hand-written bytes on a fresh TCP (or TLS)
 * connection, for the HTTP rules fetch cannot express (a body shorter than its Content-Length, a
 * dropped connection, a request held half-sent while other requests run, requests pipelined on
 * one connection). Recorded like every other exchange.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { ExchangeError, parseJson, type Recorder, recordLimits, recordMessage } from './exchange.ts';
import { type Answer, parseAnswer, parseAnswers, parseRequest } from './http-message.ts';
import { rawLine } from './replay.ts';
import type { ExchangeRecord, RawOptions, RawPipeline, RawResponse, RawSession } from '../engine/types/exchange.ts';

/** One client connection: collects what comes back from the moment it opens. */
interface Connection {
  /** Settles once the connection is up, or has failed (the failure shows in `answer`). */
  connected: Promise<void>;
  /** Writes `bytes`; settles once they are handed to the system, or the connection is gone. */
  write(bytes: Buffer): Promise<void>;
  /** Ends the writing side, as a client whose body got cut off. */
  end(): void;
  /** The first complete answer to a `method` request (possibly already received), or why none came within `timeoutMs`. */
  answer(method: string, timeoutMs: number): Promise<Answer | { error: string }>;
  /** Every byte that comes back until the target closes the connection, or `timeoutMs` passes (then it is closed). */
  drain(timeoutMs: number): Promise<{ data: Buffer; end: 'closed' | 'timeout' }>;
  destroy(): void;
}

/** Opens a connection to `target`'s host and port. */
function openConnection(target: URL): Connection {
  const https = target.protocol === 'https:';
  const port = Number(target.port || (https ? 443 : 80));
  const chunks: Buffer[] = [];
  let closed = false;
  let failure: string | undefined;
  let onChange = () => {};
  const socket = https
    ? tls.connect({ host: target.hostname, port, servername: target.hostname })
    : net.connect({ host: target.hostname, port });
  const connected = new Promise<void>((resolve) => {
    socket.once(https ? 'secureConnect' : 'connect', () => resolve());
    socket.once('close', () => resolve());
  });
  const ended = () => {
    closed = true;
    onChange();
  };
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    onChange();
  });
  socket.on('end', ended);
  socket.on('close', ended);
  socket.on('error', (error: NodeJS.ErrnoException) => {
    failure ??= `socket error ${error.code ?? error.message}`;
    ended();
  });

  return {
    connected,
    write: (bytes) => new Promise((resolve) => (closed || socket.destroyed ? resolve() : socket.write(bytes, () => resolve()))),
    end: () => void socket.end(),
    destroy: () => void socket.destroy(),
    drain(timeoutMs) {
      return new Promise((resolve) => {
        const settle = (end: 'closed' | 'timeout') => {
          clearTimeout(timer);
          onChange = () => {};
          socket.destroy();
          resolve({ data: Buffer.concat(chunks), end });
        };
        const timer = setTimeout(() => settle('timeout'), timeoutMs);
        onChange = () => closed && settle('closed');
        if (closed) settle('closed');
      });
    },
    answer(method, timeoutMs) {
      return new Promise((resolve) => {
        let settled = false;
        const settle = (reason?: string) => {
          if (settled) return;
          const data = Buffer.concat(chunks);
          const over = reason !== undefined || closed;
          const answer = parseAnswer(data, over, method);
          if (answer === null && !over) return;
          settled = true;
          clearTimeout(timer);
          onChange = () => {};
          socket.destroy();
          if (answer !== null && !(answer.status >= 100 && answer.status <= 599)) resolve({ error: `not an HTTP answer: ${JSON.stringify(data.subarray(0, 80).toString('latin1'))}` });
          else if (answer !== null) resolve(answer);
          else resolve({ error: reason ?? failure ?? (data.length === 0 ? 'the connection closed without an answer' : 'the connection closed in the middle of the answer') });
        };
        const timer = setTimeout(() => settle(`no answer within ${timeoutMs} ms (timeout)`), timeoutMs);
        onChange = () => settle();
        settle();
      });
    },
  };
}

/** Records one raw exchange of `bytes` and returns it as a `RawResponse`, or throws `ExchangeError` when no answer came. */
function recordRaw(base: URL, recorder: Recorder, bytes: Buffer, startedAt: string, start: number, answer: Answer | { error: string }): RawResponse {
  const exchange = recordExchange(base, recorder, bytes, startedAt, start, answer);
  const request = parseRequest(bytes);
  if ('error' in answer) throw new ExchangeError(`raw ${request.method} ${exchange.request.url}: ${answer.error}`, exchange);
  const text = answer.body.toString('utf8');
  return {
    status: answer.status,
    statusText: answer.statusText,
    httpVersion: answer.httpVersion,
    headers: answer.headers,
    text,
    json: parseJson(text),
    durationMs: exchange.durationMs,
    exchange,
  };
}

/** Adds the exchange of raw request `bytes` and its answer (or why none came) to the log. */
function recordExchange(base: URL, recorder: Recorder, bytes: Buffer, startedAt: string, start: number, answer: Answer | { error: string }): ExchangeRecord {
  const request = parseRequest(bytes);
  const url = request.target.startsWith('/') ? `${base.origin}${request.target}` : base.toString();
  return recorder.log.add({
    checkId: recorder.checkId,
    channel: 'raw',
    operationId: recorder.matchRoute(request.method, url),
    startedAt,
    durationMs: Math.round(performance.now() - start),
    request: { method: request.method, url: recorder.redactor.redactUrl(url), ...recordMessage(request.headers, request.body, recordLimits.request, recorder.redactor) },
    response: 'error' in answer ? null : { status: answer.status, ...recordMessage(answer.headers, answer.body, recordLimits.response, recorder.redactor) },
    ...('error' in answer ? { error: answer.error } : {}),
    replay: rawLine(bytes, base, recorder.redactor),
  });
}

/** The `ctx.raw` of one check: sends to `target`, records into `recorder`. */
export function createRawSender(target: string, recorder: Recorder, timeoutMs: number) {
  const base = new URL(target);
  return async function raw(input: string | Buffer, options: RawOptions = {}): Promise<RawResponse> {
    const bytes = Buffer.from(input);
    const method = parseRequest(bytes).method.toUpperCase();
    const startedAt = new Date().toISOString();
    const start = performance.now();
    const holdMs = options.holdMs ?? 0;
    const connection = openConnection(base);
    const answered = connection.answer(method, holdMs + timeoutMs);
    await connection.connected;
    void connection.write(bytes);
    const halfClose = setTimeout(() => options.halfClose && connection.end(), holdMs);
    const answer = await answered;
    clearTimeout(halfClose);
    return recordRaw(base, recorder, bytes, startedAt, start, answer);
  };
}

/** The `ctx.rawSession` of one check: opens connections to `target`, records into `recorder`. */
export function createRawSessionOpener(target: string, recorder: Recorder, timeoutMs: number) {
  const base = new URL(target);
  return async function rawSession(first?: string | Buffer): Promise<RawSession> {
    const startedAt = new Date().toISOString();
    const start = performance.now();
    const written: Buffer[] = [];
    const connection = openConnection(base);
    let finished: Promise<RawResponse> | undefined;
    await connection.connected;
    const session: RawSession = {
      async write(bytes) {
        if (finished !== undefined) throw new Error('rawSession: write() after response() or close()');
        const chunk = Buffer.from(bytes);
        written.push(chunk);
        await connection.write(chunk);
      },
      response() {
        finished ??= (async () => {
          const bytes = Buffer.concat(written);
          const answer = await connection.answer(parseRequest(bytes).method.toUpperCase(), timeoutMs);
          return recordRaw(base, recorder, bytes, startedAt, start, answer);
        })();
        return finished;
      },
      close() {
        if (finished !== undefined) return;
        finished = Promise.reject(new Error('rawSession: closed before response()'));
        finished.catch(() => undefined);
        connection.destroy();
        recordExchange(base, recorder, Buffer.concat(written), startedAt, start, { error: 'the check closed the connection before reading an answer' });
      },
    };
    if (first !== undefined) await session.write(first);
    return session;
  };
}

/** The `ctx.rawPipeline` of one check: writes requests back to back on one connection to `target`, records into `recorder`. */
export function createRawPipeliner(target: string, recorder: Recorder, timeoutMs: number) {
  const base = new URL(target);
  return async function rawPipeline(requests: readonly (string | Buffer)[], options: Pick<RawOptions, 'halfClose'> = {}): Promise<RawPipeline> {
    const sent = requests.map((request) => Buffer.from(request));
    const startedAt = new Date().toISOString();
    const start = performance.now();
    const connection = openConnection(base);
    await connection.connected;
    // One write: every request is on its way before the first answer can be.
    void connection.write(Buffer.concat(sent));
    if (options.halfClose) connection.end();
    const { data, end } = await connection.drain(timeoutMs);
    const { answers, partial } = parseAnswers(data, end === 'closed', sent.map((bytes) => parseRequest(bytes).method.toUpperCase()));
    const ended = end === 'timeout' ? 'timeout' : partial ? 'partial' : 'closed';
    const missing = ended === 'timeout' ? `no answer within ${timeoutMs} ms (timeout)` : ended === 'partial' ? 'the connection closed in the middle of the answer' : 'the connection closed without an answer';
    const responses: RawResponse[] = [];
    const exchanges: ExchangeRecord[] = [];
    for (const [index, bytes] of sent.entries()) {
      const answer = answers[index];
      if (answer !== undefined && answer.status >= 100 && answer.status <= 599 && responses.length === index) {
        const response = recordRaw(base, recorder, bytes, startedAt, start, answer);
        responses.push(response);
        exchanges.push(response.exchange);
      } else exchanges.push(recordExchange(base, recorder, bytes, startedAt, start, { error: answer === undefined ? missing : `not an HTTP answer: ${answer.httpVersion} ${answer.status}` }));
    }
    return { answers: responses, exchanges, end: ended };
  };
}
