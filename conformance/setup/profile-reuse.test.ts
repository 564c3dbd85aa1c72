/**
 * A profile used again, and a run that cleans up (issue 26, D67 and D68), as a user meets
 * them against the reference: a saved profile run a second time is refused in one line
 * naming `waybill profile refill`; refilled, it runs whole again; and a run archives the
 * tenants it made (named with its time) unless they are kept.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { memoryStore, type RunningServer, sandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';
import { main as conformance } from '../cli.ts';
import type { Profile } from '../engine/types/profile.ts';
import type { RunReport } from '../engine/types/report.ts';
import { main as profileCommand } from './profile-cli.ts';

let server: RunningServer;
let stderr: MockInstance;
const printed = (spy: MockInstance) => spy.mock.calls.map(([text]) => String(text)).join('');

beforeAll(async () => {
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN, bodyIdleTimeoutMs: 1000 });
});
afterAll(() => server.close());
beforeEach(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

const tempDir = () => mkdtempSync(join(tmpdir(), 'waybill-reuse-'));
const report = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
const run = (args: string[], out = tempDir()) => conformance(['--target', server.url, ...args, '--out', out, '--reporter', 'json', '--seed', '3']);

/** Every tenant of the sandbox: name and state. */
async function tenants(): Promise<{ id: string; name: string; state: string }[]> {
  return (await sandboxClient(server.url)('listTenants', '/tenants')).body.items;
}

describe('a saved profile used again (D67)', () => {
  // The rateLimited key's bucket (5 a minute) is still empty from the run a moment before, and
  // the rate-limit checks would wait up to a minute for it to refill: left out of these runs.
  const again = ['--skip', 'ratelimit'];

  it('runs again on the ids it has left; spent, it is refused in one line naming the refill; refilled, it runs whole', async () => {
    const file = join(tempDir(), 'profile.json');
    expect(await run(['--provision', '--admin-token', TEST_ADMIN_TOKEN, '--save-profile', file, '--only', 'discovery.whoami'])).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const cancel = (externalId: string) =>
      fetch(`${server.url}/api/v1/integration/orders/externalid/${encodeURIComponent(externalId)}/cancel`, { method: 'POST', headers: { 'x-api-key': saved.keys.full } });

    // Partly spent (a whole run needs 16 of the cancellable pool's 20): the run keeps to the 16 left.
    for (const externalId of saved.orders!.cancellable!.slice(0, 4)) await cancel(externalId);
    const second = tempDir();
    expect(await run(['--profile', file, ...again], second)).toBe(0);
    expect(report(second).results.filter((result) => result.outcome === 'skip').map((result) => [result.id, result.reason])).toEqual([]);
    expect(report(second).profile.pools['cancellable']).toBe(16);

    // Spent by hand: every order of the cancellable pool cancelled.
    for (const externalId of saved.orders!.cancellable!) await cancel(externalId);
    stderr.mockClear();
    expect(await run(['--profile', file, ...again])).toBe(2);
    const lines = printed(stderr).split('\n').filter(Boolean);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^waybill: ${file}: its pools cannot fill this run \\(used by earlier runs\\?\\): orders\\.cancellable: 0 of its 20 ids still name an order in New, InPlanning or Planned \\(D11\\), (its check needs|its \\d+ checks need) \\d+`))]);
    expect(lines[0]).toContain(`; refill them with \`waybill profile refill ${file}\`, or leave those checks out with --skip`);

    const wrong = join(tempDir(), 'wrong.json');
    writeFileSync(wrong, JSON.stringify({ ...saved, sandbox: { ...saved.sandbox, token: 'wrong' } }));
    await expect(profileCommand(['refill', wrong])).rejects.toThrow(`${wrong} sandbox ${server.url}/sandbox/v1: its control plane refused the admin token (401); give the token that sandbox printed`);

    expect(await profileCommand(['refill', file])).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const refilled = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const sizes = (profile: Profile) => Object.fromEntries(Object.entries(profile.orders!).map(([pool, ids]) => [pool, ids.length]));
    expect(sizes(refilled)).toEqual(sizes(saved));
    expect({ ...refilled, orders: undefined }).toEqual({ ...saved, orders: undefined });
    expect(refilled.orders!.cancellable!.every((id) => id.startsWith('WB-REFILL-'))).toBe(true);

    const third = tempDir();
    expect(await run(['--profile', file, ...again], third)).toBe(0);
    expect(report(third).results.filter((result) => result.outcome === 'skip').map((result) => [result.id, result.reason])).toEqual([]);
    expect(report(third).profile.pools['cancellable']).toBe(20);
  }, 240_000);

  it('refill refuses a profile without a sandbox, naming what to do instead', async () => {
    const file = join(tempDir(), 'profile.json');
    expect(await run(['--provision', '--admin-token', TEST_ADMIN_TOKEN, '--save-profile', file, '--only', 'discovery.whoami'])).toBe(0);
    const { sandbox: _none, ...bare } = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const bareFile = join(tempDir(), 'bare.json');
    writeFileSync(bareFile, JSON.stringify(bare));
    await expect(profileCommand(['refill', bareFile])).rejects.toThrow(`${bareFile}: the profile has no sandbox, so its pools cannot be refilled through a control plane; give fresh external ids in them by hand`);
  }, 60_000);
});

describe('a run cleans up after itself (D68)', () => {
  it('names its tenants with its time and archives every one it made; --keep-tenants keeps them; a saved profile keeps its own', async () => {
    const before = new Set((await tenants()).map((tenant) => tenant.id));
    const made = async () => (await tenants()).filter((tenant) => !before.has(tenant.id) && (before.add(tenant.id), true));

    expect(await run(['--provision', '--admin-token', TEST_ADMIN_TOKEN, '--only', 'sandbox'])).toBe(0);
    const cleaned = await made();
    expect(cleaned.length).toBeGreaterThan(3);
    expect(cleaned.every((tenant) => /^waybill conformance \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ( \((main|other tenant|suspended)\))?$/.test(tenant.name)), cleaned.map((t) => t.name).join()).toBe(true);
    expect(cleaned.filter((tenant) => tenant.state !== 'Archived').map((tenant) => [tenant.name, tenant.state])).toEqual([]);
    // sandbox.profiles archives the three tenants of the profile it provisions itself (D68); the run, the rest.
    expect(printed(stderr)).toContain(`archived the ${cleaned.length - 3} tenants this run created (--keep-tenants keeps them)`);

    expect(await run(['--provision', '--admin-token', TEST_ADMIN_TOKEN, '--only', 'sandbox', '--keep-tenants'])).toBe(0);
    const kept = await made();
    expect(kept.length).toBe(cleaned.length);
    expect(kept.filter((tenant) => tenant.state !== 'Archived').length).toBeGreaterThan(3);

    const file = join(tempDir(), 'profile.json');
    expect(await run(['--provision', '--admin-token', TEST_ADMIN_TOKEN, '--only', 'sandbox', '--save-profile', file])).toBe(0);
    const saved = await made();
    // Only the saved profile's three stay (sandbox.profiles' own profile is archived like the rest).
    const stayed = saved.filter((tenant) => tenant.state !== 'Archived');
    expect(stayed.map((tenant) => `${tenant.name.replace(/^.* \(/, '(')} ${tenant.state}`).sort()).toEqual(['(main) Active', '(other tenant) Active', '(suspended) Suspended']);
    expect(printed(stderr)).toContain(`; the profile's tenants stay, saved in ${file}`);
  }, 120_000);
});
