/**
 * What `waybill verify` shows as fact (D80): manifest.json's product, run and suite only when its
 * signature held for the receiver's key, each line marked as an unverified claim otherwise; and a
 * private key given as `--public-key` is refused with one line and exit 2.
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
import { UNVERIFIED_CLAIM, verifyBundle, type VerifyOptions } from './verify.ts';

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

/** A bundle of just a manifest and its signature: enough for what verify says about the manifest's claims. */
function bundle(changes: { manifest?: Buffer; signature?: string | null } = {}): BundleContents {
  const files = new Map([[MANIFEST_FILE, changes.manifest ?? manifestBytes]]);
  const signature = changes.signature === undefined ? signBytes(manifestBytes, createPrivateKey(signer.privateKey)) : changes.signature;
  if (signature !== null) files.set(SIGNATURE_FILE, Buffer.from(signature));
  return { kind: 'folder', files, strays: [] };
}

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
    const about = verifyBundle(contents, options).lines.filter((line) => line.ok === null);
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
