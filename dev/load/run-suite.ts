/**
 * One run of the conformance suite against a loaded target (targets.ts), as a vendor runs it:
 * `waybill conformance` in a process of its own, its reports in a folder, its verdict read from
 * its exit code and report.json.
 *
 * The profile is provisioned first, with the latency off, by the function `--provision` calls
 * (`provisionProfile`), and handed to the command as `--profile`: provisioning loads three
 * tenants of a few hundred orders each in one unit of work apiece, about 1,600 statements, which
 * at 50–200 ms a statement takes 200 s on SQLite (measured: 205 s) where the whole run of checks
 * takes less. Everything after it — the command's preflight, every check (the tenants, orders
 * and trips the checks create through the control plane included) and its clean-up — runs under
 * latency. What `--provision` does besides provisioning (archiving the profile's tenants at the
 * end) does not touch the verdict.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { provisionProfile } from '../../conformance/setup/profile.ts';
import type { Level } from '../../conformance/engine/types/check.ts';
import type { RunReport, VerdictWord } from '../../conformance/engine/types/report.ts';
import type { LoadedTarget } from './targets.ts';

const bin = fileURLToPath(new URL('../../bin/waybill.js', import.meta.url));

/** A check that did not pass, with what it found, in words. */
export interface CheckProblem {
  id: string;
  level: Level;
  outcome: 'fail' | 'error' | 'skip';
  /**
   * True unless it is a DECISION failure (a warning, as in the suite's own verdict): a MUST or
   * SHOULD failure, an error, or a skip (the unloaded run grades every check) is what a loaded
   * run must never show.
   */
  counts: boolean;
  /** Its findings (`message / Expected: … / Received: …`), its error, or why it was skipped. */
  text: string;
}

/** What one loaded run gave. */
export interface LoadedRun {
  exitCode: number | null;
  /** The report's verdict, or null when the command wrote none (a tool error: see `output`). */
  verdict: VerdictWord | null;
  seed: number | null;
  checkCount: number;
  provisionMs: number;
  /** The command's whole run under latency: preflight, checks and clean-up. */
  suiteMs: number;
  /** Statements (SQLite) or client chunks (PostgreSQL) the latency delayed during the run. */
  delayed: number;
  problems: CheckProblem[];
  /** The last lines of the command's output: its verdict line, or why it wrote no report. */
  output: string;
}

/** The checks of `report` that did not pass, each with what it found. */
export function problemsOf(report: RunReport): CheckProblem[] {
  return report.results.flatMap((result): CheckProblem[] => {
    if (result.outcome !== 'fail' && result.outcome !== 'error' && result.outcome !== 'skip') return [];
    const text =
      result.outcome === 'skip'
        ? `skipped: ${result.reason ?? 'no reason given'}`
        : result.outcome === 'error'
          ? `error: ${result.error?.message ?? 'no message'}`
          : result.findings.map((finding) => `${finding.message} / Expected: ${finding.expected} / Received: ${finding.received}`).join('\n');
    return [{ id: result.id, level: result.level, outcome: result.outcome, counts: !(result.outcome === 'fail' && result.level === 'DECISION'), text }];
  });
}

/** Runs `waybill conformance` with `args` to its end; answers its exit code and the tail of its output. */
function conformance(args: string[], adminToken: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'conformance', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WAYBILL_FROM_SOURCES: '1', WAYBILL_ADMIN_TOKEN: adminToken },
    });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output: output.trim() }));
  });
}

/** Provisions a profile (latency off), then runs the suite against `target` under latency, its reports in `dir`. */
export async function runLoadedSuite(target: LoadedTarget, dir: string, name: string): Promise<LoadedRun> {
  mkdirSync(dir, { recursive: true });
  target.latency.on = false;
  let started = performance.now();
  const profile = await provisionProfile(target.url, target.adminToken, 60_000, name);
  const provisionMs = performance.now() - started;
  const profileFile = join(dir, 'profile.json');
  writeFileSync(profileFile, JSON.stringify({ ...profile, target: target.url }), { mode: 0o600 });

  const delayedBefore = target.latency.delayed;
  target.latency.on = true;
  started = performance.now();
  let finished: { code: number | null; output: string };
  try {
    finished = await conformance(['--target', target.url, '--profile', profileFile, '--out', join(dir, 'report'), '--reporter', 'json'], target.adminToken);
  } finally {
    target.latency.on = false;
  }
  const suiteMs = performance.now() - started;
  let report: RunReport | null = null;
  try {
    report = JSON.parse(readFileSync(join(dir, 'report', 'report.json'), 'utf8')) as RunReport;
  } catch {
    // No report: a tool error, which `output` explains.
  }
  return {
    exitCode: finished.code,
    verdict: report?.verdict.verdict ?? null,
    seed: report?.seed ?? null,
    checkCount: report?.counts.checks ?? 0,
    provisionMs,
    suiteMs,
    delayed: target.latency.delayed - delayedBefore,
    problems: report === null ? [] : problemsOf(report),
    output: finished.output.split('\n').slice(-12).join('\n'),
  };
}
