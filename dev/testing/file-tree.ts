/** Throwaway folders of files, for tests of code that reads a source tree (requirement markers, import cycles, file lengths). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];

/** A new folder holding `files` (paths relative to it, `/`-separated); returns its path. */
export function fileTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'waybill-tree-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Removes every folder `fileTree` made in this test file; call it in `afterAll`. */
export function removeFileTrees(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}
