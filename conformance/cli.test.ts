import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { defaultOutDir, main } from './cli.ts';
import { harErrors } from '../dev/testing/conformance/har-schema.ts';
import { answer, closedTargetUrl, conformingHandler, type FakeHandler, type FakeTarget, startFakeTarget, testKeys, testProfile, testScopes } from '../dev/testing/conformance/fake-target.ts';

let stdout: MockInstance;
let stderr: MockInstance;
let target: FakeTarget | undefined;
const printed = (spy: MockInstance) => spy.mock.calls.map(([text]) => String(text)).join('');

beforeEach(() => {
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await target?.close();
  target = undefined;
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'waybill-cli-'));
}

function profileFile(profile: unknown = testProfile()): string {
  const file = join(tempDir(), 'profile.json');
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

describe('waybill conformance: usage errors exit 2', () => {
  it.each([
    [[], "required option '--target <url>' not specified"],
    [['--target', 'ftp://x', '--profile', 'p.json'], 'must be an http or https URL'],
    [['--target', 'not a url', '--profile', 'p.json'], 'not a URL'],
    [['--target', 'http://127.0.0.1:9'], 'one of --profile FILE or --provision is required'],
    [['--target', 'http://127.0.0.1:9', '--profile', 'p.json', '--provision'], "option '--profile <file>' cannot be used with option '--provision'"],
    [['--target', 'http://127.0.0.1:9', '--profile', 'p.json', '--admin-token', 't'], '--admin-token is only used with --provision'],
    [['--target', 'http://127.0.0.1:9', '--profile', 'p.json', '--level', 'may'], "argument 'may' is invalid. Allowed choices are must, should"],
    [['--target', 'http://127.0.0.1:9', '--profile', 'p.json', '--timeout', '0'], "argument '0' is invalid. Must be an integer of at least 1 (see waybill conformance --help)"],
    [['--target', 'http://127.0.0.1:9', '--profile', 'p.json', '--reporter', 'console,pdf'], 'is invalid. Unknown reporter pdf'],
    [['--target', 'http://127.0.0.1:9', '--profile', 'p.json', '--bogus'], "unknown option '--bogus'"],
  ])('%j', async (argv, message) => {
    expect(await main(argv)).toBe(2);
    expect(printed(stderr)).toContain(message);
  });

  it('names an unknown option before a missing required one', async () => {
    expect(await main(['--bogus'])).toBe(2);
    expect(printed(stderr)).toContain("unknown option '--bogus'");
    expect(printed(stderr)).not.toContain('required option');
  });

  it('--provision without a token (flag or WAYBILL_ADMIN_TOKEN)', async () => {
    vi.stubEnv('WAYBILL_ADMIN_TOKEN', '');
    target = await startFakeTarget(conformingHandler());
    expect(await main(['--target', target.url, '--provision'])).toBe(2);
    expect(printed(stderr)).toContain('--provision needs the admin token');
    vi.unstubAllEnvs();
  });

  it('--provision without a token where nothing listens: says that first, in one line', async () => {
    vi.stubEnv('WAYBILL_ADMIN_TOKEN', '');
    const url = await closedTargetUrl();
    expect(await main(['--target', url, '--provision'])).toBe(2);
    expect(printed(stderr)).toBe(`waybill: nothing answers at ${url}: fetch failed (ECONNREFUSED); start the sandbox (waybill serve) or give the URL it listens on\n`);
    vi.unstubAllEnvs();
  });

  it('--target host:port without a scheme suggests the http URL', async () => {
    expect(await main(['--target', 'localhost:4000', '--provision'])).toBe(2);
    expect(printed(stderr)).toContain('--target localhost:4000: must be an http or https URL (try --target http://localhost:4000; see waybill conformance --help)');
  });

  it('--only naming no check', async () => {
    target = await startFakeTarget(conformingHandler());
    expect(await main(['--target', target.url, '--profile', profileFile(), '--only', 'nothing.here', '--out', tempDir()])).toBe(2);
    expect(printed(stderr)).toContain('--only nothing.here: matches no check');
  });

  it('--only naming no check with --provision: refused before anything is provisioned', async () => {
    target = await startFakeTarget(conformingHandler());
    expect(await main(['--target', target.url, '--provision', '--admin-token', 'wba_test', '--only', 'nothing.here', '--out', tempDir()])).toBe(2);
    expect(printed(stderr)).toContain('--only nothing.here: matches no check');
    expect(target.requests).toEqual([]);
  });

  it('a target where nothing listens is a tool error', async () => {
    const url = await closedTargetUrl();
    expect(await main(['--target', url, '--profile', profileFile(), '--out', tempDir()])).toBe(2);
    expect(printed(stderr)).toContain(`cannot reach --target ${url}: fetch failed (ECONNREFUSED)`);
  });

  it('--target with the API path in it: one line, exit 2, before anything is sent', async () => {
    target = await startFakeTarget(conformingHandler());
    const out = join(tempDir(), 'run');
    expect(await main(['--target', `${target.url}/api/v1/integration`, '--profile', profileFile(), '--out', out])).toBe(2);
    expect(printed(stderr)).toBe(`waybill: --target ${target.url}/api/v1/integration: --target is the base URL, without /api/v1/integration (try --target ${target.url}; see waybill conformance --help)\n`);
    expect(target.requests).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it("a target that refuses the profile's full key (another sandbox's profile): one line, exit 2, no check run, no report", async () => {
    target = await startFakeTarget(conformingHandler({}));
    const out = join(tempDir(), 'run');
    expect(await main(['--target', target.url, '--profile', profileFile({ ...testProfile(), target: 'http://sandbox.invalid' }), '--out', out])).toBe(2);
    expect(printed(stderr)).toBe(
      `waybill: --target ${target.url}: GET /api/v1/integration/whoami with the profile's full key answered 401: the full key is refused, so the profile belongs to another sandbox or server (it was made for http://sandbox.invalid); give this target's profile, or --provision one against a waybill sandbox\n`,
    );
    expect(target.requests.map((request) => request.url)).toEqual(['/api/v1/integration/whoami']);
    expect(existsSync(out)).toBe(false);
  });

  it('a target with no integration API: one line, exit 2', async () => {
    target = await startFakeTarget((_request, response) => answer(response, 404, { type: 'about:blank', title: 'Not Found', status: 404 }));
    expect(await main(['--target', target.url, '--profile', profileFile(), '--out', tempDir()])).toBe(2);
    expect(printed(stderr).split('\n').filter(Boolean)).toEqual([expect.stringContaining('answered 404 (problem type about:blank): no Delivery Integration API at this base URL')]);
  });

  it('--help exits 0 with examples and the exit codes', async () => {
    expect(await main(['--help'])).toBe(0);
    const help = printed(stdout);
    expect(help.match(/\n {2}\$ waybill conformance /g)).toHaveLength(8);
    expect(help).toContain('$ waybill profile refill .waybill/profile.json');
    expect(help).toContain('--certify --product product.json --sign-key');
    expect(help).toContain('--fuzz 2000');
    expect(help).toContain('1  at least one MUST or SHOULD check failed');
  });
});

describe('waybill conformance: runs', () => {
  it('writes json, junit and html into --out, prints their paths, and exits 0 on a conforming target', async () => {
    target = await startFakeTarget(conformingHandler());
    const out = join(tempDir(), 'run');
    // The fake target implements whoami only, so the run is limited to the families it can pass.
    expect(await main(['--target', `${target.url}/`, '--profile', profileFile({ ...testProfile(), target: 'http://elsewhere.invalid' }), '--out', out, '--seed', '9', '--only', 'discovery,problems'])).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['exchanges.har', 'junit.xml', 'report.html', 'report.json']);
    expect(printed(stdout)).toContain(`Reports:\n  ${join(out, 'report.json')}\n  ${join(out, 'junit.xml')}\n  ${join(out, 'report.html')}\n  ${join(out, 'exchanges.har')}\n`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { target: string; seed: number; exchangeCount: number; results: { id: string; exchangeCount: number }[] };
    // --target wins over the profile's target, with a warning that they differ.
    expect(report).toMatchObject({ target: target.url, seed: 9 });
    expect(printed(stderr)).toContain(`waybill: warning: --target ${target.url} is not the profile's target http://elsewhere.invalid;`);
    expect(target.requests.length).toBeGreaterThan(0);
    // Every exchange of the run is an entry of exchanges.har, which a HAR 1.2 schema accepts.
    const har = JSON.parse(readFileSync(join(out, 'exchanges.har'), 'utf8')) as { log: { entries: { pageref: string }[] } };
    expect(harErrors(har)).toEqual([]);
    expect(har.log.entries).toHaveLength(report.exchangeCount);
    expect(new Set(har.log.entries.map((entry) => entry.pageref))).toEqual(new Set(report.results.filter((result) => result.exchangeCount > 0).map((result) => result.id)));
  });

  it('exits 1 when a MUST check fails, and only the chosen reporters write (exchanges.har beside them, whichever they are)', async () => {
    target = await startFakeTarget(conformingHandler({ ...testScopes, [testKeys.tripsRead]: ['orders:read', 'trips:read'] }));
    const out = tempDir();
    expect(await main(['--target', target.url, '--profile', profileFile(), '--out', out, '--reporter', 'json', '--only', 'discovery.whoami'])).toBe(1);
    expect(readdirSync(out).sort()).toEqual(['exchanges.har', 'report.json']);
    expect(printed(stdout)).not.toContain('✓');
  });

  it("a feed whose statuses are numbers is the target's failure, not a profile used up: exit 1, the report written, the feed named on stderr", async () => {
    // The archivable pool needs orders neither Planned nor InProgress: read from a feed that reports every status by number.
    const order = (externalId: string, index: number) => ({ id: `00000000-0000-4000-8000-00000000000${index}`, externalId, shortId: `ORD-${index}`, status: 3, miniStatus: null, type: 'Delivery', customId: null, createdAtUtc: '2026-11-01T00:00:00.000Z', updatedAtUtc: `2026-11-01T00:00:0${index}.000Z`, tags: [] });
    const conforming = conformingHandler();
    target = await startFakeTarget((request, response) => {
      if (request.method === 'GET' && request.url?.split('?')[0] === '/api/v1/integration/orders' && request.headers['x-api-key'] === testKeys.full) {
        return answer(response, 200, { items: ['ext-1', 'ext-2', 'ext-3', 'ext-4'].map(order), nextCursor: null });
      }
      return conforming(request, response);
    });
    const out = tempDir();
    expect(await main(['--target', target.url, '--profile', profileFile(), '--out', out, '--reporter', 'json', '--only', 'discovery.responses.contract,writes.archive.noContent'])).toBe(1);
    expect(printed(stderr)).toContain("waybill: warning: the order feed of the full key has items that break the contract: ext-1: /status must be string; ext-2: /status must be string (4 items in all); the profile's pools it holds are not checked before the run, and the checks report the feed");
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: { id: string; outcome: string; reason?: string; findings?: { received: string }[] }[] };
    const byId = new Map(report.results.map((result) => [result.id, result]));
    expect(byId.get('discovery.responses.contract')?.outcome).toBe('fail');
    expect(byId.get('discovery.responses.contract')?.findings?.[0]?.received).toContain('/items/0/status must be string');
    expect(byId.get('writes.archive.noContent')).toMatchObject({ outcome: 'skip', reason: expect.stringContaining("ext-3: the feed's item breaks the contract (/status must be string)") });
  });

  it('prints the one-line verdict on stderr whatever the reporters (json or junit alone too)', async () => {
    for (const reporter of ['json', 'junit', 'console']) {
      stdout.mockClear();
      stderr.mockClear();
      target = await startFakeTarget(conformingHandler({ ...testScopes, [testKeys.tripsRead]: ['orders:read', 'trips:read'] }));
      expect(await main(['--target', target.url, '--profile', profileFile(), '--out', tempDir(), '--reporter', reporter, '--only', 'discovery.whoami'])).toBe(1);
      await target.close();
      target = undefined;
      expect(printed(stderr).match(/FAIL — 1 check failed \(exit 1/g), reporter).toHaveLength(1);
      expect(printed(stdout), reporter).not.toContain('FAIL —');
    }
  });

  it('refuses --out - with a usage error naming the option', async () => {
    expect(await main(['--target', 'http://127.0.0.1:9', '--profile', profileFile(), '--out', '-'])).toBe(2);
    expect(printed(stderr)).toContain('--out -');
  });

  it('defaults --out to reports/<UTC timestamp>', () => {
    expect(defaultOutDir(new Date('2026-11-22T01:40:00.123Z'))).toBe('reports/2026-11-22T01-40-00Z');
  });
});

describe('no secret ever reaches a report', () => {
  const adminToken = 'wb_ADMIN_S3CRET_token_9999';
  const secrets = [...Object.values(testKeys), adminToken];

  /** A target that provisions the test profile, echoes every key it gets, and breaks whoami's scopes so findings carry exchanges. */
  const leakyHandler: FakeHandler = (request, response) => {
    if (request.method === 'POST' && request.url === '/sandbox/v1/profiles') {
      if (request.headers.authorization !== `Bearer ${adminToken}`) return answer(response, 401, { type: 'about:blank', title: 'Unauthorized', status: 401 });
      return answer(response, 201, testProfile());
    }
    const key = String(request.headers['x-api-key'] ?? '');
    response.setHeader('x-echo', `${key} ${String(request.headers.authorization ?? '')}`);
    if (request.url === '/api/v1/integration/whoami' && testScopes[key] !== undefined) {
      return answer(response, 200, { tenantId: `tenant of ${key}`, keyId: key, scopes: ['orders:read', 'orders:write', 'trips:read', key] });
    }
    return answer(response, 404, { type: 'about:blank', title: 'Not Found', status: 404, detail: `no route for key ${key}` });
  };

  it('redacts keys and the admin token from every file and from the console', async () => {
    target = await startFakeTarget(leakyHandler);
    const out = tempDir();
    vi.stubEnv('WAYBILL_ADMIN_TOKEN', adminToken);
    const code = await main(['--target', target.url, '--provision', '--out', out]);
    vi.unstubAllEnvs();
    expect(code).toBe(1);
    const files = readdirSync(out).map((name) => [name, readFileSync(join(out, name), 'utf8')] as const);
    expect(files.map(([name]) => name).sort()).toEqual(['exchanges.har', 'junit.xml', 'report.html', 'report.json']);
    for (const [name, text] of [...files, ['stdout', printed(stdout)] as const, ['stderr', printed(stderr)] as const]) {
      for (const secret of secrets) expect(text.includes(secret), `${secret} in ${name}`).toBe(false);
    }
    // The keys were used and echoed, so redaction (not absence) is what kept them out.
    expect(target.requests.some((request) => request.headers['x-api-key'] === testKeys.full)).toBe(true);
    const json = files.find(([name]) => name === 'report.json')?.[1] ?? '';
    expect(json).toContain('<redacted:ordersRead>');
    expect(json).toContain('\\"$WAYBILL_KEY_ORDERS_READ\\"');
    // exchanges.har holds every exchange whole, the echoed keys included, each redacted.
    const har = files.find(([name]) => name === 'exchanges.har')?.[1] ?? '';
    expect(har).toContain('"name": "x-echo"');
    expect(har).toContain('<redacted:full>');
    expect(har).toContain('<redacted:ordersRead>');
  });
});

describe('--save-profile', () => {
  const adminToken = 'wb_ADMIN_S3CRET_token_9999';
  const provisioningHandler: FakeHandler = (request, response) => {
    if (request.method === 'POST' && request.url === '/sandbox/v1/profiles') return answer(response, 201, testProfile());
    const key = String(request.headers['x-api-key'] ?? '');
    if (request.url === '/api/v1/integration/whoami' && testScopes[key] !== undefined) {
      return answer(response, 200, { tenantId: `tenant of ${key}`, keyId: key, scopes: ['orders:read', 'orders:write', 'trips:read', key] });
    }
    return answer(response, 404, { type: 'about:blank', title: 'Not Found', status: 404 });
  };

  it('writes the provisioned profile (0600) without printing a key, and says how to set the replay variables from it', async () => {
    target = await startFakeTarget(provisioningHandler);
    const file = join(tempDir(), 'saved', 'profile.json');
    vi.stubEnv('WAYBILL_ADMIN_TOKEN', adminToken);
    const code = await main(['--target', target.url, '--provision', '--save-profile', file, '--out', tempDir(), '--only', 'discovery.whoami']);
    vi.unstubAllEnvs();
    expect(code).toBe(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ ...testProfile(), target: target.url });
    const console = printed(stdout) + printed(stderr);
    for (const secret of [...Object.values(testKeys), adminToken]) expect(console.includes(secret), secret).toBe(false);
    const line = /^ {2}(eval .*)$/m.exec(printed(stdout))?.[1];
    expect(line).toContain(file);
    const { stdout: set } = await promisify(execFile)('sh', ['-c', `${line}; printf '%s %s' "$WAYBILL_KEY_FULL" "$WAYBILL_KEY_ORDERS_READ"`]);
    expect(set).toBe(`${testKeys.full} ${testKeys.ordersRead}`);
  });

  it('refuses a file that exists, and a run without --provision', async () => {
    const file = profileFile();
    const before = readFileSync(file, 'utf8');
    vi.stubEnv('WAYBILL_ADMIN_TOKEN', adminToken);
    expect(await main(['--target', 'http://127.0.0.1:9', '--provision', '--save-profile', file])).toBe(2);
    vi.unstubAllEnvs();
    expect(printed(stderr)).toContain(`--save-profile ${file}: the file exists`);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(await main(['--target', 'http://127.0.0.1:9', '--profile', file, '--save-profile', join(tempDir(), 'p.json')])).toBe(2);
    expect(printed(stderr)).toContain('--save-profile is only used with --provision');
  });
});

describe('the waybill binary', () => {
  it('dispatches `waybill conformance` to this CLI (in a child process, as a user runs it)', async () => {
    const bin = fileURLToPath(new URL('../bin/waybill.js', import.meta.url));
    const { stdout: help } = await promisify(execFile)(process.execPath, [bin, 'conformance', '--help']);
    expect(help).toContain('Usage: waybill conformance [options]');
    const usage = await promisify(execFile)(process.execPath, [bin, 'conformance', '--target', 'ftp://x', '--profile', 'p.json']).catch((error: { code: number; stderr: string }) => error);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('must be an http or https URL') });
  });

  it('--provision without a token names the URLs the local admin token file has a token for', async () => {
    const bin = fileURLToPath(new URL('../bin/waybill.js', import.meta.url));
    const cwd = tempDir();
    mkdirSync(join(cwd, '.waybill'));
    writeFileSync(join(cwd, '.waybill', 'admin-token.json'), JSON.stringify([{ url: 'http://127.0.0.1:4999', token: 'wba_elsewhere' }]));
    const env = { ...process.env, WAYBILL_ADMIN_TOKEN: '' };
    target = await startFakeTarget(conformingHandler());
    const run = promisify(execFile)(process.execPath, [bin, 'conformance', '--target', target.url, '--provision'], { cwd, env });
    const failed = await run.catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('has a token for http://127.0.0.1:4999 only') });
    expect((failed as { stderr: string }).stderr).not.toContain('wba_elsewhere');
  });
});
