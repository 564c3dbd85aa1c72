/**
 * The example client passes every scenario; the report is a conformance report of the tool
 * `waybill-client-check`, and a finding would carry the client's requests.
 */
import { describe, expect, it } from 'vitest';
import { scenarios } from './scenarios/index.ts';
import { checkClient, EXAMPLE_CLIENT, notPassed } from './testing.ts';

describe('the example client', () => {
  it('passes every scenario, graded from the request log', async () => {
    const { report } = await checkClient([EXAMPLE_CLIENT]);
    expect(notPassed(report)).toEqual([]);
    expect(report.results.map((result) => result.id).sort()).toEqual(scenarios.map((scenario) => scenario.id).sort());
    expect(report.suite.name).toBe('waybill-client-check');
    expect(report.exitCode).toBe(0);
    expect(report.profile).toEqual({ keys: [], pools: {}, feeds: {}, sandbox: true, choices: [] });
    // Each scenario made its tenant and read the log through the control plane, recorded and redacted.
    expect(report.exchangeCount).toBeGreaterThan(scenarios.length * 3);
    expect(JSON.stringify(report)).not.toMatch(/wbk_[A-Za-z0-9]{6}|wba_[A-Za-z0-9]{6}/);
  }, 90_000);

  it('a client that does nothing fails every scenario, each with a finding', async () => {
    const { report } = await checkClient(['-e', '0']);
    expect(notPassed(report)).toEqual(scenarios.map((scenario) => scenario.id).sort());
    for (const result of report.results) expect(result.findings.length).toBeGreaterThan(0);
    expect(report.exitCode).toBe(1);
  }, 90_000);
});
