/**
 * A certification against the reference, end to end through the command line: the bundle
 * verifies, each kind of tampering fails naming the file, and no key or token is in any file
 * of the bundle, in its folder or inside its .tar.gz.
 */
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { create as createTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { main as conformance } from '../cli.ts';
import { provisionProfile } from '../setup/profile.ts';
import { provisionReference, REFERENCE_ADMIN_TOKEN, type ReferenceTarget } from '../../dev/testing/conformance/reference.ts';
import type { Profile } from '../engine/types/profile.ts';
import { main as keys, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE } from './cli-keys.ts';
import { main as verify } from './cli-verify.ts';
import { signBytes } from './keys.ts';
import { sha256 } from './manifest.ts';
import { harErrors } from '../../dev/testing/conformance/har-schema.ts';

const product = { vendor: 'Acme Logistics', product: 'Acme Dispatch', version: '2.3.1', contact: 'certify@acme.example' };
let reference: ReferenceTarget;
let work: string;
let keyDir: string;
let otherKeyDir: string;
let bundleDir: string;
let archive: string;
let exitCode: number;
let profile: Profile;

/** Runs a subcommand's main with stdout and stderr captured. */
async function capture(run: () => Promise<number>): Promise<{ code: number; out: string }> {
  const spies: MockInstance[] = [vi.spyOn(process.stdout, 'write').mockImplementation(() => true), vi.spyOn(process.stderr, 'write').mockImplementation(() => true)];
  try {
    const code = await run();
    return { code, out: spies.flatMap((spy) => spy.mock.calls.map(([text]) => String(text))).join('') };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** A copy of the bundle folder to tamper with. */
function copyOfBundle(): string {
  const copy = join(mkdtempSync(join(tmpdir(), 'waybill-tamper-')), 'certification');
  cpSync(bundleDir, copy, { recursive: true });
  return copy;
}

/** Lists `file`'s new sha256 in the copy's manifest.json and signs it again with the signer's key, as a signer who changed the file would. */
function resign(copy: string, file: string): void {
  const manifestFile = join(copy, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  manifest.files[file] = sha256(readFileSync(join(copy, file)));
  const manifestBytes = Buffer.from(JSON.stringify(manifest));
  writeFileSync(manifestFile, manifestBytes);
  writeFileSync(join(copy, 'manifest.sig'), signBytes(manifestBytes, createPrivateKey(readFileSync(join(keyDir, PRIVATE_KEY_FILE)))));
}

const verifyWithKey = (path: string, key = join(keyDir, PUBLIC_KEY_FILE)) => capture(() => verify([path, '--public-key', key]));

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'waybill-certify-'));
  keyDir = join(work, 'keys');
  otherKeyDir = join(work, 'other-keys');
  expect((await capture(() => keys(['generate', '--out', keyDir]))).code).toBe(0);
  expect((await capture(() => keys(['generate', '--out', otherKeyDir]))).code).toBe(0);
  writeFileSync(join(work, 'product.json'), JSON.stringify(product));
  reference = await provisionReference();
  const out = join(work, 'run');
  const run = await capture(() =>
    conformance([
      '--target', reference.server.url, '--provision', '--admin-token', REFERENCE_ADMIN_TOKEN, '--save-profile', join(work, 'profile.json'),
      '--certify', '--product', join(work, 'product.json'), '--sign-key', join(keyDir, PRIVATE_KEY_FILE), '--out', out, '--seed', '11', '--reporter', 'json',
    ]),
  );
  exitCode = run.code;
  if (run.code !== 0) console.error(run.out);
  profile = JSON.parse(readFileSync(join(work, 'profile.json'), 'utf8')) as Profile;
  bundleDir = join(out, 'certification');
  archive = `${bundleDir}.tar.gz`;
}, 120_000);

afterAll(async () => {
  await reference?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a certification of the reference', () => {
  it('passes and writes the bundle: reports, exchanges, coverage, product, manifest and signature', () => {
    expect(exitCode).toBe(0);
    expect(readdirSync(bundleDir).sort()).toEqual(['exchanges.har', 'exchanges.json', 'junit.xml', 'manifest.json', 'manifest.sig', 'product.json', 'report.html', 'report.json', 'requirements.json']);
    const manifest = JSON.parse(readFileSync(join(bundleDir, 'manifest.json'), 'utf8'));
    expect(manifest.verdict).toBe('PASS');
    expect(manifest.product).toEqual(product);
    expect(Object.keys(manifest.spec)).toEqual(['spec/openapi.yaml', 'spec/errors.yaml', 'spec/requirements.yaml', 'spec/DECISIONS.md']);
    expect(manifest).toMatchObject({ seed: 11, runtime: { node: process.version }, options: { certify: true, fuzz: 0, signed: true } });
    expect(manifest.redactions.secrets).toContain('adminToken');
    expect(manifest.redactions.occurrences.full).toBeGreaterThan(0);
    expect(manifest.counts.byOutcome.skip).toBe(0);
  });

  it('holds exchanges.har, HAR 1.2 of every exchange the bundle lists, hashed in the manifest', () => {
    const bytes = readFileSync(join(bundleDir, 'exchanges.har'));
    const har = JSON.parse(bytes.toString('utf8'));
    expect(harErrors(har)).toEqual([]);
    const exchanges = JSON.parse(readFileSync(join(bundleDir, 'exchanges.json'), 'utf8')) as unknown[];
    expect(har.log.entries).toHaveLength(exchanges.length);
    expect(JSON.parse(readFileSync(join(bundleDir, 'manifest.json'), 'utf8')).files['exchanges.har']).toBe(sha256(bytes));
  });

  it('shows a certificate header in report.html', () => {
    const html = readFileSync(join(bundleDir, 'report.html'), 'utf8');
    const manifest = JSON.parse(readFileSync(join(bundleDir, 'manifest.json'), 'utf8'));
    expect(html).toContain('Certificate — Acme Dispatch 2.3.1');
    expect(html).toContain('Verdict: PASS');
    expect(html).toContain(manifest.signature.keyFingerprint);
    expect(html).toContain(manifest.spec['spec/openapi.yaml']);
  });

  it('verifies, folder and .tar.gz, with the signer\'s public key', async () => {
    for (const path of [bundleDir, archive]) {
      const { code, out } = await verifyWithKey(path);
      expect(out).toContain('VERIFIED');
      expect(out).toMatch(/✓ files\s+7 files, each sha256 as manifest.json lists it/);
      expect(out).toMatch(/✓ signature\s+Ed25519 signature of manifest.json holds/);
      expect(out).toMatch(/✓ verdict\s+PASS/);
      expect(code, out).toBe(0);
    }
  });

  it('without --public-key says the signer is unverified and fails unless --allow-unsigned', async () => {
    const bare = await capture(() => verify([archive]));
    expect(bare.code).toBe(1);
    expect(bare.out).toContain('signer UNVERIFIED');
    const allowed = await capture(() => verify([archive, '--allow-unsigned']));
    expect(allowed.code).toBe(0);
    // Accepted, never shown as verified (issue 39).
    expect(allowed.out).toMatch(/^ {2}\? signature {2}signer UNVERIFIED: .*\(accepted by --allow-unsigned\)$/m);
    expect(allowed.out).not.toMatch(/✓ signature/);
    expect(allowed.out.trimEnd().split('\n').at(-1)).toBe('VERIFIED: files and verdict; the signer is UNVERIFIED (accepted by --allow-unsigned)');
  });

  it('holds no key, token or signing key in any file, in the folder or inside the .tar.gz', () => {
    const secrets = [
      ...Object.values(profile.keys).map((entry) => (typeof entry === 'string' ? entry : entry!.key)),
      REFERENCE_ADMIN_TOKEN,
      profile.sandbox!.token,
      readFileSync(join(keyDir, PRIVATE_KEY_FILE), 'utf8').split('\n')[1]!,
      createPrivateKey(readFileSync(join(keyDir, PRIVATE_KEY_FILE))).export({ format: 'jwk' }).d!,
    ];
    expect(secrets.every((secret) => secret.length >= 16)).toBe(true);
    const contents = [...readdirSync(bundleDir).map((name) => [name, readFileSync(join(bundleDir, name), 'latin1')]), ['certification.tar.gz (unpacked)', gunzipSync(readFileSync(archive)).toString('latin1')]];
    for (const [name, text] of contents) for (const secret of secrets) expect(text!.includes(secret), `${name} holds a secret`).toBe(false);
  });
});

describe('a tampered bundle fails, naming the file', () => {
  it('a changed byte', async () => {
    const copy = copyOfBundle();
    const file = join(copy, 'report.html');
    const bytes = readFileSync(file);
    bytes[100] = bytes[100]! ^ 1;
    writeFileSync(file, bytes);
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    expect(out).toMatch(/✗ files\s+report\.html: changed/);
  });

  it('a changed report.json: the verdict is not judged from it', async () => {
    const copy = copyOfBundle();
    const file = join(copy, 'report.json');
    writeFileSync(file, `${readFileSync(file, 'utf8')} `);
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    expect(out).toMatch(/✗ files\s+report\.json: changed/);
    expect(out).toContain('✗ verdict    not judged: report.json is not what manifest.json lists');
    expect(out).not.toContain('✓ verdict');
  });

  it('a changed exchanges.har', async () => {
    const copy = copyOfBundle();
    const file = join(copy, 'exchanges.har');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"status": 200', '"status": 201'));
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    expect(out).toMatch(/✗ files\s+exchanges\.har: changed/);
  });

  it('a bundle whose manifest leaves exchanges.har out, even re-signed: every bundle holds it', async () => {
    const copy = copyOfBundle();
    rmSync(join(copy, 'exchanges.har'));
    const manifestFile = join(copy, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    delete manifest.files['exchanges.har'];
    const manifestBytes = Buffer.from(JSON.stringify(manifest));
    writeFileSync(manifestFile, manifestBytes);
    writeFileSync(join(copy, 'manifest.sig'), signBytes(manifestBytes, createPrivateKey(readFileSync(join(keyDir, PRIVATE_KEY_FILE)))));
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    expect(out).toMatch(/✓ signature/);
    expect(out).toContain('✗ files      manifest.json does not list exchanges.har, which every bundle holds');
  });

  it('a missing file', async () => {
    const copy = copyOfBundle();
    rmSync(join(copy, 'exchanges.json'));
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    expect(out).toContain('exchanges.json: missing (listed in manifest.json)');
  });

  it('an extra file', async () => {
    const copy = copyOfBundle();
    writeFileSync(join(copy, 'notes.txt'), 'trust me');
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    expect(out).toContain('notes.txt: extra file, not listed in manifest.json');
  });

  it('a wrong key', async () => {
    const { code, out } = await verifyWithKey(archive, join(otherKeyDir, PUBLIC_KEY_FILE));
    expect(code).toBe(1);
    expect(out).toMatch(/✗ signature\s+manifest\.sig: made with key SHA256:\S+, not with .*: wrong key/);
  });

  it('a changed manifest', async () => {
    const copy = copyOfBundle();
    const file = join(copy, 'manifest.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"seed": 11', '"seed": 12'));
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    expect(out).toMatch(/✗ signature\s+manifest\.json: the Ed25519 signature in manifest\.sig does not hold/);
  });

  it('a changed verdict, even re-signed by the signer: the results in report.json decide', async () => {
    const copy = copyOfBundle();
    const reportFile = join(copy, 'report.json');
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    const result = report.results.find((candidate: { level: string }) => candidate.level === 'MUST');
    Object.assign(result, { outcome: 'fail', failsRun: true });
    report.counts.failing = 1;
    writeFileSync(reportFile, JSON.stringify(report));
    resign(copy, 'report.json');
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    expect(out).toMatch(/✓ signature/);
    expect(out).toContain('✗ verdict    manifest.json says PASS, but the results in report.json give FAIL');
  });

  it('a product.json re-signed to name another product: one product line, and the verdict line still there (issue 39)', async () => {
    const copy = copyOfBundle();
    writeFileSync(join(copy, 'product.json'), JSON.stringify({ ...product, version: '9.9.9' }));
    resign(copy, 'product.json');
    const { code, out } = await verifyWithKey(copy);
    expect(code).toBe(1);
    const lines = out.trimEnd().split('\n');
    expect(lines.map((line) => line.slice(4, 13).trim()).slice(1, -1)).toEqual(['files', 'signature', 'verdict', 'product', 'run', 'suite', 'spec', 'redacted']);
    expect(out).toContain('  ✗ product    product.json names Acme Logistics — Acme Dispatch 9.9.9 (certify@acme.example), but manifest.json names Acme Logistics — Acme Dispatch 2.3.1 (certify@acme.example)\n');
    expect(out).toMatch(/✓ verdict\s+PASS/);
    expect(lines.at(-1)).toBe('NOT VERIFIED: product');
  });

  it('a changed byte inside the .tar.gz', async () => {
    const copy = copyOfBundle();
    const file = join(copy, 'junit.xml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('<testsuites', '<testsuites '));
    const tampered = `${copy}.tar.gz`;
    await createTar({ gzip: true, cwd: join(copy, '..'), file: tampered }, ['certification']);
    const { code, out } = await verifyWithKey(tampered);
    expect(code).toBe(1);
    expect(out).toMatch(/✗ files\s+junit\.xml: changed/);
  });

  it('an unsigned bundle is refused unless --allow-unsigned', async () => {
    const copy = copyOfBundle();
    rmSync(join(copy, 'manifest.sig'));
    const manifestFile = join(copy, 'manifest.json');
    writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, 'utf8')), signature: null }));
    const refused = await capture(() => verify([copy]));
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('the bundle is unsigned; refused');
    expect((await verifyWithKey(copy)).out).toContain('the bundle is unsigned: it cannot be checked against');
    expect((await capture(() => verify([copy, '--allow-unsigned']))).code).toBe(0);
  });
});

describe('what a certification refuses or cannot give', () => {
  it.each([
    [['--only', 'discovery'], '--certify runs every check: --only is refused'],
    [['--skip', 'feeds'], '--certify runs every check: --skip is refused'],
    [['--level', 'must'], '--certify runs every level: --level is refused'],
  ])('%j with --certify is a usage error', async (extra, message) => {
    const { code, out } = await capture(() => conformance(['--target', reference.server.url, '--profile', join(work, 'profile.json'), '--certify', '--product', join(work, 'product.json'), ...extra]));
    expect(code).toBe(2);
    expect(out).toContain(message);
  });

  it('--certify needs --product, and --product or --sign-key need --certify', async () => {
    const base = ['--target', reference.server.url, '--profile', join(work, 'profile.json')];
    expect((await capture(() => conformance([...base, '--certify']))).out).toContain('--certify needs --product FILE');
    expect((await capture(() => conformance([...base, '--product', join(work, 'product.json')]))).out).toContain('--product is only used with --certify');
    writeFileSync(join(work, 'bad-product.json'), JSON.stringify({ ...product, contact: undefined, url: 'x' }));
    const bad = await capture(() => conformance([...base, '--certify', '--product', join(work, 'bad-product.json'), '--out', join(work, 'bad')]));
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('/contact is required');
  });

  it('a profile that cannot grade every check is refused up front (exit 2), in one line naming what it lacks, and nothing is run', async () => {
    const fresh = await provisionProfile(reference.server.url, REFERENCE_ADMIN_TOKEN);
    const { revoked: _revoked, ...keysWithoutRevoked } = fresh.keys;
    const { sandbox: _sandbox, ...withoutSandbox } = fresh;
    writeFileSync(join(work, 'thin-profile.json'), JSON.stringify({ ...withoutSandbox, keys: keysWithoutRevoked }));
    const out = join(work, 'thin');
    const { code, out: printed } = await capture(() => conformance(['--target', reference.server.url, '--profile', join(work, 'thin-profile.json'), '--certify', '--product', join(work, 'product.json'), '--out', out, '--reporter', 'json']));
    expect(code).toBe(2);
    expect(printed).toMatch(new RegExp(`--certify: ${join(work, 'thin-profile.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot grade every check: it has no keys\\.revoked \\(\\d+ checks?\\), sandbox \\(\\d+ checks\\); add them`));
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});

describe('waybill keys generate', () => {
  it('writes the private key with mode 0600 and never overwrites', async () => {
    expect(statSync(join(keyDir, PRIVATE_KEY_FILE)).mode & 0o777).toBe(0o600);
    await expect(keys(['generate', '--out', keyDir])).rejects.toThrow('waybill-signing.key: the file exists; it is never overwritten');
  });

  it('refuses a signing key others can read', async () => {
    const loose = join(work, 'loose.key');
    cpSync(join(keyDir, PRIVATE_KEY_FILE), loose);
    chmodSync(loose, 0o644);
    const { code, out } = await capture(() => conformance(['--target', reference.server.url, '--profile', join(work, 'profile.json'), '--certify', '--product', join(work, 'product.json'), '--sign-key', loose, '--out', join(work, 'loose')]));
    expect(code).toBe(2);
    expect(out).toContain('the private key is readable by others (mode 644)');
  });
});
