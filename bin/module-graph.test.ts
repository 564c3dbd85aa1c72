/**
 * Each subcommand loads only what it needs: the static import graph of its entry module,
 * read from the sources (dynamic `import()`s are what the dispatcher defers, so they are
 * not followed). `waybill --help` loads neither the server nor the suite; the conformance
 * suite, the fixtures and the mock never load the server.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../spec/package-files.ts';

/** Every project file the entry reaches through static imports and re-exports (type-only ones excluded). */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/gm)) {
      visit(resolve(dirname(file), match[1]!));
    }
  };
  visit(resolve(PACKAGE_ROOT, entry));
  return [...seen].map((file) => relative(PACKAGE_ROOT, file)).sort();
}

describe('what each command loads', () => {
  it('waybill --help: the dispatcher alone, neither the server nor the suite', () => {
    const graph = staticGraph('bin/waybill.ts');
    expect(graph.filter((file) => file.startsWith('server/') || file.startsWith('conformance/') || file.startsWith('spec/load'))).toEqual([]);
    expect(graph.length).toBeLessThan(5);
  });

  it.each(['conformance/cli.ts', 'conformance/replay/cli.ts', 'fixtures/cli.ts', 'mock/cli.ts'])('%s never loads the server', (entry) => {
    const graph = staticGraph(entry);
    expect(graph.length).toBeGreaterThan(1);
    expect(graph.filter((file) => file.startsWith('server/'))).toEqual([]);
  });

  it('the graph walk follows imports, so a server import would be seen', () => {
    expect(staticGraph('server/start/serve.ts')).toContain('server/start/app.ts');
  });
});
