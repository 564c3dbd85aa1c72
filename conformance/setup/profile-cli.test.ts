/** `waybill profile env` (D67): export lines named as the replay lines name the keys, each value one shell word whatever it holds. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { curlLine } from '../transport/replay.ts';
import { createRedactor, profileSecrets } from '../transport/redaction.ts';
import type { Profile } from '../engine/types/profile.ts';
import { exportLines, main, profileEnvLine } from './profile-cli.ts';

const awkward = `it's $(touch pwned) "quoted" \`ticks\` \\ and;more`;
const profile: Profile = {
  keys: { full: awkward, ordersRead: 'wbk_orders', rateLimited: { key: 'wbk_limited', perMinute: 5 } },
  sandbox: { url: 'http://sandbox.invalid/sandbox/v1', token: "wba_'token'" },
};

let stdout: MockInstance;
beforeEach(() => {
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

const sh = (script: string) => promisify(execFile)('sh', ['-c', script]).then(({ stdout: out }) => out);

describe('waybill profile env', () => {
  it('prints one export line per key and the sandbox token, named as the replay lines name them', () => {
    expect(exportLines(profile).split('\n').filter(Boolean).map((line) => line.split('=')[0])).toEqual([
      'export WAYBILL_KEY_FULL',
      'export WAYBILL_KEY_ORDERS_READ',
      'export WAYBILL_KEY_RATE_LIMITED',
      'export WAYBILL_SANDBOX_TOKEN',
    ]);
    // The names are the ones a report's replay line uses for the same secrets.
    const replay = curlLine({ method: 'GET', url: 'http://sandbox.invalid/api/v1/integration/whoami', headers: { 'x-api-key': 'wbk_orders' }, body: null }, createRedactor(profileSecrets(profile)));
    expect(replay).toContain('$WAYBILL_KEY_ORDERS_READ');
  });

  it('quotes each value as one shell word: sourced, the variables hold the keys exactly, and nothing runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-env-'));
    const file = join(dir, 'exports.sh');
    writeFileSync(file, exportLines(profile));
    const out = await sh(`cd ${JSON.stringify(dir)} && . ./exports.sh && printf '%s|%s|%s' "$WAYBILL_KEY_FULL" "$WAYBILL_KEY_RATE_LIMITED" "$WAYBILL_SANDBOX_TOKEN"; ls`);
    expect(out).toBe(`${awkward}|wbk_limited|wba_'token'exports.sh\n`);
  });

  it('reads the file it is given, and the line a run prints runs this very command', async () => {
    const dir = mkdtempSync(join(tmpdir(), "waybill env's "));
    const file = join(dir, 'profile.json');
    writeFileSync(file, JSON.stringify(profile));
    expect(await main(['env', file])).toBe(0);
    expect(stdout.mock.calls.map(([text]) => String(text)).join('')).toBe(exportLines(profile));
    const line = profileEnvLine(file);
    expect(line).toMatch(/^eval "\$\(node '.*\/bin\/waybill\.js' profile env '.*'\)"$/);
    expect(await sh(`${line}; printf '%s' "$WAYBILL_KEY_FULL"`)).toBe(awkward);
  }, 30_000);
});
