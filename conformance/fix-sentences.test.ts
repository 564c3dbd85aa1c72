/**
 * Every server check and every client-check scenario says how to fix a failure of it: one
 * sentence of what a correct server or client does instead, ending with the ids it cites, each a
 * requirement it verifies (its quote in the register is what the sentence answers to).
 */
import { describe, expect, it } from 'vitest';
import { integrationRequirements } from './contract/contract.ts';
import { checks } from './checks/index.ts';
import { contractChecks } from './checks/contract.ts';
import { fuzzCheck } from './checks/fuzz.ts';
import { clientRequirements } from './client-check/register.ts';
import { scenarioCheck } from './client-check/scenario.ts';
import { scenarios } from './client-check/scenarios/index.ts';
import { CheckDefinitionError, citedIds, fixProblem, resolveCheck } from './engine/verifies.ts';
import type { Check } from './engine/types/check.ts';
import type { RequirementInfo } from './engine/types/contract.ts';

const serverChecks: Check[] = [...checks, ...contractChecks, fuzzCheck(1)];
const clientChecks: Check[] = scenarios.map((scenario) => scenarioCheck(scenario, { command: 'node', args: [], timeoutMs: 1 }));

/** Rows of `it.each`: each check with the register it is graded against. */
const rows = (list: readonly Check[], register: ReadonlyMap<string, RequirementInfo>) => list.map((check): [string, Check, ReadonlyMap<string, RequirementInfo>] => [check.id, check, register]);

describe('the fix sentence of every check and scenario', () => {
  it('is there for each of them: the whole suite and every scenario are enumerated', () => {
    expect(serverChecks.length).toBeGreaterThan(150);
    expect(clientChecks.length).toBe(scenarios.length);
    expect(clientChecks.length).toBeGreaterThan(20);
  });

  it.each([...rows(serverChecks, integrationRequirements), ...rows(clientChecks, clientRequirements)])('%s says what to do instead, citing what it verifies', (_id, check, register) => {
    expect(fixProblem(check.fix, check.verifies)).toBeNull();
    // It reads after "Fix:": an instruction, lower case, one sentence, not the rule quoted back.
    expect(check.fix).toMatch(/^[a-z]/);
    expect(check.fix).not.toMatch(/\w\.\s+[A-Z]/);
    expect(check.fix.length).toBeGreaterThan(30);
    for (const id of citedIds(check.fix)) expect(register.get(id)?.quote, `${check.id} cites ${id}`).toEqual(expect.any(String));
  });

  it('is held to that when a check is resolved: none, one that cites nothing, or one citing another rule, is refused', () => {
    const base = checks.find((check) => check.id === 'idempotency.replay')!;
    for (const fix of [undefined, '', 'keep one Idempotency-Key for every attempt', 'keep one Idempotency-Key for every attempt (D14)', 'keep one Idempotency-Key (D13) for every attempt']) {
      expect(() => resolveCheck({ ...base, fix } as unknown as Check, integrationRequirements), String(fix)).toThrow(CheckDefinitionError);
    }
    expect(resolveCheck({ ...base, fix: 'keep one Idempotency-Key for every attempt (D13)' }, integrationRequirements).fix).toBe('keep one Idempotency-Key for every attempt (D13)');
  });

  it('cites the ids in the parentheses it ends with, whatever parentheses come before', () => {
    expect(citedIds('order the feed by (updatedAtUtc, id) (D7)')).toEqual(['D7']);
    expect(citedIds('serve it (int.service.tenant-only, int.auth.one-tenant)')).toEqual(['int.service.tenant-only', 'int.auth.one-tenant']);
    expect(citedIds('serve it (D7) now')).toEqual([]);
    expect(fixProblem('serve it (D7, D8)', ['D7'])).toMatch(/citing D8, which it does not verify/);
  });
});
