import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fileTree, removeFileTrees } from '../dev/testing/file-tree.ts';
import { requirements } from './load.ts';
import { packageFile } from './package-files.ts';
import { implementerOf, MARKER_FILE, markerProblems, markersJson, requirementMarkers, scanMarkers } from './requirement-markers.ts';

afterAll(removeFileTrees);

describe('requirement markers', () => {
  it('mark every rule the sandbox implements, and name only such rules of the register, in the one form', () => {
    expect(markerProblems(requirements, scanMarkers())).toEqual([]);
  });

  it('leave out only the entries that say who implements them instead, each untestable over HTTP', () => {
    const others = [...requirements.values()].filter((entry) => implementerOf(entry) !== 'sandbox');
    expect(others.length).toBeGreaterThan(0);
    for (const entry of others) expect(entry.testable, entry.id).toBe(false);
    // Most of the register is the sandbox's: a default that silently flipped would show here.
    expect(requirements.size - others.length).toBeGreaterThan(others.length * 4);
  });

  it('fail on a rule the sandbox implements with no marker, a marker of an id the register lacks, and one of a rule it does not implement', () => {
    const register = new Map([
      ['int.a', { id: 'int.a' }],
      ['int.b', { id: 'int.b' }],
      ['D9', { id: 'D9', implementedBy: 'tools' as const }],
    ]);
    const root = fileTree({
      'server/feeds/page.ts': '/** A page. */\n// requirement: int.a\nexport const a = 1;\n// requirement: int.nope\n// requirement: D9\n',
    });
    expect(markerProblems(register, scanMarkers(root))).toEqual([
      "int.b: the sandbox implements it, and no code of it carries '// requirement: int.b'",
      'int.nope: no such requirement in spec/requirements.yaml (marked at server/feeds/page.ts:4)',
      'D9: implementedBy tools, yet marked in the sandbox at server/feeds/page.ts:5',
    ]);
  });

  it('read markers from the server and the console, not from tests, and name each comment that only looks like one', () => {
    const root = fileTree({
      'server/a.ts': '  // requirement: int.a\nconst x = 1; // requirement: int.a\n//requirement: int.a\n// requirement: int.a, int.b\n/**\n * requirement: int.a\n */\n',
      'server/a.test.ts': '// requirement: int.b\n',
      'console/src/view.tsx': '// requirement: int.b\n',
      'conformance/check.ts': '// requirement: int.c\n',
    });
    const scan = scanMarkers(root);
    expect(Object.fromEntries(scan.markers)).toEqual({ 'int.a': [{ file: 'server/a.ts', line: 1 }], 'int.b': [{ file: 'console/src/view.tsx', line: 1 }] });
    expect(scan.malformed.map((site) => site.line)).toEqual([2, 3, 4, 6]);
  });

  it('are what the build wrote beside the compiled code, so the installed package serves the same files', () => {
    expect(existsSync(MARKER_FILE), 'no dist/spec/requirement-markers.json: run `npm run build`').toBe(true);
    expect(JSON.parse(readFileSync(MARKER_FILE, 'utf8')), 'dist/spec/requirement-markers.json is older than the sources: run `npm run build`').toEqual(JSON.parse(markersJson(scanMarkers().markers)));
    for (const [id, sites] of requirementMarkers()) {
      for (const site of sites) expect(readFileSync(packageFile(site.file), 'utf8').split('\n')[site.line - 1]?.trim(), `${site.file}:${site.line}`).toBe(`// requirement: ${id}`);
    }
  });
});
