/**
 * The checks' HTTP client over global `fetch`. Every request and its answer go into the run's
 * exchange log with secrets redacted, the operation it matched, and a curl line to replay it.
 */
import { performance } from 'node:perf_hooks';
import { describeNetworkError } from './network-error.ts';
import type { Redactor } from './redaction.ts';
import { curlLine, isUtf8 } from './replay.ts';
import type { RouteMatcher } from '../contract/routes.ts';
import type { ExchangeRecord, HttpClient, HttpRequest, HttpResponse, RecordedMessage } from '../engine/types/exchange.ts';

/** A request that got no (complete) answer; carries the recorded exchange. */
export class ExchangeError extends Error {
  constructor(
    message: string,
    readonly exchange: ExchangeRecord,
  ) {
    super(message);
    this.name = 'ExchangeError';
  }
}

/** The run's exchange log, shared by every check. */
export interface ExchangeLog {
  /** Appends an exchange and gives it the next id. */
  add(entry: Omit<ExchangeRecord, 'id'>): ExchangeRecord;
  all(): readonly ExchangeRecord[];
}

/** An empty exchange log. */
export function createExchangeLog(): ExchangeLog {
  const entries: ExchangeRecord[] = [];
  return {
    add(entry) {
      const record = { id: entries.length + 1, ...entry };
      entries.push(record);
      return record;
    },
    all: () => entries,
  };
}

/** What every exchange of one check is recorded with. */
export interface Recorder {
  log: ExchangeLog;
  redactor: Redactor;
  matchRoute: RouteMatcher;
  checkId: string;
}

/** Request bodies are kept up to 64 KiB, response bodies up to 1 MiB; the rest is cut. */
export const recordLimits = { request: 64 * 1024, response: 1024 * 1024 };

/** Headers and body as recorded: redacted, and cut at `limit` bytes. */
export function recordMessage(headers: Record<string, string>, body: Buffer | null, limit: number, redactor: Redactor): RecordedMessage {
  const redactedHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), redactor.redact(value)]));
  if (body === null || body.length === 0) return { headers: redactedHeaders, body: null, bodyBytes: body?.length ?? 0 };
  const kept = redactor.redactBytes(body.subarray(0, limit));
  const utf8 = isUtf8(kept);
  return {
    headers: redactedHeaders,
    body: utf8 ? kept.toString('utf8') : kept.toString('base64'),
    ...(utf8 ? {} : { bodyEncoding: 'base64' as const }),
    bodyBytes: body.length,
    ...(body.length > limit ? { bodyTruncated: true } : {}),
  };
}

/** `text` parsed as JSON, or undefined. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** How a client authenticates and where it sends. */
export interface HttpClientOptions {
  baseUrl: string;
  /** Where `verbatim` requests go: the implementation itself when a proxy stands at `baseUrl`. */
  verbatimBaseUrl?: string;
  channel: 'api' | 'sandbox';
  recorder: Recorder;
  timeoutMs: number;
  auth: { header: string; prefix?: string };
  /** The secret to send for a request's `key` option; null sends none. */
  resolveKey(key: string | null | undefined): string | null;
  userAgent: string;
}

/** The full URL of a request: `path` joined to the base URL (unless absolute), with its query. */
function requestUrl(baseUrl: string, request: HttpRequest): string {
  const url = new URL(/^https?:\/\//i.test(request.path) ? request.path : `${baseUrl}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url.toString();
}

/** True when `error` is fetch's for a connection closed before any byte of an answer came (not a timeout, not a refused connection). */
function closedBeforeAnswer(error: unknown): boolean {
  const code = ((error as { cause?: { code?: unknown } } | undefined)?.cause as { code?: unknown } | undefined)?.code;
  return error instanceof TypeError && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
}

/** A client whose every request is recorded into `options.recorder.log`. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { recorder, channel } = options;
  return {
    async request(request): Promise<HttpResponse> {
      const method = request.method.toUpperCase();
      const url = requestUrl(request.verbatim ? (options.verbatimBaseUrl ?? options.baseUrl) : options.baseUrl, request);
      const body =
        request.rawBody !== undefined ? Buffer.from(request.rawBody) : request.body !== undefined ? Buffer.from(JSON.stringify(request.body)) : null;
      if (body !== null && (method === 'GET' || method === 'HEAD')) throw new Error(`${method} ${url}: fetch cannot send a body with ${method}; use ctx.raw`);
      const headers: Record<string, string> = { 'user-agent': options.userAgent };
      const contentType = request.contentType === undefined ? (body === null ? null : 'application/json') : request.contentType;
      if (contentType !== null) headers['content-type'] = contentType;
      const secret = options.resolveKey(request.key);
      const auth = request.auth ?? options.auth;
      if (secret !== null) headers[auth.header.toLowerCase()] = `${auth.prefix ?? ''}${secret}`;
      for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;

      const startedAt = new Date().toISOString();
      const start = performance.now();
      const record = (response: ExchangeRecord['response'], error?: string) =>
        recorder.log.add({
          checkId: recorder.checkId,
          channel,
          operationId: channel === 'api' ? recorder.matchRoute(method, url) : null,
          startedAt,
          durationMs: Math.round(performance.now() - start),
          request: { method, url: recorder.redactor.redactUrl(url), ...recordMessage(headers, body, recordLimits.request, recorder.redactor) },
          response,
          ...(error === undefined ? {} : { error }),
          replay: curlLine({ method, url, headers, body }, recorder.redactor),
        });

      let status: number;
      let responseHeaders: Record<string, string>;
      let responseBody: Buffer;
      try {
        const signal = AbortSignal.timeout(options.timeoutMs);
        const send = () => fetch(url, { method, headers, ...(body === null ? {} : { body }), redirect: 'manual', signal });
        // A kept-alive connection the target closed as it was reused (its idle timer and ours
        // raced, which a busy machine makes likely) fails before any answer: a read is sent again
        // on a fresh connection, as RFC 9110 §9.2.2 lets a client do with an idempotent request.
        const response = await send().catch((error: unknown) => (method === 'GET' && closedBeforeAnswer(error) && !signal.aborted ? send() : Promise.reject(error)));
        status = response.status;
        responseHeaders = Object.fromEntries(response.headers);
        responseBody = Buffer.from(await response.arrayBuffer());
      } catch (error) {
        const message = `${method} ${recorder.redactor.redactUrl(url)}: ${describeNetworkError(error, options.timeoutMs)}`;
        throw new ExchangeError(message, record(null, message));
      }
      const exchange = record({ status, ...recordMessage(responseHeaders, responseBody, recordLimits.response, recorder.redactor) });
      const text = responseBody.toString('utf8');
      return { status, headers: responseHeaders, text, json: parseJson(text), durationMs: exchange.durationMs, exchange };
    },
  };
}
