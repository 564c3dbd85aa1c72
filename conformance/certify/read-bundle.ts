/** Reads every file of a bundle, a folder or a .tar.gz of one, into memory without extracting anything to disk. */
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';

/** A bundle's files by name (`report.json`; a file in a subfolder as `sub/name`), and what cannot be a bundle file. */
export interface BundleContents {
  kind: 'folder' | 'tar.gz';
  files: Map<string, Buffer>;
  /** Entries that are not plain files (links, devices) or stand outside the bundle's one folder. */
  strays: string[];
}

/** The files under `dir`, recursively, by path relative to it. */
async function readFolder(dir: string, prefix = '', contents: BundleContents = { kind: 'folder', files: new Map(), strays: [] }): Promise<BundleContents> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory()) await readFolder(join(dir, entry.name), `${name}/`, contents);
    else if (entry.isFile()) contents.files.set(name, await readFile(join(dir, entry.name)));
    else contents.strays.push(`${name} (not a plain file)`);
  }
  return contents;
}

/** The files of a .tar.gz whose entries all stand in one top folder, by path below it. */
async function readArchive(file: string): Promise<BundleContents> {
  const contents: BundleContents = { kind: 'tar.gz', files: new Map(), strays: [] };
  const roots = new Set<string>();
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const path = entry.path.replace(/\/+$/, '');
      const [root, ...rest] = path.split('/');
      roots.add(root ?? '');
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        if (entry.type === 'Directory') return;
        if (entry.type !== 'File' && entry.type !== 'OldFile') contents.strays.push(`${path} (${entry.type}, not a plain file)`);
        else if (rest.length === 0 || rest.includes('..') || path.startsWith('/')) contents.strays.push(`${path} (outside the bundle's folder)`);
        else contents.files.set(rest.join('/'), Buffer.concat(chunks));
      });
    },
  });
  await pipeline(createReadStream(file), parser);
  if (roots.size > 1) contents.strays.push(`${[...roots].join(', ')} (more than one top folder)`);
  return contents;
}

/** Reads the bundle at `path`: a folder, or a (gzipped) tar of one. */
export async function readBundle(path: string): Promise<BundleContents> {
  return (await lstat(path)).isDirectory() ? readFolder(path) : readArchive(path);
}
