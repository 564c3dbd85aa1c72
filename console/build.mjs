/**
 * Builds the web console (`console/src`, Preact + TSX) into `dist/console/`: `app.js` and
 * `app.css` (imported by main.tsx) bundled and minified by esbuild, beside `index.html` and
 * `catalog.json` (each error code's status and meaning, which the request log shows). `npm run build` runs it
 * after tsc; the installed package ships the result and needs neither esbuild nor Preact.
 * `node console/build.mjs [outDir]` builds into another folder (the tests do).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds the console into `outDir` (default `dist/console` of the package); answers the files written. */
export async function buildConsole(outDir = join(here, '..', 'dist', 'console')) {
  const { build } = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: { app: join(here, 'src', 'main.tsx') },
    outdir: outDir,
    entryNames: '[name]',
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
  return ['index.html', 'app.js', 'app.css', 'catalog.json'].map((name) => join(outDir, name));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildConsole(process.argv[2] ? resolve(process.argv[2]) : undefined);
}
