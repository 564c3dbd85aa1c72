/** The benchmark runs the compiled server only when dist/ holds every source compiled and no older than it. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireFreshBuild, servedCode } from './served.ts';

let base: string;
const write = (path: string, secondsAgo: number) => {
  const file = join(base, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
  const at = Date.now() / 1000 - secondsAgo;
  utimesSync(file, at, at);
};

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'waybill-served-'));
  write('server/http/a.ts', 60);
  write('server/http/a.test.ts', 0);
  write('spec/b.ts', 60);
  write('mock/m.ts', 60);
  write('dist/server/http/a.js', 30);
  write('dist/spec/b.js', 30);
  write('dist/mock/m.js', 30);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('requireFreshBuild', () => {
  it('passes when every source has a compiled file at least as new (tests are not compiled)', () => {
    expect(servedCode()).toBe('dist');
    expect(() => requireFreshBuild(base)).not.toThrow();
  });

  it('refuses a source newer than its compiled file, naming it', () => {
    write('server/http/a.ts', 0);
    expect(() => requireFreshBuild(base)).toThrow(/server\/http\/a\.ts is newer than dist\/: run `npm run build`/);
  });

  it('refuses a source with no compiled file', () => {
    write('spec/c.ts', 60);
    expect(() => requireFreshBuild(base)).toThrow(/dist\/ has no spec\/c\.js/);
  });

  it('holds the mock, the bench\'s peer, to the same', () => {
    write('mock/m.ts', 0);
    expect(() => requireFreshBuild(base)).toThrow(/mock\/m\.ts is newer than dist\//);
  });
});
