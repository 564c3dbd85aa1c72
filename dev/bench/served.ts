/**
 * The server code a benchmark child runs: by default what `waybill serve` runs, the compiled
 * `dist/` of `npm run build`; `WAYBILL_BENCH_CODE=sources` runs the TypeScript sources through
 * tsx instead. The two differ on the hot path: run from the sources, tsx (esbuild's keepNames)
 * gives every named closure its name with a call of `Object.defineProperty` where it is made,
 * so each closure a request makes costs one there, which the compiled code never pays. Both
 * children (the sandbox and the ceiling) take their server modules from the same place.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the children's server code comes from. */
export type ServedCode = 'dist' | 'sources';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The code the children run, from `WAYBILL_BENCH_CODE` (default `dist`). */
export function servedCode(): ServedCode {
  const value = process.env.WAYBILL_BENCH_CODE ?? 'dist';
  if (value !== 'dist' && value !== 'sources') throw new Error(`WAYBILL_BENCH_CODE must be dist or sources, not ${value}`);
  return value;
}

/** The shipped TypeScript files (not tests) under `dir` of `base`. */
function sourcesUnder(base: string, dir: string): string[] {
  return readdirSync(join(base, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}

/**
 * Throws unless every source file of the server (the spec code it loads, and the mock, the bench's peer) under `base`
 * (the package) has a compiled file in its `dist/` at least as new: a benchmark of stale
 * code would measure something else.
 */
export function requireFreshBuild(base = root): void {
  if (servedCode() !== 'dist') return;
  for (const source of [...sourcesUnder(base, 'server'), ...sourcesUnder(base, 'spec'), ...sourcesUnder(base, 'mock')]) {
    const compiled = join(base, 'dist', source.replace(/\.ts$/, '.js'));
    let compiledAt: number;
    try {
      compiledAt = statSync(compiled).mtimeMs;
    } catch {
      throw new Error(`dist/ has no ${relative(join(base, 'dist'), compiled)}: run \`npm run build\` first (or WAYBILL_BENCH_CODE=sources to run the sources)`);
    }
    if (statSync(join(base, source)).mtimeMs > compiledAt) {
      throw new Error(`${source} is newer than dist/: run \`npm run build\` first (or WAYBILL_BENCH_CODE=sources to run the sources)`);
    }
  }
}

/** The module at `path` (from the package root, without extension: `server/start/start-sandbox`), compiled or from the sources. */
export function served<T>(path: string): Promise<T> {
  const file = servedCode() === 'dist' ? join(root, 'dist', `${path}.js`) : join(root, `${path}.ts`);
  return import(pathToFileURL(file).href) as Promise<T>;
}
