/** `waybill serve` as a user runs it: banner, demo data or a fixtures dataset, the printed curl line, clean shutdown, durability. */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { readAdminTokenFor } from '../../cli/admin-token-file.ts';
import { feeds, serve as serveChild, waybill as waybillChild } from '../../dev/testing/serve-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'waybill-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `waybill serve` in the test's folder and resolves once its banner (up to the curl line) is out. */
const serve = (args: string[]) => serveChild(dir, args);

/** Runs `waybill <args>` in the test's folder to its end; resolves to its exit code and standard error. */
const waybill = (args: string[]) => waybillChild(dir, args);

let seed7: Promise<string> | undefined;

/** The file `waybill fixtures --seed 7` writes (written once). */
function seed7File(): Promise<string> {
  const file = join(dir, 'seed-7.json');
  seed7 ??= waybill(['fixtures', '--seed', '7', '--out', file]).then(({ code, err }) => {
    if (code !== 0) throw new Error(`waybill fixtures failed: ${err}`);
    return file;
  });
  return seed7;
}

/** Starts `waybill serve` with `args`, reads what its banner says it loaded and both feeds, and stops it. */
async function loadedData(args: string[]) {
  const { child, banner, exited } = await serve(args);
  const [, tenantId] = /into tenant (\S+):/.exec(banner) ?? [];
  const [, key, url] = /curl -s -H 'X-Api-Key: (\S+)' '(\S+?)\/api/.exec(banner)!;
  const data = await feeds(url!, key!);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return { banner, tenantId, ...data };
}

describe('waybill serve', () => {
  it('seeds the demo tenant, prints a curl line that works, and exits 0 on SIGTERM', async () => {
    const db = join(dir, 'demo.db');
    const { child, banner, exited } = await serve(['--db', db]);
    const url = /listening on (\S+)/.exec(banner)![1]!;
    expect(banner).toMatch(/demo-full\s+wbk_/);
    const token = /admin token: (\S+)/.exec(banner)![1]!;
    // The console link signs in: the token rides in the fragment, which a browser never sends.
    expect(banner).toContain(`  console: ${url}/console#token=${token}  (signs you in; what follows # never leaves the browser)\n  API reference: ${url}/docs  (documents: ${url}/openapi.yaml, ${url}/sandbox.yaml; health: ${url}/health)\n  integration API: ${url}/api/v1/integration\n`);
    const curl = /curl -s -H 'X-Api-Key: (\S+)' '(\S+)'/.exec(banner)!;
    expect(curl[2]).toBe(`${url}/api/v1/integration/orders?limit=2`);
    const answer = await fetch(curl[2]!, { headers: { 'X-Api-Key': curl[1]! } });
    expect(answer.status).toBe(200);
    const page = (await answer.json()) as { items: unknown[]; nextCursor: string };
    expect(page.items).toHaveLength(2);
    // The admin token is left for local tools, readable by the owner only, and only for this URL.
    const tokenFile = join(dir, '.waybill', 'admin-token.json');
    expect(banner).toContain(`admin token: ${token}  (new at every start; set WAYBILL_ADMIN_TOKEN to fix it; left for local tools in .waybill/admin-token.json)`);
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

  it('stopped together with the reader of its output (`waybill serve 2>&1 | tee log`, Ctrl-C): exits 0 and removes its token entry', async () => {
    const folder = mkdtempSync(join(dir, 'tee-'));
    const { child, banner, exited } = await serveChild(folder, ['--db', join(folder, 'tee.db')]);
    const [, key, url] = /curl -s -H 'X-Api-Key: (\S+)' '(\S+?)\/api/.exec(banner)!;
    const tokenFile = join(folder, '.waybill', 'admin-token.json');
    expect(readAdminTokenFor(url!, tokenFile)).toBeDefined();
    // The reader goes first, as tee does on Ctrl-C: every line the sandbox writes from now on meets a closed pipe.
    child.stdout!.destroy();
    child.stderr!.destroy();
    const requestIds: string[] = [];
    for (let i = 0; i < 2; i++) requestIds.push((await fetch(`${url}/api/v1/integration/whoami`, { headers: { 'X-Api-Key': key! } })).headers.get('x-request-id')!);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(tokenFile)).toBe(false);
    // It stopped as it would have, not at the first broken write: the request log's waiting entries are written.
    const reopened = new Database(join(folder, 'tee.requests.db'), { readonly: true });
    const logged = reopened.prepare(`SELECT json_extract(e.value, '$[9]') FROM request_log_chunk c, json_each(c.entries) e ORDER BY c.first_id, e.key`).pluck().all();
    reopened.close();
    expect(logged).toEqual(expect.arrayContaining(requestIds));
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

  it('writes the request log\'s waiting entries at a clean shutdown, keeping the last --log-retention per tenant (D48)', async () => {
    const db = join(dir, 'request-log.db');
    const { child, banner, exited } = await serve(['--db', db, '--log-retention', '3']);
    const [, key, url] = /curl -s -H 'X-Api-Key: (\S+)' '(\S+?)\/api/.exec(banner)!;
    const requestIds: string[] = [];
    for (let i = 0; i < 5; i++) requestIds.push((await fetch(`${url}/api/v1/integration/whoami`, { headers: { 'X-Api-Key': key! } })).headers.get('x-request-id')!);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The log has a database file of its own beside the sandbox's.
    const reopened = new Database(join(dir, 'request-log.requests.db'), { readonly: true });
    // Each chunk's entries (D85) from the first the tenant keeps; a summary's request id is its tenth field.
    const logged = reopened
      .prepare(`SELECT json_extract(e.value, '$[9]') FROM request_log_chunk c JOIN request_log_tenants t USING (tenant_id), json_each(c.entries) e
        WHERE c.first_seq + e.key >= t.kept_from ORDER BY c.first_id, e.key`)
      .pluck()
      .all();
    reopened.close();
    expect(logged).toEqual(requestIds.slice(-3));
  }, 60_000);

  it('leaves the admin token where --admin-token-file says, and in no file for --db :memory: unless asked', async () => {
    const defaultFile = join(dir, '.waybill', 'admin-token.json');
    const tokenIn = (file: string, url: string) => readAdminTokenFor(url, file);
    const inMemory = await serve(['--db', ':memory:']);
    const memoryUrl = /listening on (\S+)/.exec(inMemory.banner)![1]!;
    expect(inMemory.banner).toContain('not left in a file (--db :memory:); --admin-token-file PATH leaves it for local tools');
    expect(tokenIn(defaultFile, memoryUrl)).toBeUndefined();
    inMemory.child.kill('SIGTERM');
    expect(await inMemory.exited).toBe(0);

    const chosen = join(dir, 'tokens', 'sandbox-token.json');
    const asked = await serve(['--db', ':memory:', '--admin-token-file', chosen]);
    const askedUrl = /listening on (\S+)/.exec(asked.banner)![1]!;
    expect(asked.banner).toContain(`left for local tools in ${chosen}`);
    expect(tokenIn(chosen, askedUrl)).toBe(/admin token: (\S+)/.exec(asked.banner)![1]);
    expect(statSync(chosen).mode & 0o777).toBe(0o600);
    asked.child.kill('SIGTERM');
    expect(await asked.exited).toBe(0);
    expect(existsSync(chosen)).toBe(false);

    const none = await serve(['--db', join(dir, 'no-token-file.db'), '--admin-token-file', 'none']);
    const noneUrl = /listening on (\S+)/.exec(none.banner)![1]!;
    expect(none.banner).toContain('not left in a file; --admin-token-file PATH leaves it for local tools');
    expect(tokenIn(defaultFile, noneUrl)).toBeUndefined();
    none.child.kill('SIGTERM');
    expect(await none.exited).toBe(0);

    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const unwritable = await waybill(['serve', '--port', '0', '--db', ':memory:', '--admin-token-file', join(blocker, 'token.json')]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.err.trim().split('\n'), unwritable.err).toHaveLength(1);
    expect(unwritable.err).toContain(`--admin-token-file ${join(blocker, 'token.json')}: cannot write it`);
  }, 60_000);

  it('refuses a bad port with exit 2 and a port in use with a clear message', async () => {
    const run = (args: string[]) => waybill(['serve', ...args]);
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
    const run = (args: string[]) => waybill(['serve', ...args]);
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

  it('loads --seed 7 the same on every start, and --fixtures of the file `waybill fixtures --seed 7` writes the same', async () => {
    const file = await seed7File();
    const first = await loadedData(['--seed', '7', '--db', ':memory:']);
    expect(first.banner).toMatch(/loaded fixtures seed 7 into tenant [0-9a-f-]{36}: 500 orders, 125 trips/);
    expect(first.banner).toMatch(/fixtures-full\s+wbk_\S+\s+\[orders:read orders:write trips:read\]/);
    expect(first.banner).toMatch(/fixtures-orders-read\s+wbk_/);
    expect(first.banner).not.toMatch(/demo/);
    expect(first.orders).toHaveLength(500);
    expect(first.trips).toHaveLength(125);
    const second = await loadedData(['--seed', '7', '--db', ':memory:']);
    const fromFile = await loadedData(['--fixtures', file, '--db', ':memory:']);
    expect(fromFile.banner).toContain(`loaded fixtures seed 7 (${file}) into tenant`);
    for (const again of [second, fromFile]) {
      expect(again.tenantId).toBe(first.tenantId);
      expect(again.orders).toEqual(first.orders);
      expect(again.trips).toEqual(first.trips);
    }
  }, 90_000);

  it('loads a dataset into an empty database only: a restart finds it, other data is refused', async () => {
    const db = join(dir, 'seed-3.db');
    const loaded = await serve(['--seed', '3', '--db', db]);
    const [, tenantId] = /into tenant (\S+):/.exec(loaded.banner)!;
    const [, key] = /curl -s -H 'X-Api-Key: (\S+)'/.exec(loaded.banner)!;
    loaded.child.kill('SIGTERM');
    expect(await loaded.exited).toBe(0);

    const again = await serve(['--seed', '3', '--db', db]);
    expect(again.banner).toContain(`fixtures seed 3: already loaded into tenant ${tenantId}`);
    expect(again.banner).not.toMatch(/wbk_/);
    const url = /listening on (\S+)/.exec(again.banner)![1]!;
    expect((await fetch(`${url}/api/v1/integration/orders?limit=1`, { headers: { 'X-Api-Key': key! } })).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);

    const other = await waybill(['serve', '--port', '0', '--seed', '4', '--db', db]);
    expect(other.code).toBe(2);
    expect(other.err.trim().split('\n')).toHaveLength(1);
    expect(other.err).toContain(`--seed 4: the database ${db} already holds other data`);
  }, 60_000);

  it('refuses a bad --fixtures file, and --fixtures with --seed, in one line with exit 2', async () => {
    const write = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const seed7 = await seed7File();
    const good = JSON.parse(readFileSync(seed7, 'utf8')) as { orders: { status: string; lines: { productId: string }[] }[] };
    good.orders[3]!.status = 'Lost';
    const badStatus = write('bad-status.json', JSON.stringify(good));
    good.orders[3]!.status = 'New';
    good.orders[4]!.lines[0]!.productId = 'no-such-product';
    const badReference = write('bad-reference.json', JSON.stringify(good));
    const missing = join(dir, 'missing.json');
    const cases: [string[], string][] = [
      [['--fixtures', missing], `--fixtures ${missing}: no such file`],
      [['--fixtures', dir], `--fixtures ${dir}: is a folder`],
      [['--fixtures', write('not-json.json', '{"orders": [')], 'not-json.json: not JSON'],
      [['--fixtures', write('no-orders.json', '{"seed": 1}')], "no-orders.json: not a dataset written by waybill fixtures: (the file) must have required property 'baseTime'"],
      [['--fixtures', badStatus], 'bad-status.json: not a dataset written by waybill fixtures: orders[3].status must be equal to one of the allowed values'],
      [['--fixtures', badReference], "bad-reference.json: not a dataset written by waybill fixtures: orders[4].lines[0].productId 'no-such-product' is no product of the dataset"],
      [['--fixtures', seed7, '--seed', '7'], "option '--fixtures <file>' cannot be used with option '--seed <n>'"],
      [['--seed', 'seven'], "--seed must be an integer from 0 to 4294967295, got 'seven'"],
    ];
    for (const [args, message] of cases) {
      const refused = await waybill(['serve', '--port', '0', '--db', ':memory:', ...args]);
      expect(refused.code, refused.err).toBe(2);
      expect(refused.err.trim().split('\n'), refused.err).toHaveLength(1);
      expect(refused.err).toContain(message);
      expect(refused.err).not.toMatch(/\n\s+at /);
    }
  }, 90_000);
});
