/**
 * Ed25519 signing keys of certification bundles (node:crypto): PEM files, PKCS#8 for the
 * private key (mode 0600) and SPKI for the public one, and the fingerprint a bundle carries
 * instead of the key: `SHA256:` and the unpadded base64 of the SHA-256 of the public key's
 * DER (SPKI), as OpenSSH prints fingerprints.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../../cli/errors.ts';

/** A key pair as PEM text. */
export interface KeyPairPem {
  privateKey: string;
  publicKey: string;
}

/** A fresh Ed25519 key pair. */
export function generateSigningKeys(): KeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** `SHA256:…` of a public key. */
export function keyFingerprint(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
}

/** The armour of a PEM private key of any kind: PKCS#8, encrypted PKCS#8, or a legacy `RSA`/`EC`/`OPENSSH` one. */
const PRIVATE_PEM = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/;

/** Reads an Ed25519 key of `kind` from a PEM file; a usage error names the file otherwise. */
function readKey(file: string, kind: 'private' | 'public'): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read the ${kind} key (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  // Node derives a public key from a private one without a word: a signer's private key given
  // where its public key belongs is refused, as the receiver should never hold it.
  if (kind === 'public' && PRIVATE_PEM.test(pem)) {
    throw new UsageError(`--public-key ${file}: this is a private key; give the signer's public key (the .pub file \`waybill keys generate\` wrote beside it), and keep the private key to its owner`);
  }
  let key: KeyObject;
  try {
    key = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
  } catch (error) {
    throw new UsageError(`${file}: not a PEM ${kind} key (${(error as Error).message})`);
  }
  if (key.type !== kind || key.asymmetricKeyType !== 'ed25519') {
    throw new UsageError(`${file}: not an Ed25519 ${kind} key (${key.type} ${key.asymmetricKeyType ?? ''}); make one with \`waybill keys generate\``);
  }
  return key;
}

/** The signing key of `--sign-key`: refused when others than its owner may read it, as OpenSSH refuses such a key. */
export function readSigningKey(file: string): { privateKey: KeyObject; publicKey: KeyObject; fingerprint: string; pem: string } {
  const privateKey = readKey(file, 'private');
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
    throw new UsageError(`${file}: the private key is readable by others (mode ${(statSync(file).mode & 0o777).toString(8)}); chmod 600 ${file}`);
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, fingerprint: keyFingerprint(publicKey), pem: readFileSync(file, 'utf8') };
}

/** The public key of `--public-key`. */
export function readPublicKey(file: string): { publicKey: KeyObject; fingerprint: string } {
  const publicKey = readKey(file, 'public');
  return { publicKey, fingerprint: keyFingerprint(publicKey) };
}

/** The Ed25519 signature of `data`, base64. */
export function signBytes(data: Buffer, privateKey: KeyObject): string {
  return sign(null, data, privateKey).toString('base64');
}

/** True when `signature` (base64) is `publicKey`'s signature of `data`. */
export function signatureHolds(data: Buffer, signature: string, publicKey: KeyObject): boolean {
  try {
    return verify(null, data, publicKey, Buffer.from(signature.trim(), 'base64'));
  } catch {
    return false;
  }
}
