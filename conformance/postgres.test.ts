/**
 * The conformance suite against the sandbox on PostgreSQL, as a user runs both: `waybill
 * serve --db postgres://…` in a process of its own, and `waybill conformance --provision`
 * against it, as one process and as two workers on one port. Every check runs; the run must
 * pass with nothing left ungraded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, releaseCluster, skipWithoutPostgres } from '../dev/testing/postgres.ts';
import { main as conformance } from './cli.ts';
import type { RunReport } from './engine/types/report.ts';

const bin = fileURLToPath(new URL('../bin/waybill.js', import.meta.url));
const ADMIN_TOKEN = 'wba_conformance-on-postgres-admin-token';

// One process, and two workers on one port (D83): the promises the suite grades hold across processes (D81, D82).
describe.skipIf(skipWithoutPostgres('conformance')).each([1, 2])('the conformance suite with --provision against a sandbox on PostgreSQL, --workers %i', (workers) => {
  let work: string;
  let child: ChildProcess | undefined;
  let url: string;
  let database: string;
  let banner = '';
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'waybill-conformance-pg-'));
    database = await freshDatabase();
    child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--quiet', '--admin-token-file', 'none', '--workers', String(workers), '--db', database], {
      cwd: work, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (chunk) => {
        out += chunk;
        const listening = /listening on (\S+)\n[\s\S]*\n\n/.exec(out);
        banner = out;
        if (listening) resolve(listening[1]!);
      });
      child!.stderr!.on('data', (chunk) => (out += chunk));
      child!.once('exit', (code) => reject(new Error(`waybill serve exited (${code}): ${out}`)));
    });
  }, 60_000);
  afterAll(async () => {
    // Its workers stopped too before the next sandbox starts (or the cluster stops).
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
    await releaseCluster();
  });

  it('passes every check, none skipped or broken', { timeout: 600_000 }, async () => {
    const out = join(work, 'run');
    const quiet = [vi.spyOn(process.stdout, 'write').mockImplementation(() => true), vi.spyOn(process.stderr, 'write').mockImplementation(() => true)];
    let code: number;
    try {
      code = await conformance(['--target', url, '--provision', '--admin-token', ADMIN_TOKEN, '--out', out, '--seed', '23', '--reporter', 'json']);
    } finally {
      for (const spy of quiet) spy.mockRestore();
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    const notPassed = report.results.filter((result) => result.outcome !== 'pass').map((result) => `${result.id}: ${result.outcome} ${result.reason ?? result.error?.message ?? JSON.stringify(result.findings.map(({ message, expected, received }) => ({ message, expected, received })))}`);
    expect(notPassed).toEqual([]);
    expect(report.verdict).toEqual({ verdict: 'PASS', reasons: [] });
    expect(report.counts.checks).toBeGreaterThan(100);
    expect(code).toBe(0);
    // It was PostgreSQL that served: the banner names the database, which holds the tenants --provision made.
    expect(banner).toContain(`  database: ${database}\n`);
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      expect((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM tenants')).rows[0]!.n).toBeGreaterThan(1);
    } finally {
      await client.end();
    }
  });
});
