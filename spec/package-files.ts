/**
 * Where the package's own files are, whether the code runs from the sources (`spec/load.ts`)
 * or compiled (`dist/spec/load.js`): the package root is the nearest folder above this
 * module with a `package.json`, and the files the code reads (the contract, the catalog,
 * the migrations, the schemas) live there in both layouts and ship in the tarball.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The folder of waybill's `package.json`. */
export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The absolute path of a file of the package, given relative to its root (`spec/openapi.yaml`). */
export function packageFile(relative: string): string {
  return join(PACKAGE_ROOT, relative);
}

/** waybill's version, from its `package.json`. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;

/** Where `npm run build` leaves the YAML documents of `spec/` it parsed (`spec/write-document-cache.ts`). */
export const DOCUMENT_CACHE_FILE = packageFile('dist/spec/documents.json');
