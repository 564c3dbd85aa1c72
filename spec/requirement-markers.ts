/**
 * Where the reference sandbox implements the register. A rule of `spec/requirements.yaml`
 * without `implementedBy` is the sandbox's own, and the code that implements it carries a
 * marker, a line comment alone on its line: `// requirement: int.orders-feed.caught-up`. So
 * `grep -rn "requirement: <id>" server` goes from a requirement to its code, and the markers,
 * read here, give /docs/requirements the files of each rule. From the sources they are read
 * afresh; compiled, from `dist/spec/requirement-markers.json`, which `npm run build` writes
 * from the sources it compiled (the package ships no sources).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { RegisterEntry } from './load.ts';
import { packageFile, PACKAGE_ROOT } from './package-files.ts';

/** The form of a marker, as the register's header and docs/vendor.md give it. */
export const MARKER_FORM = '// requirement: <id>';

/** The folders of the sandbox's code, relative to the package root: the server and the console it serves. */
export const SANDBOX_SOURCES = ['server', 'console/src'] as const;

/** Where `npm run build` leaves the markers it read (`spec/write-requirement-markers.ts`). */
export const MARKER_FILE = packageFile('dist/spec/requirement-markers.json');

/** Who implements a rule: the sandbox, or what `implementedBy` names. */
export type Implementer = 'sandbox' | NonNullable<RegisterEntry['implementedBy']>;

/** Who implements `entry`: the sandbox unless the register names another. */
export function implementerOf(entry: Pick<RegisterEntry, 'implementedBy'>): Implementer {
  return entry.implementedBy ?? 'sandbox';
}

/** One marker: the file (relative to the package root, with `/`) and its 1-based line. */
export interface MarkerSite {
  file: string;
  line: number;
}

/** A line that looks like a marker but is not one in the exact form, so grep would miss it. */
export interface MalformedMarker extends MarkerSite {
  text: string;
}

/** What the sandbox's code holds: the markers by requirement id (files in path order), and near misses. */
export interface MarkerScan {
  markers: Map<string, MarkerSite[]>;
  malformed: MalformedMarker[];
}

const MARKER = /^\s*\/\/ requirement: (\S+)$/;
// Any comment that mentions `requirement:` in another spelling (`//requirement:`, `// Requirements :`,
// two ids on a line, a marker after code or inside a doc comment): grep for the one form would miss it.
const NEAR_MISS = /(\/[/*]|^\s*\*).*\brequirements?\s*:/i;

/** The sandbox's code files under `folder`: TypeScript and TSX, tests left out. */
function codeFiles(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return codeFiles(path);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
    });
}

/** Reads every marker of the sandbox's code under `root` (the package root by default). */
export function scanMarkers(root = PACKAGE_ROOT): MarkerScan {
  const markers = new Map<string, MarkerSite[]>();
  const malformed: MalformedMarker[] = [];
  for (const path of SANDBOX_SOURCES.flatMap((folder) => codeFiles(join(root, folder)))) {
    const file = relative(root, path).split(sep).join('/');
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        const site = { file, line: index + 1 };
        const id = MARKER.exec(text)?.[1];
        if (id !== undefined) markers.set(id, [...(markers.get(id) ?? []), site]);
        else if (NEAR_MISS.test(text)) malformed.push({ ...site, text: text.trim() });
      });
  }
  return { markers, malformed };
}

/**
 * What is wrong between the register and the markers, one line each: a rule the sandbox
 * implements with no marker, a marker naming an id the register lacks or a rule the sandbox
 * does not implement, and a comment that looks like a marker but is not in its form.
 */
export function markerProblems(register: ReadonlyMap<string, Pick<RegisterEntry, 'id' | 'implementedBy'>>, scan: MarkerScan): string[] {
  const at = (sites: readonly MarkerSite[]) => sites.map((site) => `${site.file}:${site.line}`).join(', ');
  const problems: string[] = [];
  for (const entry of register.values()) {
    if (implementerOf(entry) === 'sandbox' && !scan.markers.has(entry.id)) problems.push(`${entry.id}: the sandbox implements it, and no code of it carries '// requirement: ${entry.id}'`);
  }
  for (const [id, sites] of scan.markers) {
    const entry = register.get(id);
    if (entry === undefined) problems.push(`${id}: no such requirement in spec/requirements.yaml (marked at ${at(sites)})`);
    else if (implementerOf(entry) !== 'sandbox') problems.push(`${id}: implementedBy ${implementerOf(entry)}, yet marked in the sandbox at ${at(sites)}`);
  }
  for (const site of scan.malformed) problems.push(`${site.file}:${site.line}: not a marker's form '${MARKER_FORM}', one id alone on its line: ${site.text}`);
  return problems;
}

/** The markers as JSON: `{ "<id>": [{ "file", "line" }, …] }`, ids in the order first met. */
export function markersJson(markers: ReadonlyMap<string, readonly MarkerSite[]>): string {
  return JSON.stringify(Object.fromEntries(markers));
}

let loaded: ReadonlyMap<string, readonly MarkerSite[]> | undefined;

/**
 * The markers of the sandbox's code, by requirement id: read from the sources when this runs
 * as TypeScript, else from what the build wrote beside the compiled code. A compiled package
 * without that file is a broken build, and says so.
 */
export function requirementMarkers(): ReadonlyMap<string, readonly MarkerSite[]> {
  if (loaded !== undefined) return loaded;
  if (import.meta.url.endsWith('.ts')) return (loaded = scanMarkers().markers);
  let text: string;
  try {
    text = readFileSync(MARKER_FILE, 'utf8');
  } catch {
    throw new Error(`${MARKER_FILE} is missing: \`npm run build\` writes it (spec/write-requirement-markers.ts)`);
  }
  return (loaded = new Map(Object.entries(JSON.parse(text) as Record<string, MarkerSite[]>)));
}
