import { describe, expect, it } from 'vitest';
import { integrationRequirements } from '../contract/contract.ts';
import { sampleReport } from '../../dev/testing/conformance/sample-report.ts';
import { consoleReporter, requirementsLine, useColour } from './console.ts';

/** A console reporter writing to a string: the reporter, and what it has printed so far. */
function capturing(isTTY: boolean, env: NodeJS.ProcessEnv) {
  let out = '';
  const stream = { isTTY, write: (text: string) => ((out += text), true) } as unknown as NodeJS.WritableStream & { isTTY: boolean };
  return { reporter: consoleReporter({ outDir: '.', stream, env }), printed: () => out };
}

/** Runs the console reporter over the sample report; returns what it printed. */
async function print(isTTY: boolean, env: NodeJS.ProcessEnv): Promise<string> {
  const { reporter, printed } = capturing(isTTY, env);
  const report = sampleReport();
  reporter.onStart?.({ target: report.target, suiteVersion: '0.1.0', specHash: report.specHash, seed: report.seed, checkCount: 5, startedAt: report.startedAt });
  for (const result of report.results) reporter.onResult?.(result);
  await reporter.onEnd(report);
  return printed();
}

const ansi = /\u001b\[/;

describe('console reporter', () => {
  it('prints a line per check, the family table, the coverage and each failure, without colour off a TTY', async () => {
    const out = await print(false, {});
    expect(out).not.toMatch(ansi);
    expect(out).toContain('  ✓ discovery.whoami.shape (12 ms)');
    expect(out).toContain('  ✗ discovery.whoami.scopes (30 ms) — 2 findings');
    expect(out).toContain('  ✗ feeds.limit.cap (8 ms) — 1 finding (warning: DECISION, not counted without --strict)');
    expect(out).toContain('  – feeds.tail (0 ms) — profile has no sandbox');
    expect(out).toContain('  ! problems.catalog (2 ms) — boom');
    // The DECISION failure without --strict is a warning, counted apart from the failures.
    expect(out).toMatch(/family\s+pass\s+fail\s+warn\s+skip\s+error\n\s+discovery\s+1\s+1\s+0\s+0\s+0\n\s+feeds\s+0\s+0\s+1\s+1\s+0\n\s+problems\s+0\s+0\s+0\s+0\s+1\n\s+total\s+1\s+1\s+1\s+1\s+1\n/);
    expect(out).toContain('catalog coverage (218 codes): 1 exercised,');
    // The register's testable decisions, counted from it: the count moves as decisions are added.
    const decisions = [...integrationRequirements.values()].filter((requirement) => requirement.level === 'DECISION' && requirement.testable).length;
    expect(out).toContain(`\n  requirements: seed 3/112 covered, 1 passed, 1 failed · decisions 1/${decisions} covered, 0 passed, 1 failed\n`);
    expect(out).toContain('     Expected: scopes without trips:read');
    expect(out).toContain('     Received: ["orders:read","trips:read"]');
    expect(out).toContain('     Fix:      report in whoami exactly the scopes granted to the key (int.identity.scopes)');
    expect(out).toContain(`     Replay:   curl -i 'http://127.0.0.1:4321/api/v1/integration/whoami' -H 'x-api-key: '"$WAYBILL_KEY_ORDERS_READ"`);
    expect(out).toContain('FAIL — 1 check failed (exit 1');
  });

  it('says a wait when it begins, with the check, the seconds and why, between the lines of finished checks', () => {
    const { reporter, printed } = capturing(false, {});
    reporter.onWait?.({ checkId: 'ratelimit.exceeded', ms: 36_500, why: "for the rateLimited key's quota to be whole again (RateLimit-Remaining: 2 of 5)" });
    expect(printed()).toBe("  … ratelimit.exceeded waits 36.5 s: for the rateLimited key's quota to be whole again (RateLimit-Remaining: 2 of 5)\n");
  });

  it('puts requirement coverage on one line, seed statements first', () => {
    const counts = { seed: { total: 119, testable: 98, covered: 96, passed: 95, failed: 1 }, decision: { total: 46, testable: 42, covered: 40, passed: 40, failed: 0 } };
    expect(requirementsLine(counts)).toBe('  requirements: seed 96/98 covered, 95 passed, 1 failed · decisions 40/42 covered, 40 passed, 0 failed');
    expect(requirementsLine(counts)).not.toContain('\n');
  });

  it('colours a TTY unless NO_COLOR is set', async () => {
    expect(await print(true, {})).toMatch(ansi);
    expect(await print(true, { NO_COLOR: '1' })).not.toMatch(ansi);
    expect(useColour({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(useColour({}, {})).toBe(false);
  });
});
