/**
 * Prism as an independent witness (issue "Prism: the stateless mock"): the suite through
 * Prism's validation proxy finds no violation on the reference, does find one on a broken
 * reference, and a run against the stateless mock reads as a mock should.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startMock } from '../mock/server.ts';
import { memoryStore, startServer } from '../dev/testing/sandbox.ts';
import { timedStart } from '../dev/testing/start-times.ts';
import { main } from './cli.ts';
import { startProxy } from '../dev/testing/conformance/proxy.ts';
import type { RunReport } from './engine/types/report.ts';

const ADMIN_TOKEN = 'prism-test-admin-token';
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs `waybill conformance` with `args` and returns the exit code and report.json. */
async function conformance(args: string[]): Promise<{ code: number; report: RunReport }> {
  const out = mkdtempSync(join(tmpdir(), 'waybill-prism-'));
  dirs.push(out);
  const code = await main([...args, '--out', out, '--reporter', 'json', '--seed', '7']);
  return { code, report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport };
}

/** The reference with its control plane, on an ephemeral port. */
async function reference(): Promise<string> {
  const server = await startServer(await memoryStore(), { adminToken: ADMIN_TOKEN, bodyIdleTimeoutMs: 1000 });
  cleanups.push(server.close);
  return server.url;
}

describe('the suite through the Prism validation proxy', () => {
  it('reports zero violations against the reference, and every check passes', async () => {
    const target = await reference();
    const { code, report } = await conformance(['--target', target, '--provision', '--admin-token', ADMIN_TOKEN, '--via-prism']);
    const contract = report.results.find((result) => result.id === 'contract.prism');
    expect(contract?.findings.map((f) => `${f.message}: ${f.received}`)).toEqual([]);
    expect(contract?.outcome).toBe('pass');
    // The report names the implementation, not the proxy in front of it.
    expect(report.target).toBe(target);
    expect(report.results.filter((result) => result.outcome !== 'pass' && result.outcome !== 'skip').map((result) => result.id)).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('reports a violation when the answer breaks the spec', async () => {
    const target = await reference();
    // A reference whose whoami leaves out `keyId`: Prism must say so.
    const proxy = await startProxy(target, {
      answer: (answer, request) => {
        if (!request.url.startsWith('/api/v1/integration/whoami') || answer.status !== 200) return answer;
        const { keyId: _dropped, ...rest } = JSON.parse(answer.body.toString()) as Record<string, unknown>;
        const body = Buffer.from(JSON.stringify(rest));
        return { ...answer, headers: { ...answer.headers, 'content-length': String(body.length) }, body };
      },
    });
    cleanups.push(proxy.close);
    const { report } = await conformance(['--target', proxy.url, '--provision', '--admin-token', ADMIN_TOKEN, '--via-prism', '--only', 'discovery,contract']);
    const contract = report.results.find((result) => result.id === 'contract.prism');
    expect(contract?.outcome).toBe('fail');
    expect(contract?.findings.some((f) => f.message.includes('/api/v1/integration/whoami') && /keyId/.test(f.received))).toBe(true);
  }, 120_000);
});

describe('the suite against the stateless mock, as `waybill mock` serves it', () => {
  it('passes the shape checks, and fails or skips the stateful ones with a reason', async () => {
    const prism = await timedStart('prism', () => startMock({ dynamic: false, verbose: false }));
    cleanups.push(prism.stop);
    const profileFile = join(mkdtempSync(join(tmpdir(), 'waybill-mock-profile-')), 'profile.json');
    dirs.push(join(profileFile, '..'));
    const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    const profile = {
      keys: { full: 'mock-full', ordersRead: 'mock-or', tripsRead: 'mock-tr', noScopes: 'mock-none', otherTenant: 'mock-other', revoked: 'mock-revoked' },
      orders: { payable: ids('PAY', 20), cancellable: ids('CAN', 10), notCancellable: ids('NOT', 10), archivable: ids('ARC', 10), otherTenant: ids('OTH', 5) },
      feeds: { minOrders: 120, minTrips: 120 },
    };
    // Pools are verified, not trusted: the mock's feed holds none of the profile's ids, so the
    // run is refused before it starts, naming the pools (D67).
    writeFileSync(profileFile, JSON.stringify(profile));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const refused = await main(['--target', prism.url, '--profile', profileFile, '--out', join(tmpdir(), 'waybill-never-written')]);
    const said = stderr.mock.calls.map(([text]) => String(text)).join('');
    stderr.mockRestore();
    expect(refused).toBe(2);
    expect(said).toMatch(/its pools cannot fill this run .*orders\.payable: 0 of its 20 ids still name a live order/);
    // Without pools the run goes ahead, and the checks that need an order in a state skip, naming the pool.
    const { orders: _pools, ...withoutPools } = profile;
    writeFileSync(profileFile, JSON.stringify(withoutPools));
    const { code, report } = await conformance(['--target', prism.url, '--profile', profileFile]);
    const outcome = new Map(report.results.map((result) => [result.id, result]));
    // Shapes: the mock serves the spec's own examples.
    for (const id of ['discovery.whoami.shape', 'auth.key.missing', 'auth.problem.unauthorized', 'feeds.orders.order', 'http.mediaType.wrong']) {
      expect(outcome.get(id)?.outcome, id).toBe('pass');
    }
    // State: a mock keeps none, so rules about what happened before cannot hold.
    for (const id of ['auth.key.invalid', 'feeds.orders.limit.cap', 'feeds.orders.walk.same-items']) {
      expect(outcome.get(id)?.outcome, id).toBe('fail');
    }
    for (const [id, pool] of [['writes.archive.noContent', 'archivable'], ['writes.cancel.illegal', 'notCancellable'], ['idempotency.inflight', 'payable']] as const) {
      expect(outcome.get(id)?.outcome, id).toBe('skip');
      expect(outcome.get(id)?.reason, id).toMatch(new RegExp(`orders\\.${pool}`));
    }
    // Nothing breaks the suite itself, and every non-pass says why.
    for (const result of report.results) {
      expect(result.outcome, result.id).not.toBe('error');
      if (result.outcome === 'fail') expect(result.findings.length, result.id).toBeGreaterThan(0);
      if (result.outcome === 'skip') expect(result.reason, result.id).toBeTruthy();
    }
    expect(code).toBe(1);
  }, 120_000);
});
