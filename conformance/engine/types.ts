/**
 * The suite's vocabulary: checks, findings, exchanges and the run report. Everything here is
 * plain data; nothing here knows the API under test. Reporters read only `RunReport`.
 */

/**
 * How binding a rule is: MUST (the seeds state it), SHOULD (it follows from what they state),
 * DECISION (spec/DECISIONS.md fills a gap; a failure is a warning unless `--strict`). A check's
 * level is never written by hand: it is the level of the requirements it verifies.
 */
export type Level = 'MUST' | 'SHOULD' | 'DECISION';

/**
 * `fail`: the target broke the contract. `error`: the suite itself broke. `waived`: it failed,
 * and a waiver in force covers the failure (`--waivers`); it never counts for the exit code.
 */
export type Outcome = 'pass' | 'fail' | 'skip' | 'error' | 'waived';

/** Which levels `--level` keeps: `must` = MUST, `should` = MUST + SHOULD, `all` = every level. */
export type LevelFilter = 'must' | 'should' | 'all';

/** The API keys a profile can name. */
export type KeyName =
  | 'full'
  | 'ordersRead'
  | 'tripsRead'
  | 'noScopes'
  | 'otherTenant'
  | 'revoked'
  | 'rateLimited'
  | 'suspendedTenant';

/**
 * The pools of order external ids a profile can supply. `onTrip`: orders on a trip (Planned or
 * InProgress). A check reads each id's state before it relies on it (`support/pool-state.ts`).
 */
export type PoolName = 'payable' | 'cancellable' | 'notCancellable' | 'archivable' | 'onTrip' | 'otherTenant';

/**
 * The trip members the seeds describe without naming (01-integration-api.md › Trip), in their
 * order; `status` is the one the seeds name.
 */
export type TripMember = 'id' | 'shortCode' | 'status' | 'warehouse' | 'driver' | 'vehicle' | 'stopCount' | 'plannedAt' | 'updatedAt';

/**
 * The target's own choices where a decision only names things; each defaults to waybill's.
 * Seed-level checks read the target with them; only DECISION checks compare them with waybill's.
 */
export interface TargetChoices {
  /** D15: the name of each trip member (`status` is fixed by the seeds). */
  tripFields?: Partial<Record<Exclude<TripMember, 'status'>, string>>;
  /** D2: the scope payment, cancel and archive need. */
  writeScope?: string;
}

/** What a target supplies to the suite (`conformance/profile.schema.json`). */
export interface Profile {
  target?: string;
  auth?: { header: string; prefix?: string };
  keys: { full: string } & Partial<Record<Exclude<KeyName, 'full' | 'rateLimited'>, string>> & {
    rateLimited?: { key: string; perMinute: number };
  };
  orders?: Partial<Record<PoolName, string[]>>;
  /** Trip ids: `otherTenant` holds trips of the otherTenant key's tenant. */
  trips?: { otherTenant?: string[] };
  feeds?: { minOrders?: number; minTrips?: number };
  /** The target's own names where a decision only names things (trip fields, write scope). */
  choices?: TargetChoices;
  sandbox?: { url: string; token: string };
}

/**
 * A precondition a check declares; the runner skips the check when the profile cannot meet it.
 * `key:<name>` a profile key; `orders:<pool>:<n>` n external ids of a pool, handed to this check
 * alone; `trips:otherTenant` the other tenant's trip ids (read only, shared); `sandbox` the
 * control plane; `feeds:<field>` a feed size the profile promises.
 */
export type Precondition =
  | `key:${KeyName}`
  | `orders:${PoolName}:${number}`
  | 'trips:otherTenant'
  | 'sandbox'
  | `feeds:${'minOrders' | 'minTrips'}`;

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

/** One way the target broke the rule, as "Expected: … / Received: …". */
export interface Finding {
  message: string;
  expected: string;
  received: string;
  exchange?: ExchangeRecord;
  /** The requests of a client under `waybill client-check` that show it, oldest first. */
  requests?: LoggedRequest[];
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

/** What a check's `run` receives. */
export interface CheckContext {
  /** The base URL under test, without a trailing slash. */
  target: string;
  /** The profile, secrets included: prefer key names with `http` to copying values. */
  profile: Profile;
  /** Recorded requests to the target; `key` defaults to `'full'`. */
  http: HttpClient;
  /** Recorded requests to `profile.sandbox.url` with its bearer token; null when the profile has no sandbox. */
  sandbox: HttpClient | null;
  /** Writes `bytes` on a fresh connection to the target and reads one HTTP answer (recorded). */
  raw(bytes: string | Buffer, options?: RawOptions): Promise<RawResponse>;
  /** Opens a fresh connection to the target and writes `bytes` (if given); the check writes the rest and reads the answer later. */
  rawSession(bytes?: string | Buffer): Promise<RawSession>;
  /** Writes `requests` back to back on a fresh connection (half-closing after them if asked) and reads every answer until the target closes it or the timeout passes. */
  rawPipeline(requests: readonly (string | Buffer)[], options?: Pick<RawOptions, 'halfClose'>): Promise<RawPipeline>;
  /** The `Name: value` header line that authenticates as a profile key (for `raw`). */
  authHeader(key?: KeyName): string;
  /** The external ids the runner allocated to this check from `pool` (its `orders:<pool>:<n>` requirement). */
  orders(pool: PoolName): readonly string[];
  /** Every exchange of the run completed so far, all checks together. */
  exchanges(): readonly ExchangeRecord[];
  /**
   * Declares a secret the check met at run time (e.g. a key it created through the control
   * plane): it is redacted as `<redacted:name>` from every record, those already made included.
   */
  addSecret(value: string, name: string): void;
  /**
   * A value computed once per run and shared by every check that asks for it under `key` (a
   * snapshot of a feed, say); the exchanges it makes are recorded under the first check to ask.
   */
  shared<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** Ends the check as `skip` with `reason`, for a precondition only visible at run time. */
  skip(reason: string): never;
  /** A PRNG in [0, 1) seeded from the run's seed and the check id. */
  random(): number;
  seed: number;
  timeoutMs: number;
  /** The name of what the run creates on the target (tenants), with the run's time: `waybill conformance 2026-11-22T01:40:00Z`. */
  runLabel: string;
}

/** A unit of the suite: one rule of the contract, tested. */
export interface Check {
  /** `<family>.<name>`, e.g. `discovery.whoami.shape`. */
  id: string;
  family: string;
  title: string;
  /**
   * The ids of the requirements it verifies (`spec/requirements.yaml`): seed statements only, or
   * decisions only, never both. Its level and rule text are derived from them.
   */
  verifies: readonly string[];
  requires: readonly Precondition[];
  /** Shares state with other checks (a key's rate limit, a tenant's status): run alone, after the others. */
  exclusive?: boolean;
  /** Runs once every other check has finished, so `ctx.exchanges()` holds the whole run. */
  after?: 'all';
  /** Returns findings (empty or nothing = pass); throws only when the suite itself broke. */
  run(ctx: CheckContext): Promise<Finding[] | void>;
}

/** A check with the level and rule text its requirements give it. */
export interface ResolvedCheck extends Check {
  level: Level;
  /** The quoted sentences or table rows it verifies, each with where it stands. */
  rule: string;
}

/** The result of one check in the report. */
export interface CheckResult {
  id: string;
  family: string;
  title: string;
  level: Level;
  rule: string;
  verifies: string[];
  requires: Precondition[];
  outcome: Outcome;
  /** True when this result makes the run fail (exit 1): a MUST or SHOULD fail, or a DECISION fail under `--strict`. */
  failsRun: boolean;
  /** Why it was skipped (names the missing profile field). */
  reason?: string;
  error?: { message: string; stack?: string };
  findings: Finding[];
  phase: 'concurrent' | 'exclusive' | 'after-all';
  startedAt: string;
  durationMs: number;
  /** How many exchanges the check made. */
  exchangeCount: number;
  /** The waiver that turned a failure into `waived` (the findings stay as found). */
  waiver?: Waiver;
}

/** A waiver of a check's failure, as granted in a `--waivers` file. */
export interface Waiver {
  /** The check whose failure it covers. */
  check: string;
  /** The requirement (of those the check verifies) the failure concerns; needed for a MUST check in a certification. */
  requirement?: string;
  reason: string;
  /** Where the grant is recorded (a ticket, a decision). */
  link: string;
  /** Who granted it. */
  grantedBy: string;
  /** The last day (UTC, YYYY-MM-DD) it is in force. */
  expires: string;
}

/**
 * What became of a waiver in a run: `applied` (it covered a failure), `expired` (its date has
 * passed; a failure stays a failure), `refused` (it may not cover that failure), `unused` (the
 * check did not fail: it passed, was skipped, broke or did not run).
 */
export interface WaiverStatus {
  waiver: Waiver;
  status: 'applied' | 'expired' | 'refused' | 'unused';
  /** Why, in a sentence. */
  note: string;
}

/** What a certification adds to a report: the HTML report shows it as a certificate header. */
export interface Certificate {
  product: { vendor: string; product: string; version: string; contact: string };
  suiteVersion: string;
  /** sha256 (hex) of each spec file as run, by path (`spec/openapi.yaml`, …). */
  specHashes: Record<string, string>;
  verdict: 'PASS' | 'FAIL' | 'INCOMPLETE';
  /** Why the certification is incomplete (a skipped check and the profile entry it lacked, …). */
  incomplete: string[];
  /** The signing key's fingerprint (`SHA256:…`); null when the bundle is not signed. */
  signature: { algorithm: 'Ed25519'; keyFingerprint: string } | null;
}

/** Where a catalog code stands after the run. */
export type CoverageState = 'exercised' | 'expected-not-seen' | 'not-reachable';

/** One catalog code in the report. */
export interface CoverageEntry {
  code: string;
  status: number;
  group: string;
  reach: string;
  state: CoverageState;
  /** Answers that carried the code with its status and a valid body. */
  seen: number;
  /** Answers that carried the code with another status or an invalid body. */
  mismatched: number;
}

/** A statement of the register as the runner sees it: no knowledge of which API it belongs to. */
export interface RequirementInfo {
  id: string;
  level: Level;
  /** Where it stands: `01-integration-api.md › Section` or `spec/DECISIONS.md D4 — Title`. */
  source: string;
  /** The exact sentence or table row. */
  quote: string;
  /** False when no HTTP exchange can show it (`reason` says why). */
  testable: boolean;
  reason?: string;
  /** Only a sandbox control plane reaches it. */
  via?: 'control-plane';
}

/**
 * Where a requirement stands after a run: `fail` (a check verifying it failed), `error` (one
 * broke), `pass` (at least one ran and passed, none failed), `skip` (every check verifying it
 * was skipped), `untested` (no check of this run verifies it), `not-testable`.
 */
export type RequirementOutcome = Outcome | 'untested' | 'not-testable';

/** One requirement in the report, with the checks that verified it. */
export interface RequirementResult extends RequirementInfo {
  checks: { id: string; outcome: Outcome }[];
  outcome: RequirementOutcome;
}

/** Coverage of one kind of requirement: seed statements (MUST and SHOULD) or decisions. */
export interface RequirementCounts {
  total: number;
  testable: number;
  /** Testable ones that a check ran against (pass, fail or error). */
  covered: number;
  passed: number;
  failed: number;
}

/** Counts of results by outcome; `waived` is present only when a waiver was applied. */
export type OutcomeCounts = Record<Exclude<Outcome, 'waived'>, number> & { waived?: number };

/** Which tool made a report: the conformance suite (a server graded) or the client check (a client graded). */
export type SuiteName = 'waybill-conformance' | 'waybill-client-check';

/** What reporters learn before the first result. */
export interface RunStart {
  /** Absent in reports of the conformance suite made before client checks existed: read as `waybill-conformance`. */
  suite?: SuiteName;
  target: string;
  suiteVersion: string;
  specHash: string;
  seed: number;
  checkCount: number;
  startedAt: string;
}

/** What a run's verdict says (D55; `conformance/engine/verdict.ts`). */
export type VerdictWord = 'PASS' | 'FAIL' | 'INCOMPLETE' | 'PARTIAL';

/** The whole run, as every reporter sees it. Contains no secret. */
export interface RunReport {
  reportVersion: 1;
  /** `waybill-client-check` when the run graded a client (`waybill client-check`) rather than a server. */
  suite: { name: SuiteName; version: string };
  specHash: string;
  /** The base URL tested (credentials stripped). */
  target: string;
  seed: number;
  options: {
    only: string[];
    skip: string[];
    level: LevelFilter;
    strict: boolean;
    concurrency: number;
    timeoutMs: number;
  };
  /** Which parts of the profile were supplied, by name only. */
  profile: {
    keys: string[];
    pools: Record<string, number>;
    feeds: Record<string, number>;
    sandbox: boolean;
    /** Which of the target's own choices were stated (`tripFields.driver`, `writeScope`), never their values. */
    choices: string[];
  };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  counts: {
    checks: number;
    byOutcome: OutcomeCounts;
    byLevel: Record<Level, OutcomeCounts>;
    /** Failures that count for the exit code. */
    failing: number;
    /** Failures that do not (DECISION without `--strict`). */
    warnings: number;
  };
  exitCode: 0 | 1 | 2;
  /** The verdict the exit code follows, and what it did not grade (each skipped or broken check, by id and reason). */
  verdict: { verdict: VerdictWord; reasons: string[] };
  results: CheckResult[];
  coverage: {
    codes: CoverageEntry[];
    counts: Record<CoverageState, number>;
  };
  /** Every requirement of the register, seed statements first, with the checks that verified it. */
  requirements: {
    entries: RequirementResult[];
    counts: { seed: RequirementCounts; decision: RequirementCounts };
  };
  exchangeCount: number;
  /** What became of each waiver of `--waivers` (absent without it). */
  waivers?: WaiverStatus[];
  /** Present in the reports of a certification bundle (`--certify`). */
  certificate?: Certificate;
}

/** A route of the contract, for naming the operation an exchange hit. */
export interface Route {
  operationId: string;
  method: string;
  /** Path template with `{name}` segments. */
  path: string;
}

/**
 * What the runner needs from the contract without knowing it: the spec's hash, its routes,
 * its requirements register, and the catalog coverage of a run's exchanges.
 */
export interface Contract {
  specHash: string;
  routes: readonly Route[];
  /** The register, in its own order; checks' `verifies` name its ids. */
  requirements: ReadonlyMap<string, RequirementInfo>;
  coverage(exchanges: readonly ExchangeRecord[], profile: Profile): CoverageEntry[];
}
