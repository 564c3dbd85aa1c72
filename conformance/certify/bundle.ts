/**
 * Seals a certification bundle: beside the three reports the reporters wrote into its folder
 * and the run's exchanges.har (transport/har.ts), writes the redacted exchanges, the requirement
 * coverage, product.json and the waivers, refuses to go on when any file holds a secret of the
 * run, writes manifest.json (hashes, run facts, verdict, redaction counts), signs it
 * (manifest.sig) and packs the folder as a .tar.gz.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { create as createTar } from 'tar';
import { WaybillError } from '../../cli/errors.ts';
import { PACKAGE_VERSION } from '../../spec/package-files.ts';
import { createRedactor, type Secret } from '../transport/redaction.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { Certificate, RunReport, Waiver, WaiverStatus } from '../engine/types/report.ts';
import { signBytes } from './keys.ts';
import { MANIFEST_FILE, type Manifest, sha256, SIGNATURE_FILE } from './manifest.ts';
import type { KeyObject } from 'node:crypto';

/** What sealing needs besides the folder the reporters wrote. */
export interface SealInput {
  dir: string;
  report: RunReport & { certificate: Certificate };
  exchanges: readonly ExchangeRecord[];
  waivers: readonly Waiver[] | null;
  options: Manifest['options'];
  /** Every secret of the run (the profile's keys, the sandbox and admin tokens, the signing key): none may be in a file. */
  secrets: readonly Secret[];
  signingKey: KeyObject | null;
}

/** The bundle's folder, archive and manifest. */
export interface SealedBundle {
  dir: string;
  archive: string;
  manifest: Manifest;
}

/** `<redacted:name>` and `$WAYBILL_…` placeholders in `text`, counted by secret name. */
function countRedactions(text: string, envNames: ReadonlyMap<string, string>, into: Record<string, number>): void {
  for (const match of text.matchAll(/<redacted:([A-Za-z0-9_-]+)>/g)) into[match[1]!] = (into[match[1]!] ?? 0) + 1;
  for (const match of text.matchAll(/\$\{?(WAYBILL_[A-Z0-9_]+)/g)) {
    // A secret a check met at run time stands as WAYBILL_SECRET_<NAME> (engine/context.ts addSecret).
    const name = envNames.get(match[1]!) ?? match[1]!.replace(/^WAYBILL_SECRET_/, '').toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    into[name] = (into[name] ?? 0) + 1;
  }
}

/** The names of the secrets `text` still holds, as whole tokens (the redactor's own rule). */
function secretsIn(bytes: Buffer, secrets: readonly Secret[]): string[] {
  return secrets.filter((secret) => secret.value.length > 0 && !createRedactor([secret]).redactBytes(bytes).equals(bytes)).map((secret) => secret.name);
}

/** Counts of waiver statuses. */
function waiverCounts(statuses: readonly WaiverStatus[]): Record<WaiverStatus['status'], number> {
  const counts = { applied: 0, expired: 0, refused: 0, unused: 0 };
  for (const { status } of statuses) counts[status] += 1;
  return counts;
}

/** Writes the rest of the bundle into `input.dir`, signs and packs it (see the module comment). */
export async function sealBundle(input: SealInput): Promise<SealedBundle> {
  const { dir, report } = input;
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeFile(join(dir, 'exchanges.json'), json(input.exchanges));
  await writeFile(join(dir, 'requirements.json'), json(report.requirements));
  await writeFile(join(dir, 'product.json'), json(report.certificate.product));
  if (input.waivers !== null) await writeFile(join(dir, 'waivers.json'), json({ waivers: input.waivers }));

  const names = (await readdir(dir, { withFileTypes: true })).map((entry) => {
    if (!entry.isFile()) throw new WaybillError(`${join(dir, entry.name)}: the bundle folder may hold only files`, 'tool');
    return entry.name;
  }).filter((name) => name !== MANIFEST_FILE && name !== SIGNATURE_FILE).sort();
  const envNames = new Map(input.secrets.map((secret) => [secret.envVar, secret.name]));
  const files: Record<string, string> = {};
  const occurrences: Record<string, number> = {};
  for (const name of names) {
    const bytes = await readFile(join(dir, name));
    const leaked = secretsIn(bytes, input.secrets);
    if (leaked.length > 0) throw new WaybillError(`${join(dir, name)} holds the secret(s) ${leaked.join(', ')}: the bundle is not sealed (this is a bug of waybill; please report it)`, 'tool');
    countRedactions(bytes.toString('utf8'), envNames, occurrences);
    files[name] = sha256(bytes);
  }
  const { certificate } = report;
  const statuses = report.waivers ?? [];
  const manifest: Manifest = {
    manifestVersion: 1,
    kind: 'waybill-certification',
    product: certificate.product,
    suite: { name: 'waybill', version: PACKAGE_VERSION },
    runtime: { node: process.version, platform: `${process.platform}-${process.arch}` },
    target: report.target,
    seed: report.seed,
    options: input.options,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    verdict: certificate.verdict,
    incomplete: certificate.incomplete,
    counts: report.counts,
    waivers: { counts: waiverCounts(statuses), entries: statuses },
    redactions: { secrets: [...new Set(input.secrets.filter((secret) => secret.name !== 'signingKey').map((secret) => secret.name))].sort(), occurrences },
    spec: certificate.specHashes,
    files,
    signature: certificate.signature,
  };
  const manifestBytes = Buffer.from(json(manifest));
  await writeFile(join(dir, MANIFEST_FILE), manifestBytes);
  if (input.signingKey !== null) await writeFile(join(dir, SIGNATURE_FILE), `${signBytes(manifestBytes, input.signingKey)}\n`);

  const archive = `${dir}.tar.gz`;
  await createTar({ gzip: true, portable: true, cwd: dirname(dir), file: archive }, [basename(dir)]);
  return { dir, archive, manifest };
}
