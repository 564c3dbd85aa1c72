/**
 * The running sandbox's admin token, left for local tools: `waybill serve` writes
 * `.waybill/admin-token.json` (mode 0600) with its base URL and token, and removes it at
 * shutdown; `waybill conformance --provision` reads it when no token is given, but only for
 * a target that is that very URL, so the token never travels to another server.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where the file lives, relative to the working directory (beside the default database). */
export const ADMIN_TOKEN_FILE = '.waybill/admin-token.json';

interface TokenFile {
  url: string;
  token: string;
}

const normalise = (url: string) => url.replace(/\/+$/, '').toLowerCase();

/** Writes the file for the sandbox at `url`; returns a function that removes it if it is still ours. */
export function writeAdminTokenFile(url: string, token: string, file = ADMIN_TOKEN_FILE): () => void {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ url, token } satisfies TokenFile)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return () => {
    if (readAdminTokenFor(url, file) === token) rmSync(path, { force: true });
  };
}

/** The token the file holds for exactly `target`, or undefined (no file, unreadable, or another URL). */
export function readAdminTokenFor(target: string, file = ADMIN_TOKEN_FILE): string | undefined {
  try {
    const content = JSON.parse(readFileSync(resolve(file), 'utf8')) as Partial<TokenFile>;
    if (typeof content.url !== 'string' || typeof content.token !== 'string') return undefined;
    return normalise(content.url) === normalise(target) ? content.token : undefined;
  } catch {
    return undefined;
  }
}
