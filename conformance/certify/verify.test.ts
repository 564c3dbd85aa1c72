/**
 * What `waybill verify` shows as fact (D80): manifest.json's product, run and suite only when its
 * signature held for the receiver's key, each line marked as an unverified claim otherwise; and a
 * private key given as `--public-key` is refused with one line and exit 2. Its output (issue 39):
 * one line per item, a signer accepted by --allow-unsigned never marked ✓, and a verdict line on
 * every outcome, a path that is no bundle included (exit 1, D49).
 */
import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { UsageError } from '../../cli/errors.ts';
import { main as verify } from './cli-verify.ts';
import { generateSigningKeys, keyFingerprint, signBytes } from './keys.ts';
import { MANIFEST_FILE, SIGNATURE_FILE } from './manifest.ts';
import type { BundleContents } from './read-bundle.ts';
import { UNVERIFIED_CLAIM, verifyBundle, type VerifyLine, type VerifyOptions } from './verify.ts';

const bin = fileURLToPath(new URL('../../bin/waybill.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'waybill-verify-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const signer = generateSigningKeys();
const stranger = generateSigningKeys();
const product = { vendor: 'Acme Logistics', product: 'Acme Dispatch', version: '2.3.1', contact: 'certify@acme.example' };
const manifest = {
  manifestVersion: 1, kind: 'waybill-certification', product, suite: { name: 'waybill', version: '0.1.0' }, runtime: { node: 'v20.0.0', platform: 'linux-x64' },
  target: 'https://api.acme.example', seed: 7, options: {}, startedAt: '2026-11-24T06:09:32.671Z', finishedAt: '2026-11-24T06:09:34.910Z', verdict: 'PASS', incomplete: [],
  counts: {}, waivers: {}, redactions: { secrets: ['full'], occurrences: { full: 3 } }, spec: {}, files: {},
  signature: { algorithm: 'Ed25519', keyFingerprint: keyFingerprint(createPublicKey(signer.publicKey)) },
};
const manifestBytes = Buffer.from(JSON.stringify(manifest));

/** A bundle of just a manifest and its signature (and `extra` files): enough for what verify says about the manifest's claims. */
function bundle(changes: { manifest?: Buffer; signature?: string | null; extra?: Record<string, string> } = {}): BundleContents {
  const files = new Map([[MANIFEST_FILE, changes.manifest ?? manifestBytes]]);
  const signature = changes.signature === undefined ? signBytes(manifestBytes, createPrivateKey(signer.privateKey)) : changes.signature;
  if (signature !== null) files.set(SIGNATURE_FILE, Buffer.from(signature));
  for (const [name, text] of Object.entries(changes.extra ?? {})) files.set(name, Buffer.from(text));
  return { kind: 'folder', files, strays: [] };
}

/** Runs `waybill verify …args` in this process: its exit code and what it printed. */
async function verifyPrinting(args: string[]): Promise<{ code: number; out: string }> {
  const spy: MockInstance = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await verify(args);
    return { code, out: spy.mock.calls.map(([text]) => String(text)).join('') };
  } finally {
    spy.mockRestore();
  }
}

/** The topics of `lines`, in order. */
const topics = (lines: VerifyLine[]) => lines.map((line) => line.topic);

/** The receiver's key option for a PEM public key. */
function holding(pem: string): VerifyOptions {
  const publicKey = createPublicKey(pem);
  return { publicKey: { publicKey, fingerprint: keyFingerprint(publicKey), file: 'signer.pub' } };
}

/** The product line of a verification. */
const productLine = (options: VerifyOptions, contents = bundle()) => verifyBundle(contents, options).lines.find((line) => line.topic === 'product' && line.ok === null);

describe('waybill verify over what manifest.json claims (D80)', () => {
  it("states the product, run and suite as facts when the signature holds for the receiver's key", () => {
    expect(productLine(holding(signer.publicKey))).toEqual({ ok: null, topic: 'product', text: 'Acme Logistics — Acme Dispatch 2.3.1 (certify@acme.example)' });
    const about = verifyBundle(bundle(), holding(signer.publicKey)).lines.filter((line) => line.ok === null);
    expect(about.map((line) => line.topic)).toEqual(['product', 'run', 'suite', 'spec', 'redacted']);
    expect(about.some((line) => line.unverified)).toBe(false);
  });

  it.each([
    ['a wrong key', holding(stranger.publicKey), bundle()],
    ['a manifest changed after signing', holding(signer.publicKey), bundle({ manifest: Buffer.from(JSON.stringify({ ...manifest, seed: 8 })) })],
    ['no --public-key, even under --allow-unsigned', { allowUnsigned: true }, bundle()],
    ['an unsigned bundle', { allowUnsigned: true }, bundle({ manifest: Buffer.from(JSON.stringify({ ...manifest, signature: null })), signature: null })],
  ])('marks every claim as unverified over %s', (_name, options: VerifyOptions, contents) => {
    // The signer accepted by --allow-unsigned is marked too (issue 39); the claims follow it.
    const about = verifyBundle(contents, options).lines.filter((line) => line.ok === null && line.topic !== 'signature');
    expect(about.map((line) => line.topic)).toEqual(['product', 'run', 'suite', 'spec', 'redacted']);
    for (const line of about) expect(line).toMatchObject({ unverified: true, text: expect.stringMatching(new RegExp(`^${UNVERIFIED_CLAIM}`)) });
  });

  it('prints a claim with a ? mark, never as a plain line of fact', async () => {
    const dir = join(folder, 'wrong-key');
    mkdirSync(dir);
    writeFileSync(join(dir, MANIFEST_FILE), manifestBytes);
    writeFileSync(join(dir, SIGNATURE_FILE), signBytes(manifestBytes, createPrivateKey(signer.privateKey)));
    writeFileSync(join(folder, 'stranger.pub'), stranger.publicKey);
    const spy: MockInstance = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let code: number;
    let out: string;
    try {
      code = await verify([dir, '--public-key', join(folder, 'stranger.pub')]);
      out = spy.mock.calls.map(([text]) => String(text)).join('');
    } finally {
      spy.mockRestore();
    }
    expect(code).toBe(1);
    expect(out).toContain(`  ? product    ${UNVERIFIED_CLAIM}Acme Logistics — Acme Dispatch 2.3.1 (certify@acme.example)\n`);
    expect(out.split('\n').filter((line) => line.includes('Acme Dispatch') && !line.startsWith('  ? '))).toEqual([]);
  });
});

describe('one line per item (issue 39)', () => {
  it('prints each item once: files, signature, verdict, then what the manifest says of the run', () => {
    const { lines } = verifyBundle(bundle({ extra: { 'product.json': JSON.stringify(product) } }), holding(signer.publicKey));
    expect(topics(lines)).toEqual(['files', 'signature', 'verdict', 'product', 'run', 'suite', 'spec', 'redacted']);
  });

  it('says a product.json that differs from the manifest in the one product line, and still judges the verdict', () => {
    const other = { ...product, product: 'Acme Dispatch Pro' };
    const { ok, lines, verdict } = verifyBundle(bundle({ extra: { 'product.json': JSON.stringify(other) } }), holding(signer.publicKey));
    expect(ok).toBe(false);
    expect(topics(lines)).toEqual(['files', 'signature', 'verdict', 'product', 'run', 'suite', 'spec', 'redacted']);
    expect(lines.find((line) => line.topic === 'product')).toEqual({
      ok: false,
      topic: 'product',
      text: 'product.json names Acme Logistics — Acme Dispatch Pro 2.3.1 (certify@acme.example), but manifest.json names Acme Logistics — Acme Dispatch 2.3.1 (certify@acme.example)',
    });
    expect(verdict).toMatch(/^NOT VERIFIED: .*\bproduct\b/);
  });

  it('lists every file problem in the one files line', () => {
    const listing = Buffer.from(JSON.stringify({ ...manifest, files: { 'report.json': '0'.repeat(64) } }));
    const { lines } = verifyBundle(bundle({ manifest: listing, extra: { 'notes.txt': 'trust me' } }), { allowUnsigned: true });
    const files = lines.filter((line) => line.topic === 'files');
    expect(files).toHaveLength(1);
    expect(files[0]!.ok).toBe(false);
    expect(files[0]!.text).toMatch(/^\d+ problems: manifest\.json does not list junit\.xml, .*; report\.json: missing \(listed in manifest\.json\); notes\.txt: extra file, not listed in manifest\.json$/);
  });
});

describe('--allow-unsigned (issue 39)', () => {
  const signed = bundle({ extra: { 'product.json': JSON.stringify(product) } });
  const unsigned = bundle({ manifest: Buffer.from(JSON.stringify({ ...manifest, signature: null })), signature: null, extra: { 'product.json': JSON.stringify(product) } });

  it.each([
    ['a signed bundle without --public-key', signed, 'signer UNVERIFIED'],
    ['an unsigned bundle', unsigned, 'none: the bundle is unsigned'],
  ])('accepts the signer of %s unverified: marked ?, never ✓, and the verdict line says so', (_name, contents, text) => {
    const { lines, verdict } = verifyBundle(contents, { allowUnsigned: true });
    expect(lines.find((line) => line.topic === 'signature')).toMatchObject({ ok: null, unverified: true, text: expect.stringContaining(text) });
    expect(lines.find((line) => line.topic === 'signature')!.text).toContain('(accepted by --allow-unsigned');
    expect(verdict).not.toBe('VERIFIED');
    expect(verdict).toMatch(/the signer is UNVERIFIED \(accepted by --allow-unsigned\)|^NOT VERIFIED/);
  });

  it('prints no ✓ on a line that says UNVERIFIED', async () => {
    const dir = join(folder, 'allow-unsigned');
    mkdirSync(dir);
    writeFileSync(join(dir, MANIFEST_FILE), manifestBytes);
    writeFileSync(join(dir, SIGNATURE_FILE), signBytes(manifestBytes, createPrivateKey(signer.privateKey)));
    const { out } = await verifyPrinting([dir, '--allow-unsigned']);
    expect(out).toMatch(/^ {2}\? signature {2}signer UNVERIFIED: /m);
    expect(out.split('\n').filter((line) => line.includes('UNVERIFIED') && line.includes('✓'))).toEqual([]);
  });
});

describe('a verdict line on every outcome, and exit 1 for a path that is no bundle (D49)', () => {
  const empty = join(folder, 'empty');
  mkdirSync(empty);
  const notAnArchive = join(folder, 'product.json');
  writeFileSync(notAnArchive, JSON.stringify(product));
  const missing = join(folder, 'no-such-bundle.tar.gz');

  it.each([
    ['nothing at the path', missing, `${missing}: nothing there (no such file or folder)`, 'bundle'],
    ['a file that is not a .tar.gz', notAnArchive, `${notAnArchive}: not a folder or a .tar.gz of one (`, 'bundle'],
    ['a folder without manifest.json', empty, 'manifest.json: missing, so nothing can be verified', 'manifest'],
  ])('%s: one failed line, then NOT VERIFIED, exit 1', async (_name, path, text, topic) => {
    const { code, out } = await verifyPrinting([path]);
    expect(code).toBe(1);
    const printed = out.trimEnd().split('\n');
    expect(printed[0]).toMatch(new RegExp(`^waybill verify ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(printed.slice(1, -1)).toEqual([expect.stringContaining(`  ✗ ${topic.padEnd(9)}  ${text}`)]);
    expect(printed.at(-1)).toBe(`NOT VERIFIED: ${topic}`);
  });

  it('ends a failed bundle with NOT VERIFIED naming each item that failed', async () => {
    const { code, out } = await verifyPrinting([join(folder, 'wrong-key'), '--public-key', join(folder, 'stranger.pub')]);
    expect(code).toBe(1);
    expect(out.trimEnd().split('\n').at(-1)).toBe('NOT VERIFIED: files, signature, verdict');
  });

  it('exits 1 from the command line for a missing path, as for a tampered bundle; a usage error stays exit 2', () => {
    const run = (args: string[]) => spawnSync(process.execPath, [bin, 'verify', ...args], { encoding: 'utf8', timeout: 60_000 });
    const absent = run([missing]);
    expect(absent.status).toBe(1);
    expect(absent.stderr).toBe('');
    expect(absent.stdout.trimEnd().split('\n').at(-1)).toBe('NOT VERIFIED: bundle');
    expect(run([missing, '--public-key', join(folder, 'no-such-key.pub')]).status).toBe(2);
  });
});

describe('--public-key given a private key', () => {
  const privateFile = join(folder, 'waybill-signing.key');
  writeFileSync(privateFile, signer.privateKey, { mode: 0o600 });

  it('is a usage error saying so, before the bundle is read', async () => {
    await expect(verify([folder, '--public-key', privateFile])).rejects.toThrow(new UsageError(`--public-key ${privateFile}: this is a private key; give the signer's public key (the .pub file \`waybill keys generate\` wrote beside it), and keep the private key to its owner`));
  });

  it('prints one line and exits 2, as every usage error does', () => {
    const { status, stdout, stderr } = spawnSync(process.execPath, [bin, 'verify', folder, '--public-key', privateFile], { encoding: 'utf8', timeout: 60_000 });
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^waybill: --public-key .*waybill-signing\.key: this is a private key; /)]);
  });
});
