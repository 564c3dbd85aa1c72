/** docs/reference.md is what dev/scripts/write-reference.ts writes from the CLI's own --help, so no option reaches a user unlisted. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reference, REFERENCE_FILE } from './write-reference.ts';

describe('docs/reference.md', () => {
  it('is current: every command and option as --help prints it (npx tsx dev/scripts/write-reference.ts writes it)', () => {
    const written = readFileSync(REFERENCE_FILE, 'utf8');
    const current = reference();
    expect(written === current, 'docs/reference.md is not current: run npx tsx dev/scripts/write-reference.ts').toBe(true);
  }, 120_000);

  it('has a section for every command and every member of a group, each with its usage line', () => {
    const written = readFileSync(REFERENCE_FILE, 'utf8');
    for (const command of ['serve', 'mock', 'wait', 'conformance', 'client-check', 'profile env', 'profile refill', 'keys generate', 'verify', 'fixtures']) {
      expect(written).toContain(`## waybill ${command}\n\n\`\`\`text\nUsage: waybill ${command}`);
    }
  });
});
