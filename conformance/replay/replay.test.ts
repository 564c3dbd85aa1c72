/**
 * `waybill replay`, end to end as a user meets it (issue 41 item 3, D94). A conformance run
 * against a deliberately broken reference fails a check; replayed while the target is still
 * broken it is STILL FAILING (exit 1), once the target is fixed FIXED (exit 0), and with a
 * profile that lacks what the check needs NOT REPRODUCED (exit 2). A run-level check is
 * replayed with the checks whose exchanges it quoted, so a target still broken never passes it
 * for want of requests. A client-check run of a client that sends each retry of a payment under
 * a new Idempotency-Key fails client.pay.answer-lost; replayed as the report names the client it
 * is STILL FAILING until the client is fixed, then FIXED; a fixed client under another command
 * is given after `--`; a command line with a secret redacted out of it is refused.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { main as conformance } from '../cli.ts';
import { main as replay } from './cli.ts';
import { brokenVariants } from '../../dev/suite-proof/broken.ts';
import { type ReferenceTarget, startReference } from '../../dev/testing/conformance/reference.ts';
import { type ProxiedRequest, type RunningProxy, startProxy } from '../../dev/testing/conformance/proxy.ts';
import { main as clientCheck } from '../client-check/cli.ts';
import type { RunReport } from '../engine/types/report.ts';
import { EXAMPLE_CLIENT } from '../../dev/testing/client-check/check-client.ts';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import type { ReplayReport } from './verdicts.ts';

let stdout: MockInstance;
let stderr: MockInstance;
const printed = (spy: MockInstance) => spy.mock.calls.map(([text]) => String(text)).join('');

/** What the target in front of the reference breaks right now: the flag a fix turns off. */
let breaks: 'revoked key' | 'problem title' | 'nothing' = 'nothing';
let reference: ReferenceTarget;
let proxy: RunningProxy;
let profileFile: string;

beforeAll(async () => {
  reference = await startReference();
  const revoked = brokenVariants['a revoked key accepted']!.proxy!(reference.profile);
  const untitled = brokenVariants['a 400 without title']!.proxy!(reference.profile);
  proxy = await startProxy(reference.server.url, {
    request: (request: ProxiedRequest) => (breaks === 'revoked key' ? revoked.request!(request) : request),
    answer: (answer, request, resend, body) => (breaks === 'problem title' ? untitled.answer!(answer, request, resend, body) : answer),
  });
  profileFile = join(tempDir(), 'profile.json');
  writeFileSync(profileFile, JSON.stringify({ ...reference.profile, target: proxy.url }));
});
afterAll(async () => {
  await proxy?.close();
  await reference?.close();
});
beforeEach(() => {
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  breaks = 'nothing';
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'waybill-replay-'));
}

/** A conformance run of `only` against the proxy with the profile file, seed 7, reports in a new folder; its exit code and folder. */
async function runSuite(only: string): Promise<{ exit: number; out: string }> {
  const out = join(tempDir(), 'run');
  const exit = await conformance(['--target', proxy.url, '--profile', profileFile, '--only', only, '--seed', '7', '--out', out, '--reporter', 'console,json,html']);
  return { exit, out };
}

/** `waybill replay argv…`: its exit code and what it printed, the output spies cleared. */
async function replayed(argv: string[]): Promise<{ exit: number; out: string; err: string }> {
  stdout.mockClear();
  stderr.mockClear();
  const exit = await replay(argv);
  return { exit, out: printed(stdout), err: printed(stderr) };
}

/**
 * A client in a folder of its own: the example client, with a new Idempotency-Key on each
 * retry until a file `fixed` lies beside it (the fix, made where the command stays the same).
 */
function fixableClient(): { folder: string; file: string } {
  const folder = mkdtempSync(join(tmpdir(), 'waybill-replay-client-'));
  const file = join(folder, 'client.mjs');
  writeFileSync(
    file,
    [
      "import { existsSync } from 'node:fs';",
      `import { defaultPolicy, pageSizeOf, runTask } from ${JSON.stringify(join(PACKAGE_ROOT, EXAMPLE_CLIENT))};`,
      "const fixed = existsSync(new URL('./fixed', import.meta.url));",
      'const policy = fixed ? defaultPolicy : { ...defaultPolicy, idempotencyKeyFor: (key, attempt) => `${key}-${attempt}` };',
      'process.exitCode = await runTask(process.env, policy, pageSizeOf(process.argv));',
      '',
    ].join('\n'),
  );
  return { folder, file };
}

function replayJson(dir: string): ReplayReport {
  return JSON.parse(readFileSync(join(dir, 'replay.json'), 'utf8')) as ReplayReport;
}

describe('waybill replay of a conformance report', () => {
  it('a failed check is STILL FAILING while the target is broken (exit 1), FIXED once it is fixed (exit 0), and NOT REPRODUCED when the profile lacks its key (exit 2)', async () => {
    breaks = 'revoked key';
    const run = await runSuite('auth.key.revoked,auth.key.missing');
    expect(run.exit).toBe(1);
    // The report's failure section says how to replay it, in the console and in report.html.
    const command = `waybill replay ${run.out} --profile ${profileFile}`;
    expect(printed(stdout)).toContain(`Once fixed, replay the failed checks (the same target and seed):\n  ${command}\n`);
    expect(readFileSync(join(run.out, 'report.html'), 'utf8')).toContain(`<code>${command}</code>`);

    const still = await replayed([run.out, '--profile', profileFile]);
    expect(still.exit).toBe(1);
    expect(still.out).toContain(`replaying 1 failed check of ${join(run.out, 'report.json')} (waybill conformance `);
    expect(still.out).toMatch(/\n {2}STILL FAILING {3}auth\.key\.revoked \(\d+ ms\) — 6 findings\n/);
    expect(still.out).toContain('\nSTILL FAILING auth.key.revoked [SHOULD] every operation answers 401 to a revoked key\n  1) orderFeed with the revoked key: GET /api/v1/integration/orders → 200');
    expect(still.err).toMatch(/^replay: 0 FIXED, 1 STILL FAILING, 0 NOT REPRODUCED \(exit 1, [\d.]+ m?s\)$/m);
    expect(replayJson(run.out)).toMatchObject({ seed: 7, target: proxy.url, counts: { FIXED: 0, 'STILL FAILING': 1, 'NOT REPRODUCED': 0 }, exitCode: 1, checks: [{ id: 'auth.key.revoked', verdict: 'STILL FAILING', was: 'fail', now: 'fail' }] });

    breaks = 'nothing';
    const fixed = await replayed([run.out, '--profile', profileFile]);
    expect(fixed.exit).toBe(0);
    expect(fixed.out).toMatch(/\n {2}FIXED {11}auth\.key\.revoked \(\d+ ms\)\n/);
    expect(fixed.err).toMatch(/^replay: 1 FIXED, 0 STILL FAILING, 0 NOT REPRODUCED \(exit 0, [\d.]+ m?s\)$/m);
    expect(replayJson(run.out).checks).toEqual([expect.objectContaining({ id: 'auth.key.revoked', verdict: 'FIXED', was: 'fail', now: 'pass', findings: [] })]);

    const { revoked: _revoked, ...keys } = reference.profile.keys;
    const lacking = join(tempDir(), 'no-revoked.json');
    writeFileSync(lacking, JSON.stringify({ ...reference.profile, target: proxy.url, keys }));
    const unreproduced = await replayed([run.out, '--profile', lacking, '--out', join(tempDir(), 'elsewhere')]);
    expect(unreproduced.exit).toBe(2);
    expect(unreproduced.out).toMatch(/\n {2}NOT REPRODUCED {2}auth\.key\.revoked — skipped: profile has no keys\.revoked\n/);
    expect(unreproduced.err).toContain('warning: the profile has no revoked, which the run\'s profile had');
    expect(unreproduced.err).toMatch(/^replay: 0 FIXED, 0 STILL FAILING, 1 NOT REPRODUCED \(exit 2, /m);
  });

  it('replays a run-level check with the checks whose exchanges its findings quote: STILL FAILING while broken, FIXED once fixed', async () => {
    breaks = 'problem title';
    const run = await runSuite('feeds.orders.limit.invalid,discovery.responses.contract');
    expect(run.exit).toBe(1);
    const still = await replayed([run.out, '--profile', profileFile]);
    expect(still.exit).toBe(1);
    expect(still.out).toMatch(/ {2}STILL FAILING {3}discovery\.responses\.contract \(\d+ ms\) — \d+ findings? \(judged with 1 check whose requests it quoted\)/);
    expect(replayJson(run.out).checks).toEqual([expect.objectContaining({ id: 'discovery.responses.contract', verdict: 'STILL FAILING', with: ['feeds.orders.limit.invalid'] })]);
    breaks = 'nothing';
    expect((await replayed([run.out, '--profile', profileFile])).exit).toBe(0);
    expect(replayJson(run.out).checks).toEqual([expect.objectContaining({ id: 'discovery.responses.contract', verdict: 'FIXED' })]);
  });

  it('a report with no failure: nothing to replay, exit 0, no replay.json', async () => {
    const run = await runSuite('auth.key.missing');
    expect(run.exit).toBe(0);
    expect(printed(stdout)).not.toContain('waybill replay');
    const nothing = await replayed([run.out, '--profile', profileFile]);
    expect(nothing.exit).toBe(0);
    expect(nothing.out).toBe(`nothing to replay: no check of ${join(run.out, 'report.json')} failed (PASS)\n`);
    expect(existsSync(join(run.out, 'replay.json'))).toBe(false);
  });
});

describe('waybill replay: usage errors exit 2 before anything is sent', () => {
  it('a folder without report.json, a --check that did not fail, and a conformance report without a profile', async () => {
    const empty = tempDir();
    expect((await replayed([empty, '--provision'])).err).toBe(`waybill: ${empty}: no report.json there (a run writes it with the json reporter, the default; a run with --reporter console alone leaves nothing to replay; see waybill replay --help)\n`);
    expect((await replayed([join(empty, 'nope')])).err).toContain('nope: no such folder');

    breaks = 'revoked key';
    const run = await runSuite('auth.key.revoked,auth.key.missing');
    breaks = 'nothing';
    const notFailed = await replayed([run.out, '--profile', profileFile, '--check', 'auth.key.missing,auth.nosuch']);
    expect(notFailed.exit).toBe(2);
    expect(notFailed.err).toBe('waybill: --check auth.key.missing,auth.nosuch: only a failed check is replayed; auth.key.missing ended pass; auth.nosuch is no check of the report (the failed checks: auth.key.revoked; see waybill replay --help)\n');
    const noProfile = await replayed([run.out]);
    expect(noProfile.exit).toBe(2);
    expect(noProfile.err).toContain("the report holds no keys (they are secrets): give --profile FILE (the profile the run used, or the one --save-profile kept) or --provision");
    expect((await replayed([run.out, '--profile', profileFile, '--', 'node', 'client.mjs'])).err).toContain('-- COMMAND: not for a waybill conformance report');
    expect(printed(stdout)).toBe('');
  });
});

describe('waybill replay of a client-check report', () => {
  it('runs the failed scenario again with the client the report names: STILL FAILING, then FIXED once the client is fixed; another command after --', async () => {
    const client = fixableClient();
    const out = join(client.folder, 'report');
    expect(await clientCheck(['--scenario', 'client.pay.answer-lost,client.pay.json-body', '--out', out, '--reporter', 'console,json', '--', process.execPath, client.file])).toBe(1);
    expect(printed(stdout)).toContain(`Once fixed, replay the failed scenarios (the same client command and seed):\n  waybill replay ${out}\n`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;

    const still = await replayed([out]);
    expect(still.exit).toBe(1);
    expect(still.out).toContain(`replaying 1 failed scenario of ${join(out, 'report.json')} (waybill client-check `);
    expect(still.out).toMatch(/\n {2}STILL FAILING {3}client\.pay\.answer-lost \(\d+ ms\) — 1 finding\n/);
    expect(still.out).toContain('1) The retry carried a new Idempotency-Key');
    const first = replayJson(out);
    expect(first).toMatchObject({ seed: report.seed, client: report.client, exitCode: 1, checks: [{ id: 'client.pay.answer-lost', verdict: 'STILL FAILING' }] });

    writeFileSync(join(client.folder, 'fixed'), '');
    const fixed = await replayed([out]);
    expect(fixed.exit).toBe(0);
    expect(fixed.out).toMatch(/\n {2}FIXED {11}client\.pay\.answer-lost \(\d+ ms\)\n/);
    expect(fixed.err).toMatch(/^replay: 1 FIXED, 0 STILL FAILING, 0 NOT REPRODUCED \(exit 0, /m);

    const other = await replayed([out, '--check', 'client.pay.answer-lost', '--', process.execPath, join(PACKAGE_ROOT, EXAMPLE_CLIENT)]);
    expect(other.exit).toBe(0);
    expect(other.out).toContain(`, client ${process.execPath} ${join(PACKAGE_ROOT, EXAMPLE_CLIENT)} (given after --)\n`);
    expect(other.out).toMatch(/FIXED {11}client\.pay\.answer-lost/);
    expect((replayJson(out)).client?.command).toContain(EXAMPLE_CLIENT);

    // A secret in the command line is redacted in the report: the line cannot be run as it stands.
    writeFileSync(join(out, 'report.json'), JSON.stringify({ ...report, client: { command: `${report.client!.command} --token '<redacted:adminToken>'` } }));
    const redacted = await replayed([out]);
    expect(redacted.exit).toBe(2);
    expect(redacted.err).toContain("the report's client command had a secret in it, which the report leaves out");
    expect(redacted.err).toContain("give the client's command after --, e.g. waybill replay DIR -- node client.mjs");
    expect((await replayed([out, '--provision'])).err).toContain('--provision: not for a waybill client-check report');
  });
});
