/**
 * Ctrl-C during `waybill conformance` (D55), as a user presses it: the real command in a child
 * process against the reference sandbox, interrupted once its first check has answered.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore, type RunningServer, startServer } from '../dev/testing/sandbox.ts';
import { REFERENCE_ADMIN_TOKEN } from '../dev/testing/conformance/reference.ts';
import type { SqliteStore } from '../server/store/index.ts';
import type { RunReport } from './engine/types/report.ts';

const bin = fileURLToPath(new URL('../bin/waybill.js', import.meta.url));
let sandbox: RunningServer<SqliteStore>;

beforeAll(async () => {
  sandbox = await startServer(await memoryStore(), { adminToken: REFERENCE_ADMIN_TOKEN });
});
afterAll(() => sandbox?.close());

/** The state of every tenant of the sandbox, by name. */
async function tenantStates(): Promise<Array<{ name: string; state: string }>> {
  const response = await fetch(`${sandbox.url}/sandbox/v1/tenants?limit=100`, { headers: { authorization: `Bearer ${REFERENCE_ADMIN_TOKEN}` } });
  const body = (await response.json()) as { items: Array<{ name: string; state: string }> };
  return body.items.map(({ name, state }) => ({ name, state }));
}

describe('waybill conformance interrupted by Ctrl-C', () => {
  it('says so in a line, writes the partial report marked INCOMPLETE, archives the tenants it created and exits 130', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'waybill-interrupt-')), 'report');
    const child = spawn(process.execPath, [bin, 'conformance', '--target', sandbox.url, '--provision', '--admin-token', REFERENCE_ADMIN_TOKEN, '--out', out, '--reporter', 'console,json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Interrupted once the first check has a result line: the profile is provisioned and the checks are running.
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (/^ {2}[✓✗○!⚠] \S+ \(\d+ ms\)/mu.test(stdout) && !child.killed) {
          child.kill('SIGINT');
          resolve();
        }
      });
    });
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/^provisioning a conformance profile at http:\/\/127\.0\.0\.1:\d+ \(three tenants, their keys and orders\)…\nprovisioned in \d/m);
    expect(stderr).toContain("waybill: interrupted: no further check starts; the partial report is written and the run's tenants archived (Ctrl-C again quits at once)");
    expect(stderr).toMatch(/^INCOMPLETE — \d+ checks not graded: the run was interrupted \(SIGINT\) after \d+ of \d+ checks.* \(exit 130, interrupted, [\d.]+ m?s in all, the checks [\d.]+ m?s, \d+ exchanges\)$/mu);
    expect(stderr).toMatch(/^archived the [3-9] tenants this run created/m);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    expect(report.interrupted).toEqual({ signal: 'SIGINT' });
    expect(report.verdict.verdict).toBe('INCOMPLETE');
    const graded = report.results.filter((result) => result.outcome !== 'skip');
    const notRun = report.results.filter((result) => /^not (run|finished): the run was interrupted \(SIGINT\)/.test(result.reason ?? ''));
    expect(graded.length).toBeGreaterThan(0);
    expect(notRun.length).toBeGreaterThan(0);
    // The run's tenants are named after it (D68): none is left Active or Suspended.
    const created = (await tenantStates()).filter((tenant) => tenant.name.startsWith('waybill conformance '));
    expect(created.length).toBeGreaterThanOrEqual(3);
    expect(created.filter((tenant) => tenant.state !== 'Archived')).toEqual([]);
  }, 120_000);
});
