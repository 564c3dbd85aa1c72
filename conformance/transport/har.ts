/**
 * `exchanges.har`: a run's exchanges as an HTTP Archive (HAR 1.2) that Chromium's DevTools
 * (Network → Import HAR file) and other HAR viewers open. One page per check, each exchange
 * an entry as recorded (secrets already redacted); what HAR has no field for is said in
 * `_waybill` fields and comments, never guessed.
 */
import { writeFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import { PACKAGE_VERSION } from '../../spec/package-files.ts';
import type { ExchangeRecord, RecordedMessage } from '../engine/types/exchange.ts';
import type { CheckResult, RunReport } from '../engine/types/report.ts';

/** The file name, beside report.json. */
export const HAR_FILE = 'exchanges.har';

/** A header or query parameter. */
export interface HarPair {
  name: string;
  value: string;
}

/** A request as HAR 1.2 has it. */
export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarPair[];
  headers: HarPair[];
  queryString: HarPair[];
  postData?: { mimeType: string; text: string; comment?: string; _encoding?: 'base64' };
  headersSize: number;
  bodySize: number;
}

/** A response as HAR 1.2 has it; status 0 and `_error` when none came. */
export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarPair[];
  headers: HarPair[];
  content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; comment?: string };
  redirectURL: string;
  headersSize: number;
  bodySize: number;
  _error?: string;
}

/** One exchange. */
export interface HarEntry {
  pageref?: string;
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: { blocked: number; dns: number; connect: number; ssl: number; send: number; wait: number; receive: number; comment?: string };
  comment?: string;
  /** DevTools' own custom field: the Type column. */
  _resourceType: 'fetch' | 'other';
  /** What waybill knows of the exchange that HAR has no field for. */
  _waybill: Record<string, unknown>;
}

/** A page: one check, or one client-check scenario. */
export interface HarPage {
  startedDateTime: string;
  id: string;
  title: string;
  pageTimings: { onContentLoad: number; onLoad: number };
  comment?: string;
}

/** The whole archive. */
export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; pages: HarPage[]; entries: HarEntry[]; comment: string };
}

/** `headers` as HAR's name/value list. */
export function headerPairs(headers: Record<string, string>): HarPair[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/**
 * `url` with every character its path, query and fragment cannot hold (RFC 3986) percent-encoded
 * (`<redacted:full>` in a path, a stray byte of a raw request target), so that viewers and
 * validators parse it; a `%` that starts no escape is encoded too, and so is any `#` after the first.
 */
export function uriOf(url: string): string {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
  let fragment = false;
  const rest = url.slice(origin.length).replace(/%(?![0-9A-Fa-f]{2})|#|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu, (character) => {
    if (character === '#' && !fragment) {
      fragment = true;
      return character;
    }
    return encodeURIComponent(character);
  });
  return `${origin}${rest}`;
}

/** The query of `url`, decoded, as HAR's name/value list. */
export function queryPairs(url: string): HarPair[] {
  const at = url.indexOf('?');
  if (at === -1) return [];
  const query = url.slice(at + 1).split('#')[0] ?? '';
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text.replaceAll('+', ' '));
    } catch {
      return text;
    }
  };
  return query.split('&').filter((pair) => pair !== '').map((pair) => {
    const equals = pair.indexOf('=');
    return equals === -1 ? { name: decode(pair), value: '' } : { name: decode(pair.slice(0, equals)), value: decode(pair.slice(equals + 1)) };
  });
}

/** The standard reason phrase of `status` (HAR's statusText; the recorded answer keeps none), or ''. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? '';
}

/** Timings when only the whole time is known: all of it is `wait`, the parts HAR splits it into unknown (-1). */
export function wholeTime(ms: number, comment: string): HarEntry['timings'] {
  return { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: ms, receive: 0, comment };
}

/** A page for a check's (or scenario's) result: its id, outcome and title, and its findings' messages. */
export function resultPage(result: Pick<CheckResult, 'id' | 'title' | 'outcome' | 'startedAt' | 'findings'>): HarPage {
  const findings = result.findings.map((finding, index) => `${index + 1}) ${finding.message}`);
  return {
    startedDateTime: result.startedAt,
    id: result.id,
    title: `${result.id} (${result.outcome}) — ${result.title}`,
    pageTimings: { onContentLoad: -1, onLoad: -1 },
    ...(findings.length === 0 ? {} : { comment: findings.join('\n') }),
  };
}

/** The archive of `entries` on `pages`, entries oldest first as HAR prefers. */
export function harDocument(pages: HarPage[], entries: HarEntry[], comment: string): Har {
  const ordered = [...entries].sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  return { log: { version: '1.2', creator: { name: 'waybill', version: PACKAGE_VERSION }, pages, entries: ordered, comment } };
}

/** Writes `har` as `<dir>/exchanges.har`; resolves to its path. */
export async function writeHar(dir: string, har: Har): Promise<string> {
  const file = join(dir, HAR_FILE);
  await writeFile(file, `${JSON.stringify(har, null, 2)}\n`);
  return file;
}

/** A recorded body as HAR says it: its text (base64 when so recorded), and a comment when only its beginning was kept. */
function recordedBody(message: RecordedMessage): { text?: string; base64: boolean; comment?: string } {
  if (message.body === null) return { base64: false };
  const base64 = message.bodyEncoding === 'base64';
  const notes = [
    ...(base64 ? ['base64: the body is not UTF-8'] : []),
    ...(message.bodyTruncated ? [`only the beginning of the ${message.bodyBytes}-byte body was recorded`] : []),
  ];
  return { text: message.body, base64, ...(notes.length === 0 ? {} : { comment: notes.join('; ') }) };
}

/** The response of `record` in HAR; status 0 with `_error` when no (complete) answer came, as browsers write a failed request. */
function responseOf(record: ExchangeRecord): HarResponse {
  const { response } = record;
  if (response === null) {
    return { status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: -1, _error: record.error ?? 'no answer' };
  }
  const body = recordedBody(response);
  return {
    status: response.status,
    statusText: statusText(response.status),
    // fetch speaks HTTP/1.1 here; a raw answer's version is not recorded.
    httpVersion: record.channel === 'raw' ? '' : 'HTTP/1.1',
    cookies: [],
    headers: headerPairs(response.headers),
    content: {
      size: response.bodyBytes,
      mimeType: response.headers['content-type'] ?? '',
      ...(body.text === undefined ? {} : { text: body.text }),
      ...(body.base64 ? { encoding: 'base64' as const } : {}),
      ...(body.comment === undefined ? {} : { comment: body.comment }),
    },
    redirectURL: response.status >= 300 && response.status < 400 ? (response.headers['location'] ?? '') : '',
    headersSize: -1,
    // The body as fetch gave it, decoded: its size on the wire is unknown when it was encoded.
    bodySize: response.headers['content-encoding'] === undefined ? response.bodyBytes : -1,
  };
}

const RAW_COMMENT = 'Hand-written bytes on a connection of their own (channel raw), a request fetch cannot send: method, URL, headers and body are read from those bytes, and _waybill.replay writes them again exactly.';

/** One recorded exchange as a HAR entry on its check's page. */
export function exchangeEntry(record: ExchangeRecord): HarEntry {
  const { request } = record;
  const body = recordedBody(request);
  return {
    pageref: record.checkId,
    startedDateTime: record.startedAt,
    time: record.durationMs,
    request: {
      method: request.method,
      url: uriOf(request.url),
      httpVersion: record.channel === 'raw' ? '' : 'HTTP/1.1',
      cookies: [],
      headers: headerPairs(request.headers),
      queryString: queryPairs(request.url),
      ...(body.text === undefined
        ? {}
        : { postData: { mimeType: request.headers['content-type'] ?? '', text: body.text, ...(body.comment === undefined ? {} : { comment: body.comment }), ...(body.base64 ? { _encoding: 'base64' as const } : {}) } }),
      headersSize: -1,
      bodySize: request.bodyBytes,
    },
    response: responseOf(record),
    cache: {},
    timings: wholeTime(record.durationMs, 'the suite measures each exchange whole: all of it is wait'),
    ...(record.channel === 'raw' ? { comment: RAW_COMMENT } : {}),
    _resourceType: record.channel === 'raw' ? 'other' : 'fetch',
    _waybill: {
      exchangeId: record.id,
      checkId: record.checkId,
      channel: record.channel,
      operationId: record.operationId,
      replay: record.replay,
      ...(record.error === undefined ? {} : { error: record.error }),
    },
  };
}

const SUITE_COMMENT = [
  "waybill conformance: every exchange of the run, one page per check, secrets redacted as in report.json (<redacted:name>; replay lines name them as $WAYBILL_… variables).",
  'Request headers are those the suite set; fetch adds Host, Connection, Accept, Accept-Encoding and Content-Length itself.',
  'Timings: the whole exchange as wait. Channel raw (hand-written bytes on a socket) is said in each such entry.',
].join(' ');

/** The HAR of a conformance run: a page per check that made an exchange, in the report's order, and every exchange. */
export function suiteHar(report: Pick<RunReport, 'results'>, exchanges: readonly ExchangeRecord[]): Har {
  const used = new Set(exchanges.map((exchange) => exchange.checkId));
  const pages = report.results.filter((result) => used.has(result.id)).map(resultPage);
  // An exchange of no reported check (none today) still gets a page: no entry points nowhere.
  for (const checkId of used) {
    if (!pages.some((page) => page.id === checkId)) {
      const first = exchanges.find((exchange) => exchange.checkId === checkId)!;
      pages.push({ startedDateTime: first.startedAt, id: checkId, title: checkId, pageTimings: { onContentLoad: -1, onLoad: -1 } });
    }
  }
  return harDocument(pages, exchanges.map(exchangeEntry), SUITE_COMMENT);
}
