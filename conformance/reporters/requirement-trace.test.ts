import { describe, expect, it } from 'vitest';
import { requirements } from '../../spec/load.ts';
import { implementerOf, requirementMarkers } from '../../spec/requirement-markers.ts';
import { checks } from '../checks/index.ts';
import { scenarios } from '../client-check/scenarios/index.ts';
import { requirementTrace } from './requirement-trace.ts';

const trace = requirementTrace();
const byId = new Map(trace.map((entry) => [entry.id, entry]));

describe('the requirement trace', () => {
  it('lists every entry of the register once, in register order, with its level, quote and who implements it', () => {
    expect(trace.map((entry) => entry.id)).toEqual([...requirements.keys()]);
    for (const entry of requirements.values()) {
      expect(byId.get(entry.id)).toMatchObject({ level: entry.level, quote: entry.quote, testable: entry.testable !== false, implementedBy: implementerOf(entry) });
    }
  });

  it('names every check and scenario under each requirement it verifies, and every testable requirement has one', () => {
    for (const check of checks) for (const id of check.verifies) expect(byId.get(id)?.checks, `${check.id} verifies ${id}`).toContain(check.id);
    for (const scenario of scenarios) {
      for (const id of scenario.verifies.filter((verified) => requirements.has(verified))) expect(byId.get(id)?.scenarios, `${scenario.id} verifies ${id}`).toContain(scenario.id);
    }
    expect(trace.filter((entry) => entry.testable && entry.checks.length === 0).map((entry) => entry.id)).toEqual([]);
    expect(byId.get('int.orders-feed.caught-up')!.scenarios.length).toBeGreaterThan(0);
  });

  it('takes the code of a rule from its markers alone: each file once, its lines in order; none for a rule the sandbox does not implement', () => {
    const traced = requirementTrace(new Map([['D6', [{ file: 'server/x.ts', line: 30 }, { file: 'server/a.ts', line: 9 }, { file: 'server/x.ts', line: 4 }]]]));
    expect(traced.find((entry) => entry.id === 'D6')!.code).toEqual([{ file: 'server/a.ts', lines: [9] }, { file: 'server/x.ts', lines: [4, 30] }]);
    expect(traced.filter((entry) => entry.id !== 'D6' && entry.code.length > 0)).toEqual([]);
    for (const entry of trace) {
      const marked = requirementMarkers().get(entry.id) ?? [];
      expect(entry.code.flatMap((place) => place.lines).length, entry.id).toBe(marked.length);
      if (entry.implementedBy === 'sandbox') expect(entry.code.length, entry.id).toBeGreaterThan(0);
      else expect(entry.code, entry.id).toEqual([]);
    }
  });
});
