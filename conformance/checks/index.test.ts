import { describe, expect, it } from 'vitest';
import { parseRequirement } from '../requirements.ts';
import { checks } from './index.ts';

describe('the check registry', () => {
  it('holds unique ids, each `<family>.<name>`', () => {
    const ids = checks.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of checks) expect(check.id.startsWith(`${check.family}.`), check.id).toBe(true);
  });

  it('gives every check a level, a title, a quoted rule with its source, and requirements the runner knows', () => {
    for (const check of checks) {
      expect(['MUST', 'SHOULD', 'DECISION'], check.id).toContain(check.level);
      expect(check.title.length, check.id).toBeGreaterThan(0);
      expect(check.rule, check.id).toMatch(/^\d\d-[\w-]+\.md › .*"/);
      for (const requirement of check.requires) expect(() => parseRequirement(requirement), `${check.id}: ${requirement}`).not.toThrow();
    }
  });

  it('runs the run-level checks after all others', () => {
    expect(checks.filter((check) => check.after === 'all').map((check) => check.id)).toEqual(['discovery.responses.schema', 'problems.catalog']);
  });
});
