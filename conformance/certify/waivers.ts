/**
 * Waivers (`--waivers FILE`): failures of named checks a party has agreed to accept until a
 * date. A waiver in force turns a failure into `waived` (never a pass, never counted for the
 * exit code); one past its date, one that may not cover the failure, or one whose check did not
 * fail is reported as such. In a certification (`--certify`) a waiver covers a MUST check only
 * when it names the seed requirement, of those the check verifies, that the failure concerns.
 */
import { UsageError } from '../../cli/errors.ts';
import type { ResolvedCheck } from '../engine/types/check.ts';
import type { CheckResult, Waiver, WaiverStatus } from '../engine/types/report.ts';
import { readValidated } from './schema-file.ts';

/** The waivers of a run and what became of them. */
export interface WaiverPolicy {
  waivers: readonly Waiver[];
  /** The waiver that covers a failure of `check`, if one is in force and may cover it. */
  waive(check: ResolvedCheck): Waiver | undefined;
  /** What became of every waiver, given the run's results. */
  statuses(results: readonly CheckResult[]): WaiverStatus[];
}

/** Reads and validates a waivers file; every check it names must be a check of the suite. */
export function loadWaivers(file: string, checkIds: ReadonlySet<string>): Waiver[] {
  const { waivers } = readValidated<{ waivers: Waiver[] }>(file, 'conformance/certify/waivers.schema.json', 'yaml', 'waivers file');
  for (const [index, waiver] of waivers.entries()) {
    if (!checkIds.has(waiver.check)) throw new UsageError(`${file}: /waivers/${index}/check ${waiver.check} is not a check of this suite`);
    // YAML reads an unquoted date as a string here (the schema's `format: date`), never a Date.
    waiver.expires = String(waiver.expires);
  }
  return waivers;
}

/** Today's date in UTC, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Why `waiver` may not cover a failure of `check`; undefined when it may. */
function refusal(waiver: Waiver, check: ResolvedCheck, certify: boolean): string | undefined {
  if (waiver.requirement !== undefined && !check.verifies.includes(waiver.requirement)) {
    return `it names ${waiver.requirement}, which ${check.id} does not verify (it verifies ${check.verifies.join(', ')})`;
  }
  if (certify && check.level === 'MUST' && waiver.requirement === undefined) {
    return `${check.id} is a MUST check: in a certification a waiver must name the seed requirement it concerns (one of ${check.verifies.join(', ')})`;
  }
  return undefined;
}

/** The policy of `waivers` for a run on `today` (UTC date); `certify` applies the MUST rule. */
export function waiverPolicy(waivers: readonly Waiver[], options: { today: string; certify: boolean }): WaiverPolicy {
  const decided = new Map<Waiver, WaiverStatus>();
  const expired = (waiver: Waiver) => waiver.expires < options.today;
  return {
    waivers,
    waive(check) {
      let granted: Waiver | undefined;
      for (const waiver of waivers.filter((candidate) => candidate.check === check.id)) {
        if (expired(waiver)) continue;
        const refused = refusal(waiver, check, options.certify);
        if (refused !== undefined) decided.set(waiver, { waiver, status: 'refused', note: `refused: ${refused}; the failure counts` });
        else if (granted === undefined) {
          granted = waiver;
          decided.set(waiver, { waiver, status: 'applied', note: `covered the failure of ${check.id} (${check.level})` });
        }
      }
      return granted;
    },
    statuses(results) {
      const outcomes = new Map(results.map((result) => [result.id, result.outcome]));
      return waivers.map((waiver): WaiverStatus => {
        const outcome = outcomes.get(waiver.check);
        if (expired(waiver)) {
          const effect = outcome === 'fail' ? '; the failure counts' : outcome === undefined ? '' : ` (the check ended ${outcome})`;
          return { waiver, status: 'expired', note: `expired on ${waiver.expires}, before this run (${options.today})${effect}` };
        }
        const known = decided.get(waiver);
        if (known !== undefined) return known;
        if (outcome === undefined) return { waiver, status: 'unused', note: `${waiver.check} did not run in this run` };
        if (outcome === 'pass') return { waiver, status: 'unused', note: `${waiver.check} passed: the waiver is not needed and can be withdrawn` };
        if (outcome === 'waived') return { waiver, status: 'unused', note: `another waiver already covers ${waiver.check}` };
        return { waiver, status: 'unused', note: `${waiver.check} ended ${outcome}: a waiver covers only a failure` };
      });
    },
  };
}
