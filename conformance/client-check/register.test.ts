/** The client-check register quotes its sources verbatim, and every scenario resolves against it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { idsNotSpelledOut } from '../../dev/testing/conformance/literal-ids.ts';
import { requirementResults, resolveChecks } from '../engine/verifies.ts';
import { clientRequirements, decisionRules } from './register.ts';
import { scenarioCheck } from './scenario.ts';
import { scenarios } from './scenarios/index.ts';

const decisions = readFileSync(new URL('../../spec/DECISIONS.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe('the client-check register', () => {
  it.each(decisionRules.map((rule) => [rule.id, rule] as const))('%s is a sentence of spec/DECISIONS.md under its heading', (_id, rule) => {
    expect(decisions).toContain(rule.quote);
    const heading = rule.source.replace('spec/DECISIONS.md ', '');
    expect(decisions.indexOf(rule.quote)).toBeGreaterThan(decisions.indexOf(heading));
    expect(decisions.indexOf(heading)).toBeGreaterThan(-1);
  });

  it("counts its spec/DECISIONS.md sentences among the decisions, though most are held at SHOULD, and the seeds' statements apart", () => {
    const { counts, entries } = requirementResults(clientRequirements, []);
    expect(counts.decision.total).toBe(decisionRules.length);
    expect(counts.seed.total).toBe(clientRequirements.size - decisionRules.length);
    expect(counts.decision.total).toBeGreaterThan(0);
    // Seed statements first in the table, as in a conformance report.
    expect(entries.slice(-decisionRules.length).map((entry) => entry.id)).toEqual(decisionRules.map((rule) => rule.id));
  });

  it('every scenario verifies ids of the register, at MUST or SHOULD but the tolerant reader at DECISION, and every rule is graded by a scenario', () => {
    const checks = resolveChecks(scenarios.map((scenario) => scenarioCheck(scenario, { command: 'node', args: [], timeoutMs: 1 })), clientRequirements);
    for (const check of checks) {
      expect(check.id === 'client.sync.tolerant-reader' ? ['DECISION'] : ['MUST', 'SHOULD'], check.id).toContain(check.level);
      expect(check.rule).toMatch(/: ".+"/);
    }
    const graded = new Set(scenarios.flatMap((scenario) => scenario.verifies));
    expect([...clientRequirements.keys()].filter((id) => !graded.has(id))).toEqual([]);
  });

  it('scenario ids are unique and say their family', () => {
    const ids = scenarios.map((scenario) => scenario.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^client\.[a-z-]+\.[a-z0-9-]+$/);
  });

  it('spells every scenario id out as a literal in its source, so that grepping an id from a report finds its scenario', () => {
    expect(idsNotSpelledOut(new URL('./scenarios/', import.meta.url), scenarios.map((scenario) => scenario.id))).toEqual([]);
  });
});
