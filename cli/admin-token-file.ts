/**
 * Running sandboxes' admin tokens, left for local tools: `waybill serve` adds an entry
 * `{ url, token }` for its base URL to `.waybill/admin-token.json` (mode 0600) and removes its
 * own entry at shutdown (the file with the last one); `waybill conformance --provision` reads
 * it when no token is given, but only the entry for a target that is that very URL
 * (`localhost` standing for `127.0.0.1`), so a token never travels to another server.
 * `serve --admin-token-file PATH|none` moves it or leaves none; a sandbox in memory leaves
 * none unless asked (D45).
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where the file lives, relative to the working directory (beside the default database). */
export const ADMIN_TOKEN_FILE = '.waybill/admin-token.json';

/** The `--admin-token-file` value that leaves no file. */
export const NO_ADMIN_TOKEN_FILE = 'none';

/**
 * The file `waybill serve` leaves its token in, or null for none: `option` as given (`none`
 * for none), else the file above for a database file, and none for `--db :memory:`, which
 * leaves nothing else behind in the folder either (D45).
 */
export function adminTokenFileOf(option: string | undefined, db: string): string | null {
  const chosen = option ?? (db === ':memory:' ? NO_ADMIN_TOKEN_FILE : ADMIN_TOKEN_FILE);
  return chosen === NO_ADMIN_TOKEN_FILE ? null : chosen;
}

interface TokenEntry {
  url: string;
  token: string;
}

/** A base URL as compared: lower case, no trailing slash, default port dropped, localhost as 127.0.0.1. */
function normalise(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.hostname === 'localhost') parsed.hostname = '127.0.0.1';
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`.replace(/\/+$/, '').toLowerCase();
  } catch {
    return url.replace(/\/+$/, '').toLowerCase();
  }
}

/** The file's entries; an earlier single `{ url, token }` object counts as one entry. */
function readEntries(path: string): TokenEntry[] {
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
  const items = Array.isArray(content) ? content : [content];
  return items.filter(
    (item): item is TokenEntry => typeof item === 'object' && item !== null && typeof (item as TokenEntry).url === 'string' && typeof (item as TokenEntry).token === 'string',
  );
}

function writeEntries(path: string, entries: TokenEntry[]): void {
  if (entries.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(entries.map(({ url, token }) => ({ url, token })), null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/**
 * Puts the entry of the sandbox at `url` in the file (replacing an older entry for the same
 * URL, keeping the others); returns a function that removes that entry if it is still ours.
 */
export function writeAdminTokenFile(url: string, token: string, file = ADMIN_TOKEN_FILE): () => void {
  const path = resolve(file);
  const others = readEntries(path).filter((entry) => normalise(entry.url) !== normalise(url));
  writeEntries(path, [...others, { url, token }]);
  return () => {
    const entries = readEntries(path);
    const rest = entries.filter((entry) => !(normalise(entry.url) === normalise(url) && entry.token === token));
    if (rest.length !== entries.length) writeEntries(path, rest);
  };
}

/** The token the file holds for exactly `target`, or undefined (no file, unreadable, or no entry for that URL). */
export function readAdminTokenFor(target: string, file = ADMIN_TOKEN_FILE): string | undefined {
  return readEntries(resolve(file)).find((entry) => normalise(entry.url) === normalise(target))?.token;
}

/** The URLs the file holds a token for, as written (for an error that says which targets would work). */
export function adminTokenUrls(file = ADMIN_TOKEN_FILE): string[] {
  return readEntries(resolve(file)).map((entry) => entry.url);
}

/** True when two base URLs name the same server as this file compares them (case, trailing slash, default port, localhost). */
export function sameBaseUrl(a: string, b: string): boolean {
  return normalise(a) === normalise(b);
}
