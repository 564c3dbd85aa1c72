import { describe, expect, it } from 'vitest';
import { idsNotSpelledOut } from '../../dev/testing/conformance/literal-ids.ts';
import { integrationRequirements } from '../contract/contract.ts';
import { parsePrecondition } from '../engine/preconditions.ts';
import { CheckDefinitionError, resolveCheck, resolveChecks } from '../engine/verifies.ts';
import { contractChecks } from './contract.ts';
import { fuzzCheck } from './fuzz.ts';
import { checks } from './index.ts';

describe('the check registry', () => {
  it('holds unique ids, each `<family>.<name>`', () => {
    const ids = checks.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of checks) expect(check.id.startsWith(`${check.family}.`), check.id).toBe(true);
  });

  it('spells every check id out as a literal in its source, so that grepping an id from a report finds its check', () => {
    const ids = [...checks, ...contractChecks, fuzzCheck(1)].map((check) => check.id);
    expect(ids.length).toBeGreaterThan(100);
    expect(idsNotSpelledOut(new URL('./', import.meta.url), ids)).toEqual([]);
    // The test can fail: an id built from a template is not found.
    expect(idsNotSpelledOut(new URL('./', import.meta.url), ['feeds.orders.cursor.malformed', 'feeds.orders.cursor'])).toEqual(['feeds.orders.cursor']);
  });

  it('gives every check a title, requirements of the register that fix its level, and preconditions the runner knows', () => {
    for (const check of resolveChecks(checks, integrationRequirements)) {
      expect(check.title.length, check.id).toBeGreaterThan(0);
      expect(['MUST', 'SHOULD', 'DECISION'], check.id).toContain(check.level);
      for (const precondition of check.requires) expect(() => parsePrecondition(precondition), `${check.id}: ${precondition}`).not.toThrow();
    }
  });

  it('cites only documents a user of the package has: a seed section or spec/DECISIONS.md', () => {
    for (const check of resolveChecks(checks, integrationRequirements)) {
      for (const part of check.rule.split(' · ')) expect(part, check.id).toMatch(/^(0[12]-[\w-]+\.md › [^:]+|spec\/DECISIONS\.md D\d+ — [^:]+): "/);
      expect(check.rule, check.id).not.toMatch(/DESIGN\.md/);
    }
  });

  it('covers every testable seed requirement with at least one check', () => {
    const verified = new Set(checks.flatMap((check) => check.verifies));
    const uncovered = [...integrationRequirements.values()].filter((requirement) => requirement.level !== 'DECISION' && requirement.testable && !verified.has(requirement.id)).map((requirement) => requirement.id);
    expect(uncovered).toEqual([]);
  });

  it('runs the run-level checks after all others', () => {
    expect(checks.filter((check) => check.after === 'all').map((check) => check.id)).toEqual(['discovery.responses.contract', 'discovery.responses.decided', 'discovery.timestamps', 'problems.catalog', 'problems.blank', 'feeds.orders.walks.tenant', 'feeds.orders.walks.archived', 'feeds.trips.walks.tenant']);
  });
});

describe('resolving a check against the register', () => {
  const base = checks[0]!;

  it.each([
    ['verifies nothing', [], /verifies no requirement/],
    ['names an id the register lacks', ['int.no-such-rule'], /does not hold/],
    ['verifies a statement no exchange can test', ['int.status.unknown-not-final'], /not testable/],
    ['mixes a seed statement with a decision', ['int.payment.amount', 'D28'], /mixes seed statements with decisions/],
  ])('refuses a check that %s', (_, verifies, message) => {
    expect(() => resolveCheck({ ...base, verifies }, integrationRequirements)).toThrow(CheckDefinitionError);
    expect(() => resolveCheck({ ...base, verifies }, integrationRequirements)).toThrow(message);
  });

  it('takes the strictest level of its requirements and cites each of them', () => {
    const resolved = resolveCheck({ ...base, verifies: ['int.auth.revoked', 'int.auth.unauthenticated'], fix: 'answer 401 (int.auth.unauthenticated)' }, integrationRequirements);
    expect(resolved.level).toBe('MUST');
    expect(resolved.rule).toBe('01-integration-api.md › Authentication: "A key can be revoked; revoking an already revoked key is a conflict." · 01-integration-api.md › Authentication: "Missing or invalid credentials: 401."');
    expect(resolveCheck({ ...base, verifies: ['int.auth.revoked'], fix: 'answer 401 (int.auth.revoked)' }, integrationRequirements).level).toBe('SHOULD');
    expect(resolveCheck({ ...base, verifies: ['D4'], fix: 'include since (D4)' }, integrationRequirements).level).toBe('DECISION');
  });
});
