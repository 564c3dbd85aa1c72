/**
 * The report `waybill replay REPORT_DIR` replays: `report.json` in the folder (or in its
 * `certification/` folder, for a `--certify` run's `--out`), valid against
 * spec/report.schema.json, and the failures of it that `--check` keeps.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../../cli/errors.ts';
import { BUNDLE_FOLDER } from '../certify/session.ts';
import { readValidated } from '../certify/schema-file.ts';
import type { CheckResult, RunReport } from '../engine/types/report.ts';
import { failedResults } from './failed.ts';

/** A report read back: the file, and where the replay writes `replay.json` by default. */
export interface ReportToReplay {
  file: string;
  report: RunReport;
  /** The report's folder; for a certification bundle's, the folder above it (the bundle is signed: `waybill verify` refuses a file added to it). */
  replayDir: string;
}

/** Reads the report of `dir`; a usage error names what is missing or wrong. */
export function readReportDir(dir: string): ReportToReplay {
  if (!existsSync(dir)) throw new UsageError(`${dir}: no such folder (give the folder a waybill conformance or client-check run wrote its reports to, its --out)`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`${dir}: not a folder (give the folder that holds report.json, not a file)`);
  const candidates = [join(dir, 'report.json'), join(dir, BUNDLE_FOLDER, 'report.json')];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) throw new UsageError(`${dir}: no report.json there (a run writes it with the json reporter, the default; a run with --reporter console alone leaves nothing to replay)`);
  const report = readValidated<RunReport>(file, 'spec/report.schema.json', 'json', 'report');
  const folder = dirname(file);
  return { file, report, replayDir: report.certificate === undefined ? folder : dirname(folder) };
}

/** The failures to replay: every one of the report, or those `checks` names (each must be one of them). */
export function chosenFailures(report: RunReport, checks: readonly string[]): CheckResult[] {
  const failed = failedResults(report);
  if (checks.length === 0) return failed;
  const things = report.suite.name === 'waybill-client-check' ? 'scenario' : 'check';
  const unknown = checks.filter((id) => !failed.some((result) => result.id === id));
  if (unknown.length > 0) {
    const outcomes = unknown.map((id) => {
      const result = report.results.find((candidate) => candidate.id === id);
      return result === undefined ? `${id} is no ${things} of the report` : `${id} ended ${result.outcome}`;
    });
    const listed = failed.length === 0 ? `no ${things} failed` : `the failed ${things}s: ${failed.map((result) => result.id).join(', ')}`;
    throw new UsageError(`--check ${unknown.join(',')}: only a failed ${things} is replayed; ${outcomes.join('; ')} (${listed})`);
  }
  return failed.filter((result) => checks.includes(result.id));
}
