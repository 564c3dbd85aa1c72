import { afterEach, describe, expect, it } from 'vitest';
import { provisionReference, type ReferenceTarget, runChecks } from '../../../dev/testing/conformance/reference.ts';
import { type AnswerRewrite, type ProxyRewrite, type RunningProxy, startProxy } from '../../../dev/testing/conformance/proxy.ts';
import { resolveChecks } from '../../engine/verifies.ts';
import { integrationRequirements } from '../../contract/contract.ts';
import { acceptanceChecks } from './index.ts';

let reference: ReferenceTarget | undefined;
let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await reference?.close();
  [proxy, reference] = [undefined, undefined];
});

/** Runs the family against the reference, behind `rewrite` when given. */
async function run(rewrite?: AnswerRewrite | ProxyRewrite) {
  reference = await provisionReference();
  if (rewrite !== undefined) proxy = await startProxy(reference.profile.target!, rewrite);
  const { byId } = await runChecks(acceptanceChecks, { ...reference.profile, target: proxy?.url ?? reference.profile.target! }, { seed: 3 });
  return byId;
}

describe('the acceptance checks', () => {
  it('take their levels from the register: a MUST, a SHOULD and a DECISION check of refusals, a MUST and a DECISION check of acceptance', () => {
    expect(resolveChecks(acceptanceChecks, integrationRequirements).map((check) => [check.id, check.level])).toEqual([
      ['acceptance.refused', 'MUST'],
      ['acceptance.refused.should', 'SHOULD'],
      ['acceptance.refused.decided', 'DECISION'],
      ['acceptance.accepted', 'MUST'],
      ['acceptance.accepted.decided', 'DECISION'],
    ]);
  });

  it('pass on the reference, none skipped', async () => {
    const byId = await run();
    expect([...byId.values()].map((result) => [result.id, result.outcome, result.findings ?? []])).toEqual(acceptanceChecks.map((check) => [check.id, 'pass', []]));
  });

  it('fail only the DECISION refusals when trip status near misses are served (D16), naming the parameter, the value and the decision', async () => {
    const byId = await run({
      request: (request) => (request.url.startsWith('/api/v1/integration/trips') ? { ...request, url: request.url.replace(/([?&]status=)[^&]*/g, '$1Confirmed') } : request),
    });
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['acceptance.refused.decided']);
    const findings = byId.get('acceptance.refused.decided')!.findings;
    expect(findings[0]!.message).toMatch(/^tripFeed query status: a near miss of Confirmed \(other case\), "confirmed", was accepted: GET \/api\/v1\/integration\/trips\?limit=1&status=confirmed → 200/);
    expect(findings[0]!.expected).toContain('D16 — Trip feed `status` values');
  });

  it('fail the MUST acceptance when a valid value is refused, quoting the seed sentence', async () => {
    // The trip feed's: the order feed's page of 100 is how the pools are read.
    const byId = await run((answer, request) => (request.url === '/api/v1/integration/trips?limit=100' ? { ...answer, status: 400 } : answer));
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['acceptance.accepted']);
    expect(byId.get('acceptance.accepted')!.findings.map((found) => [found.message.replace(/ \(exchange #\d+\)$/, ''), found.expected])).toEqual([
      ['tripFeed query limit: 100, "100", was refused: GET /api/v1/integration/trips?limit=100 → 400', 'not refused as invalid: 01-integration-api.md › Pull trips that changed: "Query parameters: `since` (date-time), `cursor` (string), `limit` (int32, default 50, capped at 100) and a repeatable `status`, with the same semantics as for orders." (int.trips-feed.params)'],
    ]);
  });

  it('skip, never pass or fail, when the answers cannot be graded (every trip feed read answered 429)', async () => {
    const byId = await run((answer, request) => (request.url.startsWith('/api/v1/integration/trips?') ? { ...answer, status: 429, headers: { ...answer.headers, 'retry-after': '1' } } : answer));
    expect(byId.get('acceptance.refused')).toMatchObject({ outcome: 'skip', reason: expect.stringMatching(/generated values could not be graded, each answered 429, 5xx or not at all twice/) });
  }, 60_000);
});
