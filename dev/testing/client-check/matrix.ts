/**
 * The proof of client-check both ways, as a matrix like `dev/suite-proof/`: each naive variant of the
 * example client breaks one rule and must fail the scenarios of that rule (and only those), at
 * page sizes 1, 50 and 100; the example clients, in JavaScript and in Python, must pass every
 * scenario at each of them. Page size matters to the sync scenarios only (the writes read no
 * page), so at 1 and 50 only `client.sync` runs, and at 100 every scenario.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../../conformance/engine/types/report.ts';
import { scenarios } from '../../../conformance/client-check/scenarios/index.ts';
import { checkClient, EXAMPLE_CLIENT, NAIVE_CLIENT, notPassed, PYTHON_CLIENT } from './check-client.ts';
import { fixProblem } from '../../../conformance/engine/verifies.ts';
import type { LogSummary } from '../../../conformance/client-check/control-plane.ts';
import { HEAD_START_MS, LEFT, PER_MINUTE, SLACK } from '../../../conformance/client-check/scenarios/rate-limit.ts';

/** The page sizes every cell runs at: the smallest, the default and the most the seeds allow. */
export const PAGE_SIZES = [1, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** The family whose grades depend on the page size. */
export const PAGED_FAMILY = 'client.sync';

/** A client of the matrix: how it is run, the rule it breaks (none for an example client), and what must fail. */
export interface MatrixClient {
  command: string;
  args: readonly string[];
  /** The scenario whose rule it breaks (the one a reader looks at first); absent for a correct client. */
  breaks?: string;
  /** Every scenario that must fail with it, at page size 100 (each page size keeps those it runs). */
  fails: readonly string[];
  /** Scenarios it is not run through, and why (a sync that never ends runs out its whole budget). */
  leftOut?: { ids: readonly string[]; why: string };
  /** What the finding of `breaks` says. */
  finding?: RegExp;
  /** The fix sentence one finding of `breaks` carries, exactly: what the example client does instead. */
  fix?: string;
  /** The time limit of one run, when a shorter one shows the same (a sync that never ends). */
  timeoutMs?: number;
  /**
   * A scenario of `fails` that grades what the client sent against a rate, which a client that
   * does not pace meets by accident when a busy machine slows each of its requests: its pass is
   * accepted only when the sandbox's log shows every request slow enough (`tooSoon` finds none).
   */
  slowPasses?: 'client.sync.rate-limit';
}

const node = (args: readonly string[]) => ({ command: process.execPath, args });
const naive = (mistake: string) => node([NAIVE_CLIENT, mistake]);
const SYNC = scenarios.filter((scenario) => scenario.id.startsWith(`${PAGED_FAMILY}.`)).map((scenario) => scenario.id);
/** The fix sentence of scenario `id`, which a finding that brings none of its own carries. */
const fixOf = (id: string) => scenarios.find((scenario) => scenario.id === id)?.fix;
const ANSWER_LOST = ['client.archive.answer-lost', 'client.cancel.answer-lost', 'client.pay.answer-lost', 'client.pay.answer-lost-500', 'client.pay.answer-lost-empty', 'client.pay.answer-lost-stall'];

/** The example clients: never failed. */
export const exampleClients: Record<string, MatrixClient> = {
  'client.mjs': { ...node([EXAMPLE_CLIENT]), fails: [] },
  'client.py': { command: 'python3', args: [PYTHON_CLIENT], fails: [] },
};

/** The naive variants of `example/naive.mjs`, each the example's policy with one decision replaced. */
export const naiveClients: Record<string, MatrixClient> = {
  'new-key-per-retry': { ...naive('new-key-per-retry'), breaks: 'client.pay.answer-lost', fails: [...ANSWER_LOST, 'client.pay.in-flight'], finding: /new Idempotency-Key/, fix: 'keep one Idempotency-Key for every attempt of the same write (client.idempotency.same-key)' },
  'no-backoff': { ...naive('no-backoff'), breaks: 'client.pay.retry-after', fails: ['client.pay.in-flight', 'client.pay.retry-after', 'client.sync.retry-after'], finding: /before its Retry-After/, fix: "wait at least the delay a 429's Retry-After gives (seconds, or until its HTTP-date) before the next attempt (int.errors.rate-limit-429)" },
  'give-up-on-429': { ...naive('give-up-on-429'), breaks: 'client.pay.retry-after', fails: ['client.pay.in-flight', 'client.pay.retry-after', 'client.sync.retry-after'], finding: /abandoned the call after a 429/, fix: "send the request again once the 429's Retry-After has passed: a 429 means not yet, never give up the call (int.errors.rate-limit-429)" },
  'retry-client-errors': { ...naive('retry-client-errors'), breaks: 'client.no-retry.404', fails: ['client.no-retry.400', 'client.no-retry.401', 'client.no-retry.403', 'client.no-retry.404', 'client.no-retry.409'], finding: /retried a 404/, fix: fixOf('client.no-retry.404') },
  // A body the API cannot read refuses every write, so every scenario that needs one done fails too.
  'text-plain-body': {
    ...naive('text-plain-body'),
    breaks: 'client.pay.json-body',
    fails: ['client.cancel.answer-lost', 'client.no-retry.400', 'client.no-retry.404', 'client.no-retry.409', 'client.pay.answer-lost', 'client.pay.answer-lost-500', 'client.pay.answer-lost-empty', 'client.pay.answer-lost-stall', 'client.pay.in-flight', 'client.pay.json-body', 'client.pay.retry-after'],
    finding: /without Content-Type: application\/json/,
    fix: 'send Content-Type: application/json with every write that has a body, not text/plain (int.body.media-type)',
  },
  'full-read': { ...naive('full-read'), breaks: 'client.sync.resumes', fails: ['client.sync.resumes'], finding: /started again from the beginning/, fix: fixOf('client.sync.resumes') },
  'stop-at-unknown-status': { ...naive('stop-at-unknown-status'), breaks: 'client.sync.unknown-status', fails: ['client.sync.unknown-status'], finding: /stopped at an order in status OnHold/, fix: fixOf('client.sync.unknown-status') },
  // Two requests make its sync at 100 a page: a busy machine can space them further than a token.
  'ignore-rate-limit': { ...naive('ignore-rate-limit'), breaks: 'client.sync.rate-limit', fails: ['client.sync.rate-limit'], finding: /exceeded its key's rate limit/, fix: fixOf('client.sync.rate-limit'), slowPasses: 'client.sync.rate-limit' },
  // A DECISION scenario (D93): it fails, and the verdict counts it as a warning.
  'strict-schema': {
    ...naive('strict-schema'),
    breaks: 'client.sync.tolerant-reader',
    fails: ['client.sync.tolerant-reader'],
    finding: /The sync stopped at order \S+, which carries deliveryWindow, a member the contract does not list yet \| The sync stopped at trip \S+, which carries status OnHold, a trip status the contract does not list$/,
    fix: 'keep the order, read past what it carries that the contract does not list, and follow nextCursor until a page answers null (client.feed.tolerant-reader)',
  },
  'since-paging': {
    ...naive('since-paging'),
    breaks: 'client.sync.follows-cursor',
    fails: SYNC.filter((id) => id !== 'client.sync.rate-limit'),
    // Its orders share one stamp, so since-paging reads the same page for ever: a run of 120 s.
    leftOut: { ids: ['client.sync.rate-limit'], why: 'it never ends, and would run out the scenario’s 120 s' },
    // Long enough for the payment scenarios (a stalled answer is given up after 5 s), short for its endless syncs.
    timeoutMs: 10_000,
    finding: /not read from the previous page's nextCursor|stopped before the feed was caught up/,
    fix: fixOf('client.sync.follows-cursor'),
  },
};

/**
 * The page sizes `client` runs at: all three when a sync scenario grades it (an example client, or
 * a variant failing one), else 100 only: a write reads no page, so the size changes nothing.
 */
export function pageSizesOf(client: MatrixClient): readonly PageSize[] {
  return client.breaks === undefined || client.fails.some((id) => SYNC.includes(id)) ? PAGE_SIZES : [100];
}

/** The scenarios a cell runs: the sync family below 100, every scenario at 100; less what the client leaves out. */
export function scenariosOf(client: MatrixClient, pageSize: PageSize): string[] {
  return (pageSize === 100 ? scenarios.map((scenario) => scenario.id) : SYNC).filter((id) => !(client.leftOut?.ids ?? []).includes(id));
}

/**
 * Runs `client` at `pageSize` through its scenarios and holds it to the matrix: exactly its
 * failures, each with the client's requests; the verdict FAIL (exit 1) when one counts, and a
 * DECISION scenario's failure a warning that does not (PASS, exit 0).
 */
export async function expectCell(client: MatrixClient, pageSize: PageSize): Promise<{ report: RunReport; byId: Map<string, CheckResult> }> {
  const only = scenariosOf(client, pageSize);
  const slow = client.slowPasses !== undefined && only.includes(client.slowPasses) ? client.slowPasses : undefined;
  // One order a page is a hundred requests a sync: a busy machine needs its time.
  const { report, byId, logs } = await checkClient([...client.args, '--page-size', String(pageSize)], { command: client.command, only, concurrency: 6, timeoutMs: client.timeoutMs ?? (pageSize === 1 ? 60_000 : 20_000), logOf: slow === undefined ? [] : [slow] });
  // A pass by accident: only when every request the client sent was slow enough for its key.
  const lucky = slow !== undefined && byId.get(slow)?.outcome === 'pass';
  if (lucky) expect(tooSoon(logs.get(slow) ?? []), `${slow} passed, so every request of the client came when its key held one`).toEqual([]);
  const fails = client.fails.filter((id) => only.includes(id) && !(lucky && id === slow)).sort();
  expect(notPassed(report)).toEqual(fails);
  expect(report.results.map((result) => result.id).sort()).toEqual([...only].sort());
  for (const id of fails) {
    const findings = byId.get(id)?.findings ?? [];
    expect(findings.some((finding) => (finding.requests ?? []).length > 0), `${id} shows the client's requests`).toBe(true);
    for (const finding of findings) expect(fixProblem(finding.fix, byId.get(id)?.verifies ?? []), `${id}: ${finding.message}`).toBeNull();
  }
  if (client.breaks !== undefined && fails.includes(client.breaks)) {
    expect(byId.get(client.breaks)?.findings.map((finding) => finding.message).join(' | ')).toMatch(client.finding as RegExp);
    expect(byId.get(client.breaks)?.findings.map((finding) => finding.fix)).toContain(client.fix);
  }
  const counting = fails.filter((id) => byId.get(id)?.level !== 'DECISION');
  expect(report.exitCode).toBe(counting.length > 0 ? 1 : 0);
  expect(report.verdict.verdict).toBe(counting.length > 0 ? 'FAIL' : 'PASS');
  expect(report.counts.warnings).toBe(fails.length - counting.length);
  return { report, byId };
}

/**
 * The requests of `log` (a client's, oldest first, in `client.sync.rate-limit`) that came before
 * the key's bucket held one, by the scenario's own terms (D56): `LEFT` at the first request, a
 * refill of `PER_MINUTE` a minute from `HEAD_START_MS` before it, `SLACK` of a request spared.
 * Read from the log's times alone, apart from the sandbox's rate limiter and the grade (1e-9: a
 * request exactly on time is on time, whatever floating point makes of it).
 */
export function tooSoon(log: readonly Pick<LogSummary, 'id' | 'atUtc'>[]): string[] {
  const first = Date.parse(log[0]?.atUtc ?? '');
  return log.filter((entry, taken) => LEFT + ((Date.parse(entry.atUtc) - first + HEAD_START_MS) * PER_MINUTE) / 60_000 - taken < 1 - SLACK - 1e-9).map((entry) => `#${entry.id} at ${entry.atUtc}`);
}

/** The cells of `clients` at the page sizes `keep` lets through, as `it.each` rows. */
export function cellsOf(clients: Record<string, MatrixClient>, keep: (pageSize: PageSize) => boolean = () => true): [string, PageSize, MatrixClient][] {
  return Object.entries(clients).flatMap(([name, client]) => pageSizesOf(client).filter(keep).map((pageSize): [string, PageSize, MatrixClient] => [name, pageSize, client]));
}

/**
 * A test per cell of naive variants: each fails exactly its scenarios, one after another (each cell
 * runs six scenarios at once). Not side by side: three cells at once on two busy cores left some
 * scenarios unable to stage their timing ("not staged: the key's clock started … too late").
 */
export function describeNaiveCells(title: string, cells: readonly [string, PageSize, MatrixClient][]): void {
  describe(title, () => {
    it.each(cells)('%s at page size %i fails exactly its scenarios', async (_name, pageSize, client) => void (await expectCell(client, pageSize)), 300_000);
  });
}
