import { afterAll, describe, expect, it } from 'vitest';
import { fileTree, removeFileTrees } from '../testing/file-tree.ts';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { describeCycle, importCycles } from './import-cycles.ts';
import { resolveImports, sourceFiles } from './source-files.ts';

/** A throwaway project: a tsconfig.json resolving as the repository's does, and the given files. */
function project(files: Record<string, string>): string {
  const compilerOptions = { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true };
  return fileTree({ 'tsconfig.json': JSON.stringify({ compilerOptions }), 'package.json': JSON.stringify({ type: 'module' }), ...files });
}
afterAll(removeFileTrees);

describe('import cycles', () => {
  it('finds none among the source files of the repository, type-only imports included', () => {
    const cycles = importCycles(PACKAGE_ROOT);
    expect(cycles.map(describeCycle), 'files that import each other round in a circle: cut one import of each').toEqual([]);
  });

  it('finds a circle closed by a type-only import, across folders', () => {
    const root = project({
      'server/a.ts': "import type { B } from '../conformance/b.ts';\nexport interface A { b: B }\n",
      'conformance/b.ts': "import { c } from './c.ts';\nexport type B = typeof c;\n",
      'conformance/c.ts': "export type { A } from '../server/a.ts';\nexport const c = 1;\n",
      'spec/d.ts': "import { c } from '../conformance/c.ts';\nexport const d = c;\n",
    });
    const cycles = importCycles(root);
    expect(cycles.map((cycle) => cycle.files)).toEqual([['conformance/b.ts', 'conformance/c.ts', 'server/a.ts']]);
    expect(cycles[0]!.imports).toHaveLength(3);
  });

  it('finds a circle closed by a dynamic import, and none in a tree without one', () => {
    expect(importCycles(project({ 'bin/a.ts': "export const a = () => import('./b.ts');\n", 'bin/b.ts': "import { a } from './a.ts';\nexport const b = a;\n" }))).toHaveLength(1);
    expect(importCycles(project({ 'bin/a.ts': "import { b } from './b.ts';\nexport const a = b;\n", 'bin/b.ts': 'export const b = 1;\n' }))).toEqual([]);
  });

  it('resolves every relative import of code in the repository, so no import escapes the search', () => {
    const files = sourceFiles(PACKAGE_ROOT);
    const { edges, unresolved } = resolveImports(PACKAGE_ROOT, files);
    expect(unresolved).toEqual([]);
    // Most files import another: a resolver that found next to nothing would pass the first test vacuously.
    expect(new Set(edges.map((edge) => edge.from)).size).toBeGreaterThan(files.length / 2);
  });
});
