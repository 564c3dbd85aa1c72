/** A client that does nothing fails every scenario, each with a finding: no scenario passes a client by default. */
import { describe, expect, it } from 'vitest';
import { scenarios } from './scenarios/index.ts';
import { checkClient, notPassed } from '../../dev/testing/client-check/check-client.ts';

describe('a client that does nothing', () => {
  it('fails every scenario, each with a finding', async () => {
    const { report } = await checkClient(['-e', '0']);
    expect(notPassed(report)).toEqual(scenarios.map((scenario) => scenario.id).sort());
    for (const result of report.results) expect(result.findings.length).toBeGreaterThan(0);
    expect(report.exitCode).toBe(1);
  }, 90_000);
});
