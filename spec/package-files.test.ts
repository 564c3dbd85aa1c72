import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openapi, parseDocument } from './load.ts';
import { PACKAGE_ROOT, PACKAGE_VERSION, packageFile } from './package-files.ts';

describe('the package files', () => {
  it('are found from the package root, the folder of package.json', () => {
    expect(existsSync(packageFile('spec/openapi.yaml'))).toBe(true);
    expect(PACKAGE_VERSION).toBe((JSON.parse(readFileSync(`${PACKAGE_ROOT}/package.json`, 'utf8')) as { version: string }).version);
  });
});

describe('the document cache of the build', () => {
  const text = 'openapi: 3.1.0\ninfo: { title: t, version: "1" }\n';
  const sha256 = createHash('sha256').update(text).digest('hex');

  it('serves the cached value for the very text it was made from', () => {
    const parsed = parseDocument(text, { sha256, value: { cached: true } });
    expect(parsed).toEqual({ sha256, value: { cached: true }, fromCache: true });
  });

  it('parses the text again when it changed since the build, so an old contract is never served', () => {
    const parsed = parseDocument(text, { sha256: 'f'.repeat(64), value: { cached: true } });
    expect(parsed).toEqual({ sha256, value: { openapi: '3.1.0', info: { title: 't', version: '1' } }, fromCache: false });
  });

  // `npm test` builds before it runs the tests, so the cache is there and current.
  it('holds, after `npm run build`, exactly what a fresh parse of each document gives', () => {
    const file = packageFile('dist/spec/documents.json');
    expect(existsSync(file), 'no dist/spec/documents.json: run `npm run build`').toBe(true);
    const cache = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { sha256: string; value: unknown }>;
    expect(Object.keys(cache).sort()).toEqual(['errors.yaml', 'openapi.yaml', 'requirements.yaml', 'sandbox.yaml']);
    for (const [name, entry] of Object.entries(cache)) {
      const fresh = parseDocument(readFileSync(packageFile(`spec/${name}`), 'utf8'), undefined);
      expect(entry.sha256, `dist/spec/documents.json is older than spec/${name}: run \`npm run build\``).toBe(fresh.sha256);
      expect(entry.value).toEqual(fresh.value);
    }
    expect(cache['openapi.yaml']!.value).toEqual(openapi);
  });
});
