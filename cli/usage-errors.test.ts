/**
 * One error path for the whole CLI (issue 26, D66): every command's usage error is exactly one
 * line on stderr, `waybill: …`, nothing on stdout, exit 2; and a control plane that refuses
 * the admin token reads the same whichever command met it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore, type RunningServer, startServer, TEST_ADMIN_TOKEN } from '../dev/testing/sandbox.ts';
import type { Profile } from '../conformance/engine/types/profile.ts';

const bin = fileURLToPath(new URL('../bin/waybill.js', import.meta.url));

/** Runs `waybill …args` in a child process, as a user does. */
function waybill(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: mkdtempSync(join(tmpdir(), 'waybill-usage-')) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const usageErrors: [string[], string][] = [
  [['nosuch'], "unknown command 'nosuch'"],
  [['serve', '--bogus'], "unknown option '--bogus'"],
  [['serve', '--port', 'x'], "option '--port <n>' argument 'x' is invalid"],
  [['mock', '--port', 'abc'], "option '--port <n>' argument 'abc' is invalid"],
  [['mock', '--seed', '3'], '--seed only applies with --dynamic'],
  [['conformance'], "required option '--target <url>' not specified"],
  [['conformance', '--bogus'], "unknown option '--bogus'"],
  [['conformance', '--target', 'http://127.0.0.1:9', '--profile', 'p.json', '--fuzz', 'x'], "option '--fuzz <n>' argument 'x' is invalid"],
  [['conformance', '--target', 'http://127.0.0.1:9/api/v1/integration', '--profile', 'p.json'], '--target is the base URL, without /api/v1/integration'],
  [['client-check', '--bogus'], "give the client's command after --"],
  [['client-check', '--bogus', '--', 'node'], "unknown option '--bogus'"],
  [['replay'], "missing required argument 'report-dir'"],
  [['replay', 'reports/x', '--bogus'], "unknown option '--bogus'"],
  [['replay', 'no-such-folder', '--provision'], 'no-such-folder: no such folder'],
  [['replay', 'reports/x', '--'], "give the client's command after --"],
  [['keys'], 'waybill keys needs a subcommand: generate'],
  [['keys', 'bogus'], "waybill keys: unknown subcommand 'bogus'"],
  [['keys', 'generate', '--bogus'], "unknown option '--bogus'"],
  [['verify'], "missing required argument 'bundle'"],
  [['verify', 'bundle', '--bogus'], "unknown option '--bogus'"],
  [['fixtures'], "required option '--seed <n>' not specified"],
  [['fixtures', '--seed', '1', '--bogus'], "unknown option '--bogus'"],
  [['profile'], 'waybill profile needs a subcommand: env, refill'],
  [['profile', 'bogus'], "waybill profile: unknown subcommand 'bogus'"],
  [['profile', 'env'], "missing required argument 'file'"],
  [['profile', 'refill', 'p.json', '--bogus'], "unknown option '--bogus'"],
  [['profile', 'env', 'no-such-profile.json'], 'no-such-profile.json: cannot read the profile: there is no such file'],
];

describe('every usage error', () => {
  it('is one line on stderr, waybill: …, nothing on stdout, exit 2', async () => {
    const results = await Promise.all(usageErrors.map(async ([args, message]) => ({ args, message, ...(await waybill(args)) })));
    for (const { args, message, status, stdout, stderr } of results) {
      const command = `waybill ${args.join(' ')}`;
      expect(stderr, command).toMatch(/^waybill: [^\n]+\n$/);
      // Each says where to read more: the --help of the command it came from (`waybill profile env`'s for a member of a group).
      const helpOf = args[0] === 'nosuch' ? '' : ` ${args[0]}(?: ${args[1]})?`;
      expect(stderr, command).toMatch(new RegExp(`[(;] ?see waybill${helpOf} --help\\)\\n$`));
      expect(stderr, command).toContain(message);
      expect(stdout, command).toBe('');
      expect(status, command).toBe(2);
    }
  }, 240_000);

  it('names the defaults once: --fuzz is off by default', async () => {
    const help = (await waybill(['conformance', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('after every other check (default: off)');
    expect(help).not.toContain('(default: 0)');
  });
});

describe('a refused admin token', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  });
  afterAll(() => server.close());

  it('reads the same in conformance --provision, client-check --target and profile refill', async () => {
    const profile = join(mkdtempSync(join(tmpdir(), 'waybill-token-')), 'profile.json');
    const provisioned = (await (await fetch(`${server.url}/sandbox/v1/profiles`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).json()) as Profile;
    // A pool whose ids are gone, so that refill has work to do on the control plane.
    writeFileSync(profile, JSON.stringify({ ...provisioned, orders: { ...provisioned.orders, payable: ['GONE-1'] }, sandbox: { ...provisioned.sandbox, token: 'wrong' } }));
    const [conformance, clientCheck, refill] = await Promise.all([
      waybill(['conformance', '--target', server.url, '--provision', '--admin-token', 'wrong']),
      waybill(['client-check', '--target', server.url, '--admin-token', 'wrong', '--', process.execPath, '-e', '0']),
      waybill(['profile', 'refill', profile]),
    ]);
    const sentence = 'its control plane refused the admin token (401); give the token that sandbox printed\n';
    // After the line that says it is provisioning: the refusal is the first answer it gets.
    expect(conformance.stderr.replace(/^provisioning a conformance profile at .*\n/, '')).toBe(`waybill: --target ${server.url}: ${sentence}`);
    expect(clientCheck.stderr).toBe(`waybill: --target ${server.url}: ${sentence}`);
    expect(refill.stderr).toBe(`waybill: ${profile} sandbox ${server.url}/sandbox/v1: ${sentence}`);
    expect([conformance.status, clientCheck.status, refill.status]).toEqual([2, 2, 2]);
  }, 60_000);
});
