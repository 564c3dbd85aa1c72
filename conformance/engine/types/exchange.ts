/**
 * Exchanges: requests the checks send (fetch or raw bytes), the answers, and how the run records
 * them; and a sandbox request-log entry, the evidence of a client-check finding.
 */

/** One request and its answer, as recorded (secrets redacted). */
export interface ExchangeRecord {
  /** Position in the run's log, from 1. */
  id: number;
  /** The check that made it. */
  checkId: string;
  /** `api` = the target through fetch, `sandbox` = the profile's control plane, `raw` = a hand-written request over a socket. */
  channel: 'api' | 'sandbox' | 'raw';
  /** The contract operation whose method and path template the request matches; null when none does. */
  operationId: string | null;
  startedAt: string;
  durationMs: number;
  request: RecordedMessage & { method: string; url: string };
  /** Null when no answer came (see `error`). */
  response: (RecordedMessage & { status: number }) | null;
  /** Why no (complete) answer came: timeout, connection reset, … */
  error?: string;
  /** A shell line that replays the exchange, with `$WAYBILL_KEY_…` placeholders for the secrets. */
  replay: string;
}

/** Headers and body of a recorded request or response. */
export interface RecordedMessage {
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body as text (base64 when `bodyEncoding` says so); null when there was none. */
  body: string | null;
  bodyEncoding?: 'base64';
  /** Size of the body in bytes as sent or received. */
  bodyBytes: number;
  /** True when `body` holds only the beginning. */
  bodyTruncated?: boolean;
}

/**
 * A request as a sandbox's request log keeps it (D48): the evidence of a client-check finding,
 * where the client, not the suite, made the request.
 */
export interface LoggedRequest {
  /** The log entry's id (`GET /sandbox/v1/tenants/{tenantId}/requests/{entryId}`). */
  entryId: number;
  requestId: string;
  /** Wall-clock time the request arrived. */
  atUtc: string;
  operation: string;
  method: string;
  /** Path and query as sent. */
  path: string;
  status: number;
  problemType: string | null;
  idempotencyKey: string | null;
  replayed: boolean;
  /** The fault the sandbox injected (`reset after (rule)`), or null. */
  fault: string | null;
}

/** A request made through `ctx.http` or `ctx.sandbox`. */
export interface HttpRequest {
  method: string;
  /** A path under the base URL (`/api/v1/integration/whoami`, query allowed) or an absolute URL. */
  path: string;
  /**
   * A profile key name (`'full'`, `'ordersRead'`, …) or a raw key value; null sends no credentials.
   * Default `'full'` on `ctx.http`; the sandbox client sends its token unless this is null.
   */
  key?: string | null;
  /** Overrides `profile.auth` for this request (`{ header: 'Authorization', prefix: 'Bearer ' }`). */
  auth?: { header: string; prefix?: string };
  /** Query parameters; an array repeats the parameter. */
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  headers?: Record<string, string>;
  /** A JSON body, sent as `application/json` unless `contentType` says otherwise. */
  body?: unknown;
  /** Bytes sent exactly as given (malformed JSON, other media types). */
  rawBody?: string | Buffer;
  /** Content-Type of the body; null sends none at all. */
  contentType?: string | null;
  /**
   * The bytes must reach the implementation exactly as written (a malformed body, a missing
   * Content-Type): sent past any proxy in front of the target (`--via-prism`), which parses
   * and may repair or answer such requests itself.
   */
  verbatim?: boolean;
}

/** An answer, with the recorded exchange to attach to findings. */
export interface HttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: unknown;
  durationMs: number;
  exchange: ExchangeRecord;
}

/** Sends recorded requests to one base URL. */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}

/** Options of `ctx.raw`. */
export interface RawOptions {
  /** Keep the connection open this long after writing, before half-closing or reading on. */
  holdMs?: number;
  /** End the writing side after the bytes (and `holdMs`), as a client whose body got cut off. */
  halfClose?: boolean;
}

/** The answer read from a raw socket. */
export interface RawResponse extends HttpResponse {
  statusText: string;
  httpVersion: string;
}

/** What came back on one connection that carried several requests (`ctx.rawPipeline`). */
export interface RawPipeline {
  /** The complete answers, in the order they came; the i-th is recorded as the answer to the i-th request. */
  answers: RawResponse[];
  /** The exchange recorded for each request, answered or not, in the order they were written. */
  exchanges: ExchangeRecord[];
  /** How the connection ended: closed by the target after its last answer, closed in the middle of one, or still open when the time ran out. */
  end: 'closed' | 'partial' | 'timeout';
}

/**
 * A raw connection written in steps, for a request held half-sent while the check does other
 * things (`ctx.rawSession`). Everything written is recorded as one exchange with its answer.
 */
export interface RawSession {
  /** Writes more bytes on the connection. */
  write(bytes: string | Buffer): Promise<void>;
  /** The answer to everything written (it may already have arrived), recorded; throws like `ctx.raw` when none comes within the timeout. */
  response(): Promise<RawResponse>;
  /** Drops the connection without reading an answer (recorded as unanswered); does nothing after `response()`. */
  close(): void;
}
