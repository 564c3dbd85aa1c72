/**
 * The run report, as every reporter sees it: results, verdict, coverage, requirements, waivers
 * and certificate. Reporters read only `RunReport`; it contains no secret.
 */
import type { ClientRunRecord, Finding, Level, LevelFilter, Outcome, Precondition } from './check.ts';
import type { CoverageEntry, CoverageState, RequirementInfo } from './contract.ts';

/** A finding as the report holds it: always with its fix sentence (the finding's own, else its check's). */
export interface ReportedFinding extends Finding {
  fix: string;
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
  findings: ReportedFinding[];
  phase: 'concurrent' | 'exclusive' | 'after-all';
  startedAt: string;
  durationMs: number;
  /** How many exchanges the check made. */
  exchangeCount: number;
  /** The waiver that turned a failure into `waived` (the findings stay as found). */
  waiver?: Waiver;
  /** Each run of the client under test a client-check scenario made, in order (client-check only). */
  clientRuns?: ClientRunRecord[];
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
/** A pause a check announces before it waits (a quota refilling), so that a quiet console is not taken for a hang. */
export interface CheckWait {
  checkId: string;
  ms: number;
  /** Why, in a sentence: what it waits for. */
  why: string;
}

export interface RunStart {
  /** Absent in reports of the conformance suite made before client checks existed: read as `waybill-conformance`. */
  suite?: SuiteName;
  target: string;
  suiteVersion: string;
  specHash: string;
  seed: number;
  checkCount: number;
  startedAt: string;
  /** In a client-check: the client's command line, as run (secrets redacted). */
  client?: GradedClient;
}

/** The client a client-check graded: the command it ran once or twice per scenario. */
export interface GradedClient {
  /** The command and its arguments as one shell-quoted line, every secret of the run redacted. */
  command: string;
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
    /** The fuzz family's generated cases (`--fuzz N`); absent when the run drew none. */
    fuzz?: number;
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
  /** In a client-check's report: the client it graded. */
  client?: GradedClient;
  /** Present when the run was cut short (Ctrl-C): by which signal. Its verdict is INCOMPLETE. */
  interrupted?: { signal: string };
}
