/**
 * The `exchanges.har` of a client-check: the client's requests, one page per scenario, as the
 * sandbox's request log keeps them (D48). They come from the log entries each scenario read
 * through the control plane (`GET /tenants/{id}/requests/{entryId}`), recorded and redacted as
 * every exchange of the run. The grader's own requests (staging through the control plane, its
 * marker and its key's reads) are left out: the archive shows what the client did.
 */
import { harDocument, type Har, type HarEntry, type HarPair, headerPairs, queryPairs, resultPage, statusText, uriOf, wholeTime } from '../transport/har.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { RunReport } from '../engine/types/report.ts';
import type { components } from '../../spec/sandbox-types.ts';
import type { LogBody } from './control-plane.ts';

/** A log entry as `GET …/requests/{entryId}` answers it (RequestLogEntry). */
type LogEntry = components['schemas']['RequestLogEntry'];

/** The path of one log entry under the control plane. */
const ENTRY_PATH = /\/tenants\/[^/?#]+\/requests\/(\d+)$/;

/** The log entry an exchange read, when it is a whole `GET …/requests/{entryId}` answered 200. */
function readEntry(exchange: ExchangeRecord): LogEntry | null {
  const { request, response } = exchange;
  if (exchange.channel !== 'sandbox' || request.method !== 'GET' || response?.status !== 200) return null;
  if (!ENTRY_PATH.test(request.url) || response.body === null || response.bodyEncoding !== undefined || response.bodyTruncated) return null;
  try {
    const entry = JSON.parse(response.body) as LogEntry;
    return typeof entry.id === 'number' && typeof entry.path === 'string' && typeof entry.request === 'object' ? entry : null;
  } catch {
    return null;
  }
}

/** A body of the log as HAR content: its text, and a comment when the log kept only its first 16 KiB. */
function loggedBody(body: LogBody): { text?: string; comment?: string } {
  return {
    ...(body.body === null ? {} : { text: body.body }),
    ...(body.truncated ? { comment: `the request log keeps the first 16 KiB of the ${body.bytes}-byte body` } : {}),
  };
}

const TIMING_COMMENT = "the sandbox's latency, from the request's arrival to the last byte of its answer handed to the socket (D48), as wait";

/** One request of the client, as its log entry says it, on its scenario's page. */
export function loggedEntry(entry: LogEntry, target: string, scenarioId: string): HarEntry {
  const requestHeaders: HarPair[] = [
    ...(entry.request.contentType === null ? [] : [{ name: 'content-type', value: entry.request.contentType }]),
    ...(entry.idempotencyKey === null ? [] : [{ name: 'idempotency-key', value: entry.idempotencyKey }]),
  ];
  const answered = entry.status !== 0;
  const responseHeaders = headerPairs({
    ...(entry.response.contentType === null ? {} : { 'content-type': entry.response.contentType }),
    'x-request-id': entry.requestId,
    ...(entry.replayed ? { 'idempotent-replayed': 'true' } : {}),
  });
  const request = loggedBody(entry.request);
  const response = loggedBody(entry.response);
  const url = `${target}${entry.path}`;
  return {
    pageref: scenarioId,
    startedDateTime: entry.atUtc,
    time: entry.latencyMs,
    request: {
      method: entry.method,
      url: uriOf(url),
      // The log keeps no protocol version.
      httpVersion: '',
      cookies: [],
      headers: requestHeaders,
      queryString: queryPairs(url),
      ...(request.text === undefined ? {} : { postData: { mimeType: entry.request.contentType ?? '', text: request.text, ...(request.comment === undefined ? {} : { comment: request.comment }) } }),
      headersSize: -1,
      bodySize: entry.request.bytes,
    },
    response: {
      status: entry.status,
      statusText: answered ? statusText(entry.status) : '',
      httpVersion: '',
      cookies: [],
      headers: answered ? responseHeaders : [],
      content: { size: entry.response.bytes, mimeType: entry.response.contentType ?? '', ...response },
      redirectURL: '',
      headersSize: -1,
      bodySize: answered ? entry.response.bytes : -1,
      ...(answered ? {} : { _error: `no answer: the connection was closed before any answer${entry.fault === null ? '' : ` (fault ${entry.fault.fault}, D51)`}` }),
    },
    cache: {},
    timings: wholeTime(entry.latencyMs, TIMING_COMMENT),
    comment: 'From the sandbox request log: it keeps Content-Type, Idempotency-Key and the request id of the headers, the key by its id (_waybill.keyId), bodies up to 16 KiB.',
    _resourceType: 'fetch',
    _waybill: {
      source: 'request-log',
      entryId: entry.id,
      operation: entry.operation,
      keyId: entry.keyId,
      problemType: entry.problemType,
      fault: entry.fault,
      replay: entry.curl,
    },
  };
}

const CLIENT_CHECK_COMMENT = [
  "waybill client-check: the client's requests to the integration API, one page per scenario, as the sandbox's request log keeps them (D48).",
  "The grader's own requests (staging through the control plane, its marker requests) are left out; report.json counts them in exchangeCount.",
  'Secrets are redacted as in report.json (<redacted:name>).',
].join(' ');

/** The HAR of a client-check run: a page per scenario the client ran in, each with the client's requests in log order. */
export function clientCheckHar(report: Pick<RunReport, 'results' | 'target'>, exchanges: readonly ExchangeRecord[]): Har {
  const read = new Map<string, Map<number, LogEntry>>();
  for (const exchange of exchanges) {
    const entry = readEntry(exchange);
    if (entry === null) continue;
    const scenario = read.get(exchange.checkId) ?? new Map<number, LogEntry>();
    scenario.set(entry.id, entry);
    read.set(exchange.checkId, scenario);
  }
  const ran = report.results.filter((result) => (result.clientRuns?.length ?? 0) > 0 || read.has(result.id));
  const entries = ran.flatMap((result) => [...(read.get(result.id)?.values() ?? [])].sort((a, b) => a.id - b.id).map((entry) => loggedEntry(entry, report.target, result.id)));
  return harDocument(ran.map(resultPage), entries, CLIENT_CHECK_COMMENT);
}
