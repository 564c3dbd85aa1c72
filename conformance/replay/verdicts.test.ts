import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../engine/types/report.ts';
import { replayedCheck, replayedLine, replayExitCode, summaryLine, verdictBook, verdictCounts } from './verdicts.ts';

/** A result of `id` ending `outcome`. */
function result(id: string, outcome: CheckResult['outcome'], extra: Partial<CheckResult> = {}): CheckResult {
  return { id, family: id.split('.')[0]!, title: `title of ${id}`, level: 'MUST', rule: 'a rule', verifies: [], requires: [], outcome, failsRun: outcome === 'fail', findings: [], phase: 'concurrent', startedAt: '2026-11-22T01:40:00.000Z', durationMs: 12, exchangeCount: 0, ...extra };
}

const finding = { message: 'still wrong', expected: '401', received: '200', fix: 'refuse a revoked key with 401 on every operation (int.auth.revoked)' };

describe('a replayed failure', () => {
  it('is FIXED when it passes, STILL FAILING when it fails again, NOT REPRODUCED when it is skipped, in error, or did not run', () => {
    const failed = result('auth.key.revoked', 'fail', { findings: [finding] });
    expect(replayedCheck(failed, result('auth.key.revoked', 'pass'), '')).toMatchObject({ verdict: 'FIXED', was: 'fail', now: 'pass', findings: [] });
    expect(replayedCheck(failed, result('auth.key.revoked', 'fail', { findings: [finding] }), '')).toMatchObject({ verdict: 'STILL FAILING', now: 'fail', findings: [finding] });
    expect(replayedCheck(failed, result('auth.key.revoked', 'skip', { reason: 'profile has no keys.revoked' }), '')).toMatchObject({ verdict: 'NOT REPRODUCED', reason: 'skipped: profile has no keys.revoked' });
    expect(replayedCheck(failed, result('auth.key.revoked', 'error', { error: { message: 'boom' } }), '')).toMatchObject({ verdict: 'NOT REPRODUCED', reason: 'ended in error: boom' });
    expect(replayedCheck(failed, undefined, 'no check auth.key.revoked in waybill 9.9.9')).toEqual(expect.objectContaining({ verdict: 'NOT REPRODUCED', reason: 'no check auth.key.revoked in waybill 9.9.9' }));
    expect(replayedCheck(result('x.y', 'waived'), result('x.y', 'pass'), '')).toMatchObject({ verdict: 'FIXED', was: 'waived' });
  });

  it('exits 0 only when every failure is FIXED; 1 when one still fails; 2 when one could not be graded; the signal when interrupted', () => {
    const fixed = replayedCheck(result('a.b', 'fail'), result('a.b', 'pass'), '');
    const still = replayedCheck(result('a.c', 'fail'), result('a.c', 'fail'), '');
    const not = replayedCheck(result('a.d', 'fail'), undefined, 'not run');
    expect(replayExitCode([fixed])).toBe(0);
    expect(replayExitCode([fixed, still, not])).toBe(1);
    expect(replayExitCode([fixed, not])).toBe(2);
    expect(replayExitCode([fixed], 'SIGINT')).toBe(130);
    expect(verdictCounts([fixed, still, not, not])).toEqual({ FIXED: 1, 'STILL FAILING': 1, 'NOT REPRODUCED': 2 });
    expect(summaryLine({ counts: verdictCounts([fixed, not]), exitCode: 2, durationMs: 4200 })).toBe('replay: 1 FIXED, 0 STILL FAILING, 1 NOT REPRODUCED (exit 2, 4.2 s)');
  });

  it('prints one line each, with the checks a run-level check was judged with', () => {
    expect(replayedLine(replayedCheck(result('a.b', 'fail'), result('a.b', 'pass'), ''))).toBe('  FIXED           a.b (12 ms)');
    expect(replayedLine(replayedCheck(result('p.c', 'fail'), result('p.c', 'fail', { findings: [finding, finding] }), '', ['x.y']))).toBe('  STILL FAILING   p.c (12 ms) — 2 findings (judged with 1 check whose requests it quoted)');
    expect(replayedLine(replayedCheck(result('a.d', 'fail'), undefined, 'not run'))).toBe('  NOT REPRODUCED  a.d — not run');
  });

  it("settles each failure once, in the report's order, and leaves the replay's other results out", () => {
    const told: string[] = [];
    const book = verdictBook([result('a.b', 'fail'), result('a.c', 'fail')], (check) => told.push(`${check.id} ${check.verdict}`));
    book.ran(result('a.c', 'pass'));
    book.ran(result('companion.z', 'fail'));
    book.ran(result('a.c', 'fail'));
    expect(book.close('not run').map((check) => `${check.id} ${check.verdict}`)).toEqual(['a.b NOT REPRODUCED', 'a.c FIXED']);
    expect(told).toEqual(['a.c FIXED', 'a.b NOT REPRODUCED']);
  });
});
