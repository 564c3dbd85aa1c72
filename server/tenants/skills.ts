/** Capability skills of a tenant (seed Limits; D32): trimmed, 1 to 64 characters, unique case-insensitively, at most 100. */
import { refuse } from '../domain/refusal.ts';

/** At most this many skills per tenant. */
export const MAX_SKILLS = 100;
/** A skill is at most this long once trimmed. */
export const MAX_SKILL_LENGTH = 64;

// requirement: int.limits.skills
// requirement: D32
/** The skills as stored: each trimmed, in the order given; refuses a blank, long or repeated skill, or too many. */
export function normalizeSkills(skills: readonly string[]): string[] {
  if (skills.length > MAX_SKILLS) refuse('tenants.skills.too_many', `At most ${MAX_SKILLS} capability skills; got ${skills.length}.`, 'skills', null);
  const seen = new Map<string, number>();
  return skills.map((raw, i) => {
    const skill = raw.trim();
    if (skill.length === 0 || [...skill].length > MAX_SKILL_LENGTH) {
      refuse('tenants.skills.value.invalid', `Skill ${i} must be 1 to ${MAX_SKILL_LENGTH} characters once trimmed.`, `skills[${i}]`, raw);
    }
    const key = skill.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) refuse('tenants.skills.duplicate', `Skill ${i} repeats skill ${first} (case-insensitively).`, `skills[${i}]`, raw);
    seen.set(key, i);
    return skill;
  });
}
