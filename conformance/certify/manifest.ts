/**
 * The manifest of a certification bundle (`manifest.json`) and the rules both sides share: the
 * verdict of a report, the spec files whose hashes it records, and the files a bundle holds.
 */
import { createHash } from 'node:crypto';
import type { Certificate, RunReport, WaiverStatus } from '../engine/types/report.ts';

/** The manifest's file name; `manifest.sig` holds its Ed25519 signature (base64). */
export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.sig';

/** The spec files a certification was run against, hashed into the manifest as run. */
export const SPEC_FILES = ['spec/openapi.yaml', 'spec/errors.yaml', 'spec/requirements.yaml', 'spec/DECISIONS.md'] as const;

/** What `manifest.json` holds. */
export interface Manifest {
  manifestVersion: 1;
  kind: 'waybill-certification';
  product: Certificate['product'];
  suite: { name: 'waybill'; version: string };
  runtime: { node: string; platform: string };
  target: string;
  seed: number;
  /** The command line's choices, by name (never a key, a token or a path to one). */
  options: Record<string, string | number | boolean | string[] | null>;
  startedAt: string;
  finishedAt: string;
  verdict: Certificate['verdict'];
  incomplete: string[];
  counts: RunReport['counts'];
  waivers: { counts: Record<WaiverStatus['status'], number>; entries: WaiverStatus[] };
  /** What was redacted, as counts by secret name; never a value. */
  redactions: { secrets: string[]; occurrences: Record<string, number> };
  /** sha256 (hex) of each spec file as run. */
  spec: Record<string, string>;
  /** sha256 (hex) of every other file of the bundle, by name. */
  files: Record<string, string>;
  signature: Certificate['signature'];
}

/** sha256 of `bytes`, hex. */
export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The verdict of a certification run, from its report: FAIL when a failure counts; else
 * INCOMPLETE when a check was skipped or broke, or a testable seed requirement went
 * untested (each reason named); else PASS. Waived failures leave a PASS a PASS: the manifest
 * counts them apart.
 */
export function certificationVerdict(report: RunReport): { verdict: Certificate['verdict']; incomplete: string[] } {
  const incomplete = [
    ...report.results.filter((result) => result.outcome === 'skip').map((result) => `${result.id} was skipped: ${result.reason ?? 'no reason given'}`),
    ...report.results.filter((result) => result.outcome === 'error').map((result) => `${result.id} ended in error: ${result.error?.message ?? ''}`),
    ...report.requirements.entries
      .filter((entry) => entry.level !== 'DECISION' && entry.testable && (entry.outcome === 'untested' || entry.outcome === 'skip'))
      .map((entry) => `seed requirement ${entry.id} was not covered (${entry.outcome})`),
  ];
  if (report.counts.failing > 0) return { verdict: 'FAIL', incomplete };
  return { verdict: incomplete.length > 0 ? 'INCOMPLETE' : 'PASS', incomplete };
}
