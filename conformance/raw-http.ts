/**
 * `ctx.raw`: hand-written bytes on a fresh TCP (or TLS) connection, for the HTTP rules fetch
 * cannot express (a body shorter than its Content-Length, a dropped connection). Recorded like
 * every other exchange.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { ExchangeError, parseJson, type Recorder, recordLimits, recordMessage } from './exchange.ts';
import { type Answer, parseAnswer, parseRequest } from './http-message.ts';
import { rawLine } from './replay.ts';
import type { RawOptions, RawResponse } from './types.ts';

/** Writes `bytes` to `target`'s host and port and reads one answer, or says why none came. */
function exchangeBytes(target: URL, bytes: Buffer, method: string, options: RawOptions & { timeoutMs: number }): Promise<Answer | { error: string }> {
  const https = target.protocol === 'https:';
  const port = Number(target.port || (https ? 443 : 80));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const timers: NodeJS.Timeout[] = [];
    let settled = false;
    const socket = https
      ? tls.connect({ host: target.hostname, port, servername: target.hostname })
      : net.connect({ host: target.hostname, port });
    const settle = (closed: boolean, reason?: string) => {
      if (settled) return;
      const data = Buffer.concat(chunks);
      const answer = parseAnswer(data, closed, method);
      if (answer === null && !closed) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      socket.destroy();
      if (answer !== null && !(answer.status >= 100 && answer.status <= 599)) resolve({ error: `not an HTTP answer: ${JSON.stringify(data.subarray(0, 80).toString('latin1'))}` });
      else if (answer !== null) resolve(answer);
      else resolve({ error: reason ?? (data.length === 0 ? 'the connection closed without an answer' : 'the connection closed in the middle of the answer') });
    };
    socket.once(https ? 'secureConnect' : 'connect', () => {
      socket.write(bytes);
      timers.push(setTimeout(() => options.halfClose && socket.end(), options.holdMs ?? 0));
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      settle(false);
    });
    socket.on('end', () => settle(true));
    socket.on('close', () => settle(true));
    socket.on('error', (error: NodeJS.ErrnoException) => settle(true, `socket error ${error.code ?? error.message}`));
    timers.push(setTimeout(() => settle(true, `no answer within ${options.timeoutMs} ms (timeout)`), (options.holdMs ?? 0) + options.timeoutMs));
  });
}

/** The `ctx.raw` of one check: sends to `target`, records into `recorder`. */
export function createRawSender(target: string, recorder: Recorder, timeoutMs: number) {
  const base = new URL(target);
  return async function raw(input: string | Buffer, options: RawOptions = {}): Promise<RawResponse> {
    const bytes = Buffer.from(input);
    const request = parseRequest(bytes);
    const url = request.target.startsWith('/') ? `${base.origin}${request.target}` : base.toString();
    const startedAt = new Date().toISOString();
    const start = performance.now();
    const answer = await exchangeBytes(base, bytes, request.method.toUpperCase(), { ...options, timeoutMs });
    const exchange = recorder.log.add({
      checkId: recorder.checkId,
      channel: 'raw',
      operationId: recorder.matchRoute(request.method, url),
      startedAt,
      durationMs: Math.round(performance.now() - start),
      request: { method: request.method, url: recorder.redactor.redact(url), ...recordMessage(request.headers, request.body, recordLimits.request, recorder.redactor) },
      response: 'error' in answer ? null : { status: answer.status, ...recordMessage(answer.headers, answer.body, recordLimits.response, recorder.redactor) },
      ...('error' in answer ? { error: answer.error } : {}),
      replay: rawLine(bytes, base, recorder.redactor),
    });
    if ('error' in answer) throw new ExchangeError(`raw ${request.method} ${recorder.redactor.redact(url)}: ${answer.error}`, exchange);
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
  };
}
