import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sectionsOf } from '../dev/scripts/check-seeds.ts';
import { citationOf, operations, requirements } from './load.ts';

const decisionsText = readFileSync(new URL('./DECISIONS.md', import.meta.url), 'utf8');
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const entries = [...requirements.values()];

describe('spec/requirements.yaml', () => {
  it('lists every decision of spec/DECISIONS.md, in order, at level DECISION under its own heading', () => {
    const headings = [...decisionsText.matchAll(/^#{2,3} (D\d+ — .+)$/gm)].map((match) => match[1]);
    const decisions = entries.filter((entry) => entry.level === 'DECISION');
    expect(decisions.map((entry) => entry.section)).toEqual(headings);
    for (const entry of decisions) expect(entry.section.startsWith(`${entry.id} — `), entry.id).toBe(true);
  });

  it('quotes each decision word for word from its section', () => {
    const sections = sectionsOf(decisionsText);
    for (const entry of entries.filter((candidate) => candidate.document === 'DECISIONS.md')) {
      expect(collapse(sections.get(entry.section) ?? ''), entry.id).toContain(collapse(entry.quote));
    }
  });

  it('names only operations of spec/openapi.yaml, and no seed statement twice under one id', () => {
    for (const entry of entries) for (const operation of entry.operations) expect(operations.has(operation), `${entry.id}: ${operation}`).toBe(true);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
  });

  it('gives every untestable statement its reason and every SHOULD the sentence it follows from', () => {
    for (const entry of entries) {
      if (entry.testable === false) expect(entry.reason, entry.id).toBeTruthy();
      if (entry.level === 'SHOULD') expect(entry.because, entry.id).toBeTruthy();
    }
  });

  it('cites a seed section or spec/DECISIONS.md, never a file a user does not have', () => {
    for (const entry of entries) expect(citationOf(entry), entry.id).toMatch(/^(0[12]-[\w-]+\.md › .+|spec\/DECISIONS\.md D\d+ — .+)$/);
  });
});
