/**
 * `waybill serve` and other commands as a user runs them, in a child process of the
 * built-from-sources bin: for the tests of the command itself, of its durability, and of
 * the sandbox on PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { timedStart } from './start-times.ts';

const bin = fileURLToPath(new URL('../../bin/waybill.js', import.meta.url));

/** A started `waybill serve`. */
export interface ServeChild {
  child: ChildProcess;
  /** Its standard output up to the banner's end. */
  banner: string;
  /** Its standard error so far (kept up to date). */
  readonly err: string;
  exited: Promise<number | null>;
}

/** Starts `waybill serve --port 0 --quiet …args` in `cwd` and resolves once its banner (up to the curl line) is out. */
export function serve(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ServeChild> {
  return timedStart('serve process', () => startServe(cwd, args, env));
}

/** Spawns `waybill serve` and resolves once its banner is out. */
function startServe(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<ServeChild> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd, env });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no banner: ${out} ${err}`)), 30_000);
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (/listening on .*\n[\s\S]*\n\n/.test(out)) {
        clearTimeout(timer);
        resolve({ child, banner: out, get err() { return err; }, exited });
      }
    });
    child.on('exit', () => reject(new Error(`exited early: ${out} ${err}`)));
  });
}

/** Runs `waybill <args>` in `cwd` to its end; resolves to its exit code, standard output and standard error. */
export function waybill(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** Every page of the orders feed and of the trips feed of the key, read with the largest page size. */
export async function feeds(url: string, key: string): Promise<{ orders: unknown[]; trips: unknown[] }> {
  const read = async (path: string) => {
    const items: unknown[] = [];
    let cursor: string | null = null;
    do {
      const answer = await fetch(`${url}/api/v1/integration/${path}?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { headers: { 'X-Api-Key': key } });
      expect(answer.status).toBe(200);
      const page = (await answer.json()) as { items: unknown[]; nextCursor: string | null };
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return items;
  };
  return { orders: await read('orders'), trips: await read('trips') };
}

/** The first key and the base URL of the banner's curl line. */
export function bannerKey(banner: string): { key: string; url: string } {
  const [, key, url] = /curl -s -H 'X-Api-Key: (\S+)' '(\S+?)\/api/.exec(banner)!;
  return { key: key!, url: url! };
}
