/** The verdict of a run (D55): never PASS over what was not graded, in every reporter's words. */
import { describe, expect, it } from 'vitest';
import { sampleReport } from '../../dev/testing/conformance/sample-report.ts';
import type { CheckResult, RunReport } from './types/report.ts';
import { runVerdict, verdictOf, verdictText } from './verdict.ts';

type Result = Pick<CheckResult, 'id' | 'family' | 'outcome' | 'failsRun' | 'reason' | 'error'>;
const pass = (id: string, family = id.split('.')[0] as string): Result => ({ id, family, outcome: 'pass', failsRun: false });
const skip = (id: string, reason: string, family = id.split('.')[0] as string): Result => ({ id, family, outcome: 'skip', failsRun: false, reason });
const broke = (id: string): Result => ({ id, family: id.split('.')[0] as string, outcome: 'error', failsRun: false, error: { message: 'not staged: no OnHold order' } });
const failed = (id: string): Result => ({ id, family: id.split('.')[0] as string, outcome: 'fail', failsRun: true });

describe('the verdict of a client-check', () => {
  it('is INCOMPLETE (exit 2) when a scenario was skipped or ended in error, naming each', () => {
    expect(runVerdict('waybill-client-check', [pass('client.pay.a'), skip('client.sync.b', 'a page too big')])).toEqual({ verdict: 'INCOMPLETE', reasons: ['client.sync.b was skipped: a page too big'], exitCode: 2 });
    expect(runVerdict('waybill-client-check', [pass('client.pay.a'), broke('client.sync.c')])).toEqual({ verdict: 'INCOMPLETE', reasons: ['client.sync.c ended in error: not staged: no OnHold order'], exitCode: 2 });
  });

  it('is FAIL (exit 1) when a scenario failed, whatever else; PASS only when every scenario passed', () => {
    expect(runVerdict('waybill-client-check', [failed('client.pay.a'), skip('client.sync.b', 'x')])).toMatchObject({ verdict: 'FAIL', exitCode: 1 });
    expect(runVerdict('waybill-client-check', [pass('client.pay.a'), pass('client.sync.b')])).toEqual({ verdict: 'PASS', reasons: [], exitCode: 0 });
  });
});

describe('the verdict of a conformance run outside --certify', () => {
  it('is PARTIAL (exit 0) when every check of a family was skipped, and names the family', () => {
    const verdict = runVerdict('waybill-conformance', [pass('feeds.a'), skip('ratelimit.a', 'needs profile key rateLimited'), skip('ratelimit.b', 'needs profile key rateLimited')]);
    expect(verdict).toEqual({ verdict: 'PARTIAL', reasons: ['nothing of ratelimit was graded: ratelimit.a was skipped: needs profile key rateLimited'], exitCode: 0 });
  });

  it('is PASS (exit 0) when skips leave every family with a graded check, INCOMPLETE (exit 2) when nothing or a check broke', () => {
    expect(runVerdict('waybill-conformance', [pass('feeds.a'), skip('feeds.b', 'no sandbox')])).toMatchObject({ verdict: 'PASS', exitCode: 0 });
    expect(runVerdict('waybill-conformance', [skip('feeds.b', 'no sandbox')])).toMatchObject({ verdict: 'INCOMPLETE', exitCode: 2 });
    expect(runVerdict('waybill-conformance', [pass('feeds.a'), broke('feeds.c')])).toMatchObject({ verdict: 'INCOMPLETE', exitCode: 2 });
  });
});

describe('the verdict in words', () => {
  const reportOf = (suite: RunReport['suite']['name'], results: Result[]): RunReport => {
    const full = results.map((result) => ({ ...sampleReport().results[0]!, ...result }));
    const byOutcome = { pass: 0, fail: 0, skip: 0, error: 0 };
    for (const result of full) byOutcome[result.outcome as keyof typeof byOutcome] += 1;
    const { exitCode, ...verdict } = runVerdict(suite, full);
    return { ...sampleReport(), suite: { name: suite, version: '0.1.0' }, results: full, counts: { ...sampleReport().counts, byOutcome, failing: byOutcome.fail, warnings: 0 }, exitCode, verdict };
  };

  it('never says PASS over a family that graded nothing, or a client-check scenario that was not graded', () => {
    const partial = verdictText(reportOf('waybill-conformance', [pass('feeds.a'), skip('ratelimit.a', 'needs profile key rateLimited')]));
    expect(partial).toBe('PARTIAL — no failure among the 1 graded, but nothing of ratelimit was graded: ratelimit.a was skipped: needs profile key rateLimited');
    const incomplete = verdictText(reportOf('waybill-client-check', [pass('client.pay.a'), skip('client.sync.b', 'x'), broke('client.sync.c')]));
    expect(incomplete).toBe('INCOMPLETE — 2 scenarios not graded: client.sync.c ended in error: not staged: no OnHold order; client.sync.b was skipped: x');
    for (const text of [partial, incomplete]) expect(text).not.toMatch(/PASS/);
    expect(verdictText(reportOf('waybill-conformance', [pass('feeds.a'), skip('feeds.b', 'no sandbox')]))).toBe('PASS — no failure that counts; 1 check skipped');
  });

  it("follows a certification's certificate when there is one (D49)", () => {
    const certified: RunReport = { ...reportOf('waybill-conformance', [pass('feeds.a'), skip('feeds.b', 'no sandbox')]), certificate: { product: { vendor: 'v', product: 'p', version: '1', contact: 'c' }, suiteVersion: '0.1.0', specHashes: {}, verdict: 'INCOMPLETE', incomplete: ['feeds.b was skipped: no sandbox'], signature: null } };
    expect(verdictOf(certified)).toEqual({ verdict: 'INCOMPLETE', reasons: ['feeds.b was skipped: no sandbox'], exitCode: 2 });
    expect(verdictText(certified)).toBe('INCOMPLETE — feeds.b was skipped: no sandbox');
  });
});
