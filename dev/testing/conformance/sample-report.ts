/**
 * Test support: a fixed RunReport with every outcome, a hostile finding, all 218 codes and the
 * whole register (one quote and one reason made hostile), for reporter tests.
 */
import { integrationRequirements } from '../../../conformance/contract/contract.ts';
import { catalogCoverage } from '../../../conformance/engine/coverage.ts';
import { citation, requirementResults } from '../../../conformance/engine/verifies.ts';
import type { RequirementInfo } from '../../../conformance/engine/types/contract.ts';
import type { ExchangeRecord } from '../../../conformance/engine/types/exchange.ts';
import type { CheckResult, RunReport } from '../../../conformance/engine/types/report.ts';

const exchange: ExchangeRecord = {
  id: 3,
  checkId: 'discovery.whoami.scopes',
  channel: 'api',
  operationId: 'whoami',
  startedAt: '2026-11-22T01:40:00.100Z',
  durationMs: 4,
  request: { method: 'GET', url: 'http://127.0.0.1:4321/api/v1/integration/whoami', headers: { 'x-api-key': '<redacted:ordersRead>' }, body: null, bodyBytes: 0 },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
    body: '{"tenantId":"t","keyId":"k","scopes":["orders:read","trips:read"]}',
    bodyBytes: 66,
  },
  replay: `curl -i 'http://127.0.0.1:4321/api/v1/integration/whoami' -H 'x-api-key: '"$WAYBILL_KEY_ORDERS_READ"`,
};

/** Markup smuggled into the register's text: every reporter must keep it inert. */
export const hostileQuote = ' <script>alert(3)</script> & "quotes" ]]>';
export const hostileReason = " <img src=x onerror=alert(4)> it's";

/** The register with a hostile quote (on a requirement a failed check verifies) and a hostile reason (on one no exchange can test). */
function hostileRegister(): ReadonlyMap<string, RequirementInfo> {
  const register = new Map(integrationRequirements);
  const scopes = register.get('int.identity.scopes')!;
  register.set(scopes.id, { ...scopes, quote: scopes.quote + hostileQuote });
  const untestable = [...register.values()].find((requirement) => !requirement.testable)!;
  register.set(untestable.id, { ...untestable, reason: untestable.reason + hostileReason });
  return register;
}

const register = hostileRegister();

const base: Pick<CheckResult, 'verifies' | 'requires' | 'findings' | 'phase' | 'startedAt' | 'exchangeCount'> = {
  verifies: ['int.whoami.response'],
  requires: [],
  findings: [],
  phase: 'concurrent',
  startedAt: '2026-11-22T01:40:00.000Z',
  exchangeCount: 1,
};

const listed: Omit<CheckResult, 'rule'>[] = [
  { ...base, requires: ['key:full'], id: 'discovery.whoami.shape', family: 'discovery', title: 'whoami answers 200 with the key identity', level: 'MUST', outcome: 'pass', failsRun: false, durationMs: 12 },
  {
    ...base,
    id: 'discovery.whoami.scopes',
    family: 'discovery',
    title: "whoami reports the scopes each profile key's name implies",
    level: 'MUST',
    verifies: ['int.identity.scopes'],
    outcome: 'fail',
    failsRun: true,
    durationMs: 30,
    findings: [
      {
        message: 'the ordersRead key carries scopes its name excludes',
        expected: 'scopes without trips:read',
        received: '["orders:read","trips:read"]',
        fix: 'report in whoami exactly the scopes granted to the key (int.identity.scopes)',
        exchange,
      },
      { message: 'hostile <script>alert(1)</script> & "quotes" \u0001 ]]>', expected: '<b>bold</b>', received: "it's <img src=x onerror=alert(2)>", fix: 'escape <i>this</i> & "that" ]]> (int.identity.scopes)' },
    ],
  },
  { ...base, id: 'feeds.limit.cap', family: 'feeds', title: 'limit above 100 is capped', level: 'DECISION', verifies: ['D8'], outcome: 'fail', failsRun: false, durationMs: 8, findings: [{ message: 'limit 500 refused', expected: '200', received: '400', fix: 'cap a limit above 100 at 100 instead of refusing it (D8)' }] },
  { ...base, id: 'feeds.tail', family: 'feeds', title: 'a changed order reappears at the tail', level: 'SHOULD', verifies: ['int.orders-feed.follows-changes'], outcome: 'skip', failsRun: false, durationMs: 0, reason: 'profile has no sandbox', exchangeCount: 0 },
  { ...base, id: 'problems.catalog', family: 'problems', title: 'every failure is a catalog problem', level: 'MUST', verifies: ['int.errors.problem-json'], outcome: 'error', failsRun: false, durationMs: 2, phase: 'after-all', error: { message: 'boom', stack: 'Error: boom\n    at run (problems.ts:1:1)' } },
];

/** Each result with the rule its requirements give it, as `resolveCheck` derives it. */
const results: CheckResult[] = listed.map((result) => ({ ...result, rule: result.verifies.map((id) => citation(register.get(id)!)).join(' · ') }));

/** The sample report. */
export function sampleReport(): RunReport {
  const codes = catalogCoverage([], { keys: { full: 'x' } }).map((entry) => (entry.code === 'orders.notFound' ? { ...entry, state: 'exercised' as const, seen: 2 } : entry));
  return {
    reportVersion: 1,
    suite: { name: 'waybill-conformance', version: '0.1.0' },
    specHash: 'f'.repeat(64),
    target: 'http://127.0.0.1:4321',
    seed: 1234,
    options: { only: [], skip: [], level: 'all', strict: false, concurrency: 4, timeoutMs: 10000 },
    profile: { keys: ['full', 'ordersRead'], pools: { payable: 3 }, feeds: {}, sandbox: false, choices: ['tripFields.driver'] },
    startedAt: '2026-11-22T01:40:00.000Z',
    finishedAt: '2026-11-22T01:40:01.500Z',
    durationMs: 1500,
    counts: {
      checks: 5,
      byOutcome: { pass: 1, fail: 2, skip: 1, error: 1 },
      byLevel: {
        MUST: { pass: 1, fail: 1, skip: 0, error: 1 },
        SHOULD: { pass: 0, fail: 0, skip: 1, error: 0 },
        DECISION: { pass: 0, fail: 1, skip: 0, error: 0 },
      },
      failing: 1,
      warnings: 1,
    },
    exitCode: 1,
    verdict: { verdict: 'FAIL', reasons: ['discovery.whoami.scopes failed'] },
    results,
    coverage: {
      codes,
      counts: {
        exercised: codes.filter((entry) => entry.state === 'exercised').length,
        'expected-not-seen': codes.filter((entry) => entry.state === 'expected-not-seen').length,
        'not-reachable': codes.filter((entry) => entry.state === 'not-reachable').length,
      },
    },
    requirements: requirementResults(register, results),
    exchangeCount: 7,
  };
}
