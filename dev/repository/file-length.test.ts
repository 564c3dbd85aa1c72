import { afterAll, describe, expect, it } from 'vitest';
import { fileTree, removeFileTrees } from '../testing/file-tree.ts';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { isGenerated, lineCount, longFiles, MAX_LINES } from './file-length.ts';
import { sourceFiles } from './source-files.ts';

afterAll(removeFileTrees);

describe('source file length', () => {
  it(`finds no hand-written source file over ${MAX_LINES} lines`, () => {
    const long = longFiles(PACKAGE_ROOT).map(({ path, lines }) => `${path}: ${lines} lines`);
    expect(long, `split each file past ${MAX_LINES} lines (STYLE.md: "split past ~400")`).toEqual([]);
  });

  it('excepts exactly the files whose first line says a generator wrote them', () => {
    const generated = sourceFiles(PACKAGE_ROOT).filter(isGenerated).map((file) => file.path);
    expect(generated).toContain('spec/openapi-types.ts');
    // Every excepted file names the generator command that rewrites it: no hand-written file hides behind the header.
    for (const file of sourceFiles(PACKAGE_ROOT).filter(isGenerated)) expect(file.text.split('\n')[0], file.path).toMatch(/by `npm run [a-z:-]+`/);
  });

  it('counts lines as an editor does, and holds a long file that does not say it is generated', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\nb\n')]).toEqual([0, 1, 1, 2, 2]);
    const body = 'export const x = 1;\n'.repeat(MAX_LINES);
    const root = fileTree({
      'server/exact.ts': body,
      'server/long.ts': `${body}export const y = 2;\n`,
      'server/made.ts': `// Generated from spec/x.yaml by \`npm run gen:types\`. Do not edit by hand.\n${body}`,
      'server/claims.ts': `// This file is not generated; do edit it.\n${body}`,
    });
    expect(longFiles(root)).toEqual([
      { path: 'server/claims.ts', lines: MAX_LINES + 1 },
      { path: 'server/long.ts', lines: MAX_LINES + 1 },
    ]);
  });
});
