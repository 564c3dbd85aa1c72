/**
 * Verifies a certification bundle offline: every file against the sha256 manifest.json lists
 * (a changed, missing or extra file is named), the Ed25519 signature of manifest.json against
 * the public key the receiver holds, and the verdict (manifest.json, the report's certificate
 * and a verdict recomputed from report.json must agree, and it must be PASS). Each item is one
 * line of what was verified; the bundle holds only when every line does.
 */
import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { packageFile, PACKAGE_VERSION } from '../../spec/package-files.ts';
import type { RunReport } from '../engine/types/report.ts';
import { signatureHolds } from './keys.ts';
import { certificationVerdict, MANIFEST_FILE, type Manifest, sha256, SIGNATURE_FILE, SPEC_FILES } from './manifest.ts';
import type { BundleContents } from './read-bundle.ts';
import { counted } from '../../cli/counted.ts';

/** One line of the verification: `ok` true (held), false (failed) or null (information, or accepted unverified). */
export interface VerifyLine {
  ok: boolean | null;
  topic: string;
  text: string;
  /**
   * What no signature held for the receiver's key vouches for (D80): a claim of manifest.json,
   * or the signer itself when --allow-unsigned accepts it unverified (D49). Printed with `?`, never `✓`.
   */
  unverified?: true;
}

/** What verify found: every line, whether all held, and the verdict line that ends the output. */
export interface Verification {
  ok: boolean;
  lines: VerifyLine[];
  verdict: string;
}

/** How to verify. */
export interface VerifyOptions {
  /** The signer's public key, as the receiver got it apart from the bundle. */
  publicKey?: { publicKey: KeyObject; fingerprint: string; file: string };
  /** Accept a bundle whose signer is not verified (unsigned, or no --public-key): integrity and verdict alone. */
  allowUnsigned?: boolean;
}

/** The files every bundle holds besides the manifest and its signature. */
const REQUIRED_FILES = ['report.json', 'junit.xml', 'report.html', 'exchanges.json', 'exchanges.har', 'requirements.json', 'product.json'];

/** Parses `bytes` as JSON; undefined when it is not. */
function parseJson<T>(bytes: Buffer | undefined): T | undefined {
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Every file against the manifest, in one line: changed, missing and extra files by name. */
function fileLine(bundle: BundleContents, manifest: Manifest): VerifyLine {
  const problems: string[] = [];
  const listed = Object.entries(manifest.files);
  for (const stray of bundle.strays) problems.push(`${stray}: not allowed in a bundle`);
  for (const name of REQUIRED_FILES) if (!Object.hasOwn(manifest.files, name)) problems.push(`${MANIFEST_FILE} does not list ${name}, which every bundle holds`);
  for (const [name, hash] of listed) {
    const bytes = bundle.files.get(name);
    if (bytes === undefined) problems.push(`${name}: missing (listed in ${MANIFEST_FILE})`);
    else if (sha256(bytes) !== hash) problems.push(`${name}: changed (sha256 ${sha256(bytes).slice(0, 16)}…, ${MANIFEST_FILE} has ${String(hash).slice(0, 16)}…)`);
  }
  for (const name of bundle.files.keys()) {
    if (name !== MANIFEST_FILE && name !== SIGNATURE_FILE && !Object.hasOwn(manifest.files, name)) problems.push(`${name}: extra file, not listed in ${MANIFEST_FILE}`);
  }
  if (problems.length === 0) return { ok: true, topic: 'files', text: `${counted(listed.length, 'file')}, each sha256 as ${MANIFEST_FILE} lists it; nothing missing, nothing extra` };
  return { ok: false, topic: 'files', text: problems.length === 1 ? problems[0]! : `${problems.length} problems: ${problems.join('; ')}` };
}

/** The signature of manifest.json (see VerifyOptions for what an unverified signer means). */
function signatureLine(bundle: BundleContents, manifest: Manifest, options: VerifyOptions): VerifyLine {
  const signature = bundle.files.get(SIGNATURE_FILE);
  const declared = manifest.signature;
  if (declared === null || declared === undefined) {
    if (signature !== undefined) return { ok: false, topic: 'signature', text: `${SIGNATURE_FILE}: present, but ${MANIFEST_FILE} declares no signature` };
    if (options.publicKey !== undefined) return { ok: false, topic: 'signature', text: `the bundle is unsigned: it cannot be checked against ${options.publicKey.file}` };
    if (options.allowUnsigned) return { ok: null, unverified: true, topic: 'signature', text: 'none: the bundle is unsigned (accepted by --allow-unsigned; anyone could have made it)' };
    return { ok: false, topic: 'signature', text: 'none: the bundle is unsigned; refused (pass --allow-unsigned to check its integrity alone)' };
  }
  if (signature === undefined) return { ok: false, topic: 'signature', text: `${SIGNATURE_FILE}: missing (${MANIFEST_FILE} says it is signed by ${declared.keyFingerprint})` };
  if (options.publicKey === undefined) {
    const text = `signer UNVERIFIED: ${MANIFEST_FILE} names key ${declared.keyFingerprint}; pass --public-key FILE with the signer's public key to verify it`;
    return options.allowUnsigned ? { ok: null, unverified: true, topic: 'signature', text: `${text} (accepted by --allow-unsigned)` } : { ok: false, topic: 'signature', text };
  }
  const { fingerprint, publicKey, file } = options.publicKey;
  if (fingerprint !== declared.keyFingerprint) return { ok: false, topic: 'signature', text: `${SIGNATURE_FILE}: made with key ${declared.keyFingerprint}, not with ${file} (${fingerprint}): wrong key` };
  if (!signatureHolds(bundle.files.get(MANIFEST_FILE)!, signature.toString('utf8'), publicKey)) {
    return { ok: false, topic: 'signature', text: `${MANIFEST_FILE}: the Ed25519 signature in ${SIGNATURE_FILE} does not hold (${MANIFEST_FILE} or ${SIGNATURE_FILE} changed after signing)` };
  }
  return { ok: true, topic: 'signature', text: `Ed25519 signature of ${MANIFEST_FILE} holds for ${file} (${fingerprint})` };
}

/** The verdict, in one line: manifest.json, the report's certificate and report.json's results must agree, and say PASS. */
function verdictLine(bundle: BundleContents, manifest: Manifest): VerifyLine {
  const report = parseJson<RunReport>(bundle.files.get('report.json'));
  if (report?.results === undefined || report.requirements === undefined) return { ok: false, topic: 'verdict', text: 'report.json: missing or not a report' };
  const { verdict } = certificationVerdict(report);
  const disagreements: string[] = [];
  if (verdict !== manifest.verdict) disagreements.push(`${MANIFEST_FILE} says ${manifest.verdict}, but the results in report.json give ${verdict}`);
  if (report.certificate?.verdict !== manifest.verdict) disagreements.push(`report.json's certificate says ${report.certificate?.verdict ?? 'nothing'}, ${MANIFEST_FILE} says ${manifest.verdict}`);
  if (disagreements.length > 0) return { ok: false, topic: 'verdict', text: disagreements.join('; ') };
  const waived = report.counts.byOutcome.waived ?? 0;
  const counts = `${counted(report.counts.checks, 'check')}: ${report.counts.byOutcome.pass} passed, ${report.counts.failing} failing, ${report.counts.byOutcome.skip} skipped, ${report.counts.byOutcome.error} in error, ${waived} waived`;
  if (manifest.verdict !== 'PASS') {
    return { ok: false, topic: 'verdict', text: `${manifest.verdict} (${counts}): the bundle is what was run, but not a pass${manifest.incomplete.length > 0 ? `; ${manifest.incomplete.slice(0, 3).join('; ')}` : ''}` };
  }
  return { ok: true, topic: 'verdict', text: `PASS, and report.json's results give PASS (${counts})` };
}

/** The product a certificate names, as a line prints it. */
const productText = (product: Manifest['product'] | undefined) => `${product?.vendor} — ${product?.product} ${product?.version} (${product?.contact})`;

/**
 * Information: what was run, and whether its spec files are this waybill's. Every fact comes from
 * manifest.json, so it is one only when the signature held for the receiver's key; otherwise each
 * line is marked as what the manifest claims, never shown as a fact (D80).
 */
function aboutLines(bundle: BundleContents, manifest: Manifest, vouched: boolean): VerifyLine[] {
  const local = (file: string) => {
    try {
      return sha256(readFileSync(packageFile(file)));
    } catch {
      return undefined;
    }
  };
  const spec = SPEC_FILES.map((file) => `${file.replace('spec/', '')} ${String(manifest.spec?.[file] ?? '?').slice(0, 12)}${manifest.spec?.[file] === local(file) ? '' : ' (differs from this waybill)'}`);
  const { product } = manifest;
  const facts: [string, string][] = [
    ['product', productText(product)],
    ['run', `${manifest.target}, seed ${manifest.seed}, ${manifest.startedAt} → ${manifest.finishedAt}`],
    ['suite', `waybill ${manifest.suite?.version}${manifest.suite?.version === PACKAGE_VERSION ? '' : ` (this is ${PACKAGE_VERSION})`}, Node ${manifest.runtime?.node}, ${manifest.runtime?.platform}`],
    ['spec', spec.join(', ')],
    ['redacted', Object.entries(manifest.redactions?.occurrences ?? {}).map(([name, count]) => `${name} ×${count}`).join(', ') || 'nothing'],
  ];
  const lines = facts.map(([topic, text]): VerifyLine => (vouched ? { ok: null, topic, text } : { ok: null, topic, text: `${UNVERIFIED_CLAIM}${text}`, unverified: true }));
  // A product.json that names another product than the manifest does fails in the product line's
  // place; one that is missing is the files line's to name.
  const bytes = bundle.files.get('product.json');
  const named = parseJson<Manifest['product']>(bytes);
  if (bytes !== undefined && JSON.stringify(named) !== JSON.stringify(product)) {
    lines[0] = { ok: false, topic: 'product', text: `product.json ${named === undefined ? 'is not JSON' : `names ${productText(named)}`}, but ${MANIFEST_FILE} names ${productText(product)}` };
  }
  return lines;
}

/** How a line of what an unverified manifest.json claims begins (D80). */
export const UNVERIFIED_CLAIM = 'unverified claim of manifest.json: ';

/** `lines` with the line that ends every verification: VERIFIED (saying so when the signer was accepted unverified), or NOT VERIFIED naming each item that failed. */
export function verdictOf(lines: readonly VerifyLine[]): Verification {
  const failed = lines.filter((line) => line.ok === false).map((line) => line.topic);
  if (failed.length > 0) return { ok: false, lines: [...lines], verdict: `NOT VERIFIED: ${failed.join(', ')}` };
  const signer = lines.some((line) => line.topic === 'signature' && line.unverified);
  return { ok: true, lines: [...lines], verdict: signer ? 'VERIFIED: files and verdict; the signer is UNVERIFIED (accepted by --allow-unsigned)' : 'VERIFIED' };
}

/** Verifies `bundle`: every line, whether all held, and the verdict line. */
export function verifyBundle(bundle: BundleContents, options: VerifyOptions): Verification {
  const manifest = parseJson<Manifest>(bundle.files.get(MANIFEST_FILE));
  if (manifest === undefined) {
    const text = bundle.files.has(MANIFEST_FILE) ? `${MANIFEST_FILE}: not JSON` : `${MANIFEST_FILE}: missing, so nothing can be verified`;
    return verdictOf([{ ok: false, topic: 'manifest', text }]);
  }
  if (manifest.kind !== 'waybill-certification' || typeof manifest.files !== 'object' || manifest.files === null) {
    return verdictOf([{ ok: false, topic: 'manifest', text: `${MANIFEST_FILE}: not a waybill certification manifest` }]);
  }
  // A verdict read from a report that is not the one the manifest lists would vouch for nothing.
  const report = bundle.files.get('report.json');
  const verdict = report !== undefined && sha256(report) === manifest.files['report.json'] ? verdictLine(bundle, manifest) : { ok: false, topic: 'verdict', text: `not judged: report.json is not what ${MANIFEST_FILE} lists` } satisfies VerifyLine;
  const signature = signatureLine(bundle, manifest, options);
  // The signature held for the receiver's key: what manifest.json says is the signer's word.
  const vouched = signature.ok === true && options.publicKey !== undefined;
  return verdictOf([fileLine(bundle, manifest), signature, verdict, ...aboutLines(bundle, manifest, vouched)]);
}
