/**
 * Copies the Swagger UI files the API reference pages load (/docs) out of the dev dependency
 * `swagger-ui-dist` into `dist/swagger-ui/`, with its licence and notice (Apache-2.0). The
 * installed package ships these copies and does not depend on `swagger-ui-dist`, which pulls
 * `@scarf/scarf`, an install-time telemetry script, into every user's install. `npm run build`
 * runs it after the console; `node console/copy-swagger-ui.mjs [outDir]` copies elsewhere.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The files /docs serves from Swagger UI, and those its licence asks to keep with them. */
export const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'LICENSE', 'NOTICE'];

/** Copies `SWAGGER_UI_FILES` into `outDir` (default `dist/swagger-ui` of the package); answers the files written. */
export function copySwaggerUi(outDir = join(here, '..', 'dist', 'swagger-ui')) {
  const source = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  mkdirSync(outDir, { recursive: true });
  return SWAGGER_UI_FILES.map((name) => {
    copyFileSync(join(source, name), join(outDir, name));
    return join(outDir, name);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  copySwaggerUi(process.argv[2] ? resolve(process.argv[2]) : undefined);
}
