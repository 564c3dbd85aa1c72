/**
 * The project's own source files, as the repository-wide tests see them: every file of code
 * under the folders that hold waybill's sources (the shipped ones and dev/), tests included,
 * and the relative imports between them as the TypeScript compiler resolves them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** The folders of waybill's own sources, relative to the repository root; a folder that does not exist (yet) is skipped. */
export const SOURCE_FOLDERS = ['bin', 'cli', 'mock', 'spec', 'server', 'conformance', 'fixtures', 'console/src', 'dev'] as const;

/** The endings of a file of code (TypeScript, TSX and JavaScript of every module kind). */
const CODE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

/** Folders never walked: installed packages and build output. */
const SKIPPED = new Set(['node_modules', 'dist']);

/** A source file: its path relative to the root (with `/`), and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/** Every file of code under `folder` (absolute), depth first, in name order. */
function walk(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : walk(path);
      return entry.isFile() && CODE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
}

/** The source files of the project at `root`. */
export function sourceFiles(root: string): SourceFile[] {
  return SOURCE_FOLDERS.map((folder) => join(root, folder))
    .filter((folder) => existsSync(folder))
    .flatMap(walk)
    .map((path) => ({ path: relative(root, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }));
}

/**
 * The compiler options imports are resolved with: the project's own (NodeNext, `.ts`
 * extensions in specifiers), so a specifier resolves here exactly as `tsc` resolves it.
 */
function compilerOptions(root: string): ts.CompilerOptions {
  const file = join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, root).options;
}

/** An import of one source file by another: `from` imports `to` (both relative to the root). */
export interface ImportEdge {
  from: string;
  to: string;
}

/**
 * Every import between the source files: static and dynamic, `import type` and
 * `export … from` included (the compiler's own pre-processor finds them), each resolved as
 * `tsc` would. Imports of packages, of files outside the sources and of assets are left out.
 */
export function importEdges(root: string, files: readonly SourceFile[]): ImportEdge[] {
  return resolveImports(root, files).edges;
}

/** A relative import of code that resolves to no file: a typo, or a file moved without its importers. */
export interface UnresolvedImport {
  from: string;
  specifier: string;
}

/** Relative specifiers that name a stylesheet or other asset the bundler, not the compiler, reads. */
const ASSET = /\.(css|svg|png|json)$/;

/** The imports between the source files, and the relative imports of code that resolved to nothing. */
export function resolveImports(root: string, files: readonly SourceFile[]): { edges: ImportEdge[]; unresolved: UnresolvedImport[] } {
  const options = compilerOptions(root);
  const known = new Set(files.map((file) => file.path));
  const edges: ImportEdge[] = [];
  const unresolved: UnresolvedImport[] = [];
  for (const file of files) {
    const absolute = join(root, file.path);
    for (const { fileName: specifier } of ts.preProcessFile(file.text, true, true).importedFiles) {
      const resolved = ts.resolveModuleName(specifier, absolute, options, ts.sys).resolvedModule;
      if (resolved === undefined) {
        if (specifier.startsWith('.') && !ASSET.test(specifier)) unresolved.push({ from: file.path, specifier });
        continue;
      }
      if (resolved.isExternalLibraryImport) continue;
      const to = relative(root, resolved.resolvedFileName).split(sep).join('/');
      if (known.has(to)) edges.push({ from: file.path, to });
    }
  }
  return { edges, unresolved };
}
