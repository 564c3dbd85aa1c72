import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderAll } from './generate-types.ts';

describe('generated types', () => {
  it('are up to date with openapi.yaml, sandbox.yaml and errors.yaml (run `npm run gen:types` if this fails)', async () => {
    for (const [name, expected] of Object.entries(await renderAll())) {
      const checkedIn = readFileSync(new URL(`../../spec/${name}`, import.meta.url), 'utf8');
      expect(checkedIn, `spec/${name} is stale`).toBe(expected);
    }
  });
});
