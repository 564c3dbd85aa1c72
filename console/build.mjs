/**
 * Builds the web console (`console/src`, Preact + TSX) into `dist/console/`: `app.js` and
 * `app.css` (imported by main.tsx) bundled and minified by esbuild, the views loaded on demand
 * (faults, clock, simulation) and the code they share in `chunk-<hash>.js`, beside `index.html`,
 * `catalog.json` (each error code's status and meaning, which the request log shows) and `problems.json`
 * (each integration operation's `x-error-codes` with their status and title, which the fault form offers, D95). `npm run build` runs it
 * after tsc; the installed package ships the result and needs neither esbuild nor Preact.
 * `node console/build.mjs [outDir]` builds into another folder (the tests do).
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds the console into `outDir` (default `dist/console` of the package); answers the files written. */
export async function buildConsole(outDir = join(here, '..', 'dist', 'console')) {
  const { build } = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  // A chunk of an earlier build is never asked for again: leave none behind.
  for (const name of readdirSync(outDir)) if (/^chunk-.*\.js$/.test(name)) rmSync(join(outDir, name));
  const { metafile } = await build({
    entryPoints: { app: join(here, 'src', 'main.tsx') },
    outdir: outDir,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    metafile: true,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync(join(here, 'index.html'), join(outDir, 'index.html'));
  const { parse } = await import('yaml');
  const { codes } = parse(readFileSync(join(here, '..', 'spec', 'errors.yaml'), 'utf8'));
  const catalog = Object.fromEntries(codes.map(({ code, status, meaning }) => [code, { status, meaning }]));
  writeFileSync(join(outDir, 'catalog.json'), JSON.stringify(catalog));
  const { paths } = parse(readFileSync(join(here, '..', 'spec', 'openapi.yaml'), 'utf8'));
  const byCode = new Map(codes.map((entry) => [entry.code, entry]));
  const problems = Object.fromEntries(
    Object.values(paths).flatMap((item) => Object.values(item))
      .filter((operation) => operation && typeof operation === 'object' && typeof operation.operationId === 'string')
      .map((operation) => [operation.operationId, (operation['x-error-codes'] ?? []).map((code) => ({ code, status: byCode.get(code).status, title: byCode.get(code).title }))]),
  );
  writeFileSync(join(outDir, 'problems.json'), JSON.stringify(problems));
  const chunks = Object.keys(metafile.outputs).map((file) => file.split('/').pop()).filter((name) => name.startsWith('chunk-'));
  return ['index.html', 'app.js', 'app.css', 'catalog.json', 'problems.json', ...chunks].map((name) => join(outDir, name));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildConsole(process.argv[2] ? resolve(process.argv[2]) : undefined);
}
