import { describe, expect, it } from 'vitest';
import { Refusal } from '../domain/refusal.ts';
import { normalizeSkills } from './skills.ts';

const codeOf = (skills: string[]) => {
  try {
    normalizeSkills(skills);
    return null;
  } catch (error) {
    return error instanceof Refusal ? [error.code, error.field?.name] : error;
  }
};

describe('capability skills (D32)', () => {
  it('trims each skill and keeps the order', () => {
    expect(normalizeSkills(['  Cold chain ', 'Lift'])).toEqual(['Cold chain', 'Lift']);
    expect(normalizeSkills(Array.from({ length: 100 }, (_, i) => `s${i}`))).toHaveLength(100);
    expect(normalizeSkills([` ${'x'.repeat(64)} `])).toEqual(['x'.repeat(64)]);
  });

  it('refuses blank, long, repeated (case-insensitively) and too many skills', () => {
    expect(codeOf(['a', ' \t '])).toEqual(['tenants.skills.value.invalid', 'skills[1]']);
    expect(codeOf(['x'.repeat(65)])).toEqual(['tenants.skills.value.invalid', 'skills[0]']);
    expect(codeOf(['Lift', 'b', 'LIFT '])).toEqual(['tenants.skills.duplicate', 'skills[2]']);
    expect(codeOf(Array.from({ length: 101 }, (_, i) => `s${i}`))).toEqual(['tenants.skills.too_many', 'skills']);
  });
});
