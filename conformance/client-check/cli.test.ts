/**
 * `waybill client-check` as a user runs it: help with examples, one-line usage errors with exit
 * 2, a run that writes the four reports, a failing run whose findings show the client's
 * requests in every format and in exchanges.har, and a command that loads the server only when it starts its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { startOwnSandbox } from './own-sandbox.ts';
import { EXAMPLE_CLIENT, NAIVE_CLIENT } from '../../dev/testing/client-check/check-client.ts';
import { harErrors } from '../../dev/testing/conformance/har-schema.ts';
import type { Har } from '../transport/har.ts';

const bin = fileURLToPath(new URL('../../bin/waybill.js', import.meta.url));
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'WAYBILL_ADMIN_TOKEN'));
const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'client-check', ...args], { encoding: 'utf8', timeout: 90_000, cwd: PACKAGE_ROOT, env });
/** Runs the command without blocking this process (a sandbox in it must answer meanwhile). */
function runAsync(args: readonly string[], extraEnv: Record<string, string> = {}): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, 'client-check', ...args], { cwd: PACKAGE_ROOT, env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('close', (status) => done({ status, stderr }));
  });
}
const folder = mkdtempSync(join(tmpdir(), 'waybill-client-check-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Every project file `entry` reaches through static imports (type-only ones excluded). */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/gm)) visit(resolve(dirname(file), match[1]!));
  };
  visit(resolve(PACKAGE_ROOT, entry));
  return [...seen].map((file) => relative(PACKAGE_ROOT, file));
}

describe('waybill client-check', () => {
  it('--help lists the scenarios and examples, exit 0', () => {
    const { status, stdout } = run('--help');
    expect(status).toBe(0);
    expect(stdout).toContain('Usage: waybill client-check [options] -- COMMAND [ARGS...]');
    expect(stdout).toContain('client.pay.answer-lost');
    expect(stdout).toContain('$ waybill client-check -- node conformance/client-check/example/client.mjs');
  });

  it.each([
    [['--', ], /give the client's command after --/],
    [['node', 'client.mjs'], /give the client's command after --/],
    [['--bogus', '--', 'node'], /unknown option '--bogus'/],
    [['--scenario', 'client.nope', '--', 'node'], /--scenario client\.nope: no such scenario/],
    [['--admin-token', 't', '--', 'node'], /--admin-token is only used with --target/],
    [['--target', 'nowhere', '--', 'node'], /--target nowhere: not a URL/],
    [['--target', 'http://127.0.0.1:9', '--', 'node'], /nothing answers at http:\/\/127\.0\.0\.1:9: fetch failed/],
    [['--timeout-ms', '0', '--', 'node'], /--timeout-ms.*at least 1/],
  ])('refuses %j with one line and exit 2', (args, message) => {
    const { status, stderr, stdout } = run(...args);
    expect(status).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).toBe('');
  });

  it('writes report.json, junit.xml and report.html into --out, each naming the client; a terminal shows each scenario once', () => {
    const out = join(folder, 'pass');
    const { status, stderr, stdout } = run('--scenario', 'client.pay.json-body,client.no-retry.404', '--out', out, '--', process.execPath, EXAMPLE_CLIENT);
    expect(status).toBe(0);
    // stdout and stderr share a terminal: the console reporter's line as each scenario ends is the only one naming it.
    const terminal = `${stdout}\n${stderr}`.split('\n');
    for (const id of ['client.pay.json-body', 'client.no-retry.404']) expect(terminal.filter((line) => line.includes(id)), id).toEqual([expect.stringMatching(new RegExp(`^  ✓ ${id.replaceAll('.', '\\.')} \\(\\d+ ms\\)$`))]);
    expect(stdout).toMatch(/^waybill client-check 0\.1\.0 → http:\/\/127\.0\.0\.1:\d+ {2}\(2 scenarios, /);
    const command = `${process.execPath} ${EXAMPLE_CLIENT}`;
    expect(stdout).toContain(`\n  client: ${command}\n`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { suite: { name: string }; client: { command: string }; results: { id: string; outcome: string }[] };
    expect(report.suite.name).toBe('waybill-client-check');
    expect(report.client).toEqual({ command });
    expect(report.results.map(({ id, outcome }) => `${id} ${outcome}`).sort()).toEqual(['client.no-retry.404 pass', 'client.pay.json-body pass']);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuites name="waybill client-check"');
    expect(junit).toContain(`<property name="client" value="${command}">`);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<h1>waybill client-check report</h1>');
    expect(html).toContain(`<dt>Client</dt><dd>${command}</dd>`);
  }, 90_000);

  it('with file reports only, says on stderr as each scenario starts, once', () => {
    const { status, stderr, stdout } = run('--scenario', 'client.pay.json-body', '--reporter', 'json', '--out', join(folder, 'json-only'), '--', process.execPath, EXAMPLE_CLIENT);
    expect(status).toBe(0);
    expect(stderr.split('\n').filter((line) => line.includes('client.pay.json-body'))).toEqual([expect.stringMatching(/^client-check: client\.pay\.json-body — /)]);
    expect(stdout).not.toContain('client.pay.json-body');
  }, 90_000);

  it('a failing client: exit 1, and every format shows the requests from the log', () => {
    const out = join(folder, 'fail');
    const { status, stdout } = run('--scenario', 'client.no-retry.404', '--out', out, '--', process.execPath, NAIVE_CLIENT, 'retry-client-errors');
    expect(status).toBe(1);
    const line = /Request: {2}#\d+ \S+ POST \/api\/v1\/integration\/orders\/externalid\/CC-NO-SUCH-ORDER\/payment → 404 orders\.notFound \(req_/;
    expect(stdout).toMatch(line);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(line);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/The client(&#39;|')s requests, from the sandbox(&#39;|')s request log:/);
    expect(html).toMatch(/POST \/api\/v1\/integration\/orders\/externalid\/CC-NO-SUCH-ORDER\/payment → 404/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: { findings: { requests?: { status: number }[] }[] }[] };
    expect(report.results[0]?.findings[0]?.requests?.map((request) => request.status)).toEqual([404, 404, 404, 404, 404, 404]);
    // exchanges.har, listed with the reports: the scenario's page, its finding, and the same six requests.
    expect(stdout).toContain(`  ${join(out, 'exchanges.har')}\n`);
    const har = JSON.parse(readFileSync(join(out, 'exchanges.har'), 'utf8')) as Har;
    expect(harErrors(har)).toEqual([]);
    expect(har.log.pages).toEqual([expect.objectContaining({ id: 'client.no-retry.404', title: expect.stringMatching(/^client\.no-retry\.404 \(fail\) — /), comment: expect.stringMatching(/^1\) /) })]);
    expect(har.log.entries.map((entry) => `${entry.request.method} ${new URL(entry.request.url).pathname} ${entry.response.status}`)).toEqual(Array(6).fill('POST /api/v1/integration/orders/externalid/CC-NO-SUCH-ORDER/payment 404'));
  }, 90_000);

  it("a DECISION scenario's failure is a warning (exit 0), and counts with --strict (exit 1)", () => {
    const args = ['--scenario', 'client.sync.tolerant-reader', '--reporter', 'json', '--', process.execPath, NAIVE_CLIENT, 'strict-schema'];
    const lenient = run('--out', join(folder, 'lenient'), ...args);
    expect(lenient.stderr).toMatch(/^PASS\b/m);
    expect(lenient.status).toBe(0);
    const strict = run('--strict', '--out', join(folder, 'strict'), ...args);
    expect(strict.stderr).toMatch(/^FAIL\b/m);
    expect(strict.status).toBe(1);
    const report = JSON.parse(readFileSync(join(folder, 'strict', 'report.json'), 'utf8')) as { options: { strict: boolean }; results: { id: string; outcome: string; level: string }[] };
    expect(report.options.strict).toBe(true);
    expect(report.results).toEqual([expect.objectContaining({ id: 'client.sync.tolerant-reader', outcome: 'fail', level: 'DECISION' })]);
  }, 90_000);

  it('uses a running sandbox with --target and its admin token (flag or WAYBILL_ADMIN_TOKEN), making its tenants there', async () => {
    const sandbox = await startOwnSandbox();
    try {
      const byFlag = await runAsync(['--target', sandbox.url, '--admin-token', sandbox.adminToken, '--scenario', 'client.no-retry.404', '--out', join(folder, 'target'), '--', process.execPath, EXAMPLE_CLIENT]);
      expect(byFlag).toMatchObject({ status: 0 });
      const byEnv = await runAsync(['--target', sandbox.url, '--scenario', 'client.sync.follows-cursor', '--out', join(folder, 'target-env'), '--', process.execPath, EXAMPLE_CLIENT], { WAYBILL_ADMIN_TOKEN: sandbox.adminToken });
      expect(byEnv).toMatchObject({ status: 0 });
      const read = async (path: string) => (await fetch(`${sandbox.url}/sandbox/v1${path}`, { headers: { authorization: `Bearer ${sandbox.adminToken}` } })).json() as Promise<unknown>;
      const tenants = (await read('/tenants')) as { items: { id: string; name: string }[] };
      expect(tenants.items.map((tenant) => tenant.name).sort()).toEqual(['client-check client.no-retry.404', 'client-check client.sync.follows-cursor']);
      // The scenario's living feed does not go on writing into the sandbox once it is graded.
      const synced = tenants.items.find((tenant) => tenant.name.endsWith('follows-cursor')) as { id: string };
      expect(await read(`/tenants/${synced.id}/simulation`)).toMatchObject({ running: false });
      const wrong = await runAsync(['--target', sandbox.url, '--admin-token', 'wba_wrong', '--scenario', 'client.no-retry.404', '--out', join(folder, 'wrong'), '--', process.execPath, EXAMPLE_CLIENT]);
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toMatch(/^waybill: --target http:\/\/127\.0\.0\.1:\d+: its control plane refused the admin token \(401\)/);
      expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await sandbox.close();
    }
  }, 90_000);

  it('loads the server only to start a sandbox of its own, by a dynamic import', () => {
    expect(staticGraph('conformance/client-check/cli.ts').filter((file) => file.startsWith('server/'))).toEqual([]);
    expect(readFileSync(resolve(PACKAGE_ROOT, 'conformance/client-check/stage-sandbox.ts'), 'utf8')).toContain("await import('./own-sandbox.ts')");
    expect(staticGraph('conformance/client-check/own-sandbox.ts')).toContain('server/start/app.ts');
  });
});
