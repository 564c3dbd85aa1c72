/** `waybill serve` as a user runs it: banner, demo data, the printed curl line, clean shutdown, durability. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/waybill.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'waybill-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `waybill serve` and resolves once its banner (up to the curl line) is out. */
function serve(args: string[]): Promise<{ child: ChildProcess; banner: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
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
        resolve({ child, banner: out, exited });
      }
    });
    child.on('exit', () => reject(new Error(`exited early: ${out} ${err}`)));
  });
}

describe('waybill serve', () => {
  it('seeds the demo tenant, prints a curl line that works, and exits 0 on SIGTERM', async () => {
    const db = join(dir, 'demo.db');
    const { child, banner, exited } = await serve(['--db', db]);
    const url = /listening on (\S+)/.exec(banner)![1]!;
    expect(banner).toMatch(/demo-full\s+wbk_/);
    const curl = /curl -s -H 'X-Api-Key: (\S+)' '(\S+)'/.exec(banner)!;
    expect(curl[2]).toBe(`${url}/api/v1/integration/orders?limit=2`);
    const answer = await fetch(curl[2]!, { headers: { 'X-Api-Key': curl[1]! } });
    expect(answer.status).toBe(200);
    const page = (await answer.json()) as { items: unknown[]; nextCursor: string };
    expect(page.items).toHaveLength(2);
    // The admin token is left for local tools, readable by the owner only, and only for this URL.
    const tokenFile = join(dir, '.waybill', 'admin-token.json');
    const token = /admin token: (\S+)/.exec(banner)![1];
    expect(JSON.parse(readFileSync(tokenFile, 'utf8'))).toEqual([{ url, token }]);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(tokenFile)).toBe(false);

    // Second start: same data, no new demo tenant, keys still valid.
    const again = await serve(['--db', db]);
    expect(again.banner).not.toMatch(/created the demo tenant/);
    const url2 = /listening on (\S+)/.exec(again.banner)![1]!;
    expect((await fetch(`${url2}/api/v1/integration/whoami`, { headers: { 'X-Api-Key': curl[1]! } })).status).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 60_000);

  it('keeps a write it answered 2xx when killed with SIGKILL right after', async () => {
    const db = join(dir, 'kill.db');
    const { child, banner, exited } = await serve(['--db', db]);
    const [, key, url] = /curl -s -H 'X-Api-Key: (\S+)' '(\S+?)\/api/.exec(banner)!;
    const page = (await (await fetch(`${url}/api/v1/integration/orders?limit=100&status=New`, { headers: { 'X-Api-Key': key! } })).json()) as { items: { externalId: string | null }[] };
    const externalId = page.items.find((o) => o.externalId !== null)!.externalId!;
    const answer = await fetch(`${url}/api/v1/integration/orders/externalid/${externalId}/cancel`, {
      method: 'POST', headers: { 'X-Api-Key': key!, 'Content-Type': 'application/json' }, body: '{"reason":"durability"}',
    });
    expect(answer.status).toBe(200);
    child.kill('SIGKILL');
    await exited;
    const reopened = new Database(db, { readonly: true });
    const status = reopened.prepare('SELECT status FROM orders WHERE external_id = ?').pluck().get(externalId);
    reopened.close();
    expect(status).toBe('Cancelled');
  }, 60_000);

  it('refuses a bad port with exit 2 and a port in use with a clear message', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (chunk) => (err += chunk));
        child.on('exit', (code) => resolve({ code, err }));
      });
    const bad = await run(['--port', 'abc', '--db', ':memory:']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--port/);
    const first = await serve(['--db', ':memory:']);
    const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(first.banner)![1]!;
    const busy = await run(['--port', port, '--db', ':memory:']);
    expect(busy.code).toBe(2);
    expect(busy.err).toMatch(/in use/);
    first.child.kill('SIGTERM');
    await first.exited;
  }, 60_000);

  it('prints one line naming a --db file that is not a database, and each usage error once', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
        let err = '';
        child.stderr.on('data', (chunk) => (err += chunk));
        child.on('exit', (code) => resolve({ code, err }));
      });
    const text = join(dir, 'notadb.db');
    writeFileSync(text, 'this is not a database\n'.repeat(200));
    const notDb = await run(['--port', '0', '--db', text]);
    expect(notDb.code).toBe(2);
    expect(notDb.err.trim().split('\n')).toHaveLength(1);
    expect(notDb.err).toContain(text);
    expect(notDb.err).not.toMatch(/\n\s+at /);
    for (const [args, message] of [[['--bogus'], "unknown option '--bogus'"], [['--port', '99999'], '--port']] as const) {
      const usage = await run([...args, '--db', ':memory:']);
      expect(usage.code).toBe(2);
      expect(usage.err.trim().split('\n'), usage.err).toHaveLength(1);
      expect(usage.err).toContain(message);
    }
  }, 60_000);
});
