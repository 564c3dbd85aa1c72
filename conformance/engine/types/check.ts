/**
 * Checks: what a check declares (id, requirements, preconditions), the `ctx` it runs with, and
 * the findings it returns. Plain data; nothing here knows the API under test.
 */
import type { ExchangeRecord, HttpClient, LoggedRequest, RawOptions, RawPipeline, RawResponse, RawSession } from './exchange.ts';
import type { KeyName, PoolName, Profile } from './profile.ts';


/** How one run of an integrator's client ended, and the last it wrote (keys redacted). */
export interface ClientRunRecord {
  exitCode: number | null;
  /** The signal that ended it, when one did (SIGKILL after the time limit). */
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The last lines it wrote on each stream, at most 2 KiB each. */
  stdoutTail: string;
  stderrTail: string;
}

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

/** One way the target broke the rule, as "Expected: … / Received: …", and how to fix it. */
export interface Finding {
  message: string;
  expected: string;
  received: string;
  /**
   * What a correct target (or client) does instead, in one sentence ending with the ids it
   * cites, each one its check verifies: `keep one Idempotency-Key for every attempt of the same
   * write (client.idempotency.same-key)`. Left out, the check's own `fix`; a report always holds one.
   */
  fix?: string;
  exchange?: ExchangeRecord;
  /** The requests of a client under `waybill client-check` that show it, oldest first. */
  requests?: LoggedRequest[];
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
  /** Records a run of the client under test (client-check), for the report; its output is redacted like everything else. */
  clientRun(record: ClientRunRecord): void;
  /** Says the check is about to wait `ms` and why (`CheckWait`): the console shows it as the wait begins. */
  waiting(ms: number, why: string): void;
  /** Ends the check as `skip` with `reason`, for a precondition only visible at run time. */
  skip(reason: string): never;
  /** A PRNG in [0, 1) seeded from the run's seed and the check id. */
  random(): number;
  seed: number;
  /** Generated cases a check that draws them adds to its own (`--fuzz N`); 0 without. */
  fuzz: number;
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
  /**
   * How to fix a failure of it, in one sentence: what a correct target (or client) does instead,
   * ending with the ids of `verifies` it cites in parentheses, `(D13)` or `(int.a, int.b)`. Every
   * finding that brings no sentence of its own carries this one.
   */
  fix: string;
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
