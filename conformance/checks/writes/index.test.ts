/** The writes family against the reference: every check passes, and those without their pool skip. */
import { afterEach, describe, expect, it } from 'vitest';
import { runChecks } from '../../../dev/testing/conformance/reference.ts';
import { closeOpened, reference } from '../../../dev/testing/conformance/writes-targets.ts';
import { writesChecks } from './index.ts';

afterEach(closeOpened);

describe('writes checks against the reference', () => {
  it('pass, every one', async () => {
    const target = await reference();
    const { report } = await runChecks(writesChecks, target.profile);
    expect(report.results.map((result) => [result.id, result.outcome, result.reason ?? result.findings[0]?.message])).toEqual(writesChecks.map((check) => [check.id, 'pass', undefined]));
  });

  it('skip the checks whose pool is missing', async () => {
    const target = await reference();
    const { byId } = await runChecks(writesChecks, { ...target.profile, orders: {} });
    expect([...byId.values()].filter((result) => result.outcome !== 'skip').map((result) => result.id)).toEqual(['writes.notFound', 'writes.cancel.notFound']);
    expect(byId.get('writes.cancel.illegal')?.reason).toBe('profile has no orders.notCancellable');
  });
});
