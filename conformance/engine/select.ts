/** Which checks a run keeps: `--only`, `--skip` (ids, families or id prefixes) and `--level`. */
import { UsageError } from '../../cli/errors.ts';
import type { Level, LevelFilter, ResolvedCheck } from './types/check.ts';

const levelsOf: Record<LevelFilter, readonly Level[]> = {
  must: ['MUST'],
  should: ['MUST', 'SHOULD'],
  all: ['MUST', 'SHOULD', 'DECISION'],
};

/** True when `token` names the check: its id, its family, or a dotted prefix of its id (`feeds.` or `feeds.cursor`). */
export function matchesSelector(check: Pick<ResolvedCheck, 'id' | 'family'>, token: string): boolean {
  if (check.id === token || check.family === token) return true;
  return check.id.startsWith(token.endsWith('.') ? token : `${token}.`);
}

/** The selection of a run. */
export interface Selection {
  only?: readonly string[];
  skip?: readonly string[];
  level?: LevelFilter;
}

/** The checks a run keeps, in registry order; a token of `--only`/`--skip` that names no check is a usage error. */
export function selectChecks(checks: readonly ResolvedCheck[], selection: Selection): ResolvedCheck[] {
  for (const [flag, tokens] of [['--only', selection.only ?? []], ['--skip', selection.skip ?? []]] as const) {
    const unknown = tokens.filter((token) => !checks.some((check) => matchesSelector(check, token)));
    if (unknown.length > 0) throw new UsageError(`${flag} ${unknown.join(',')}: matches no check (ids, families or prefixes such as 'discovery.')`);
  }
  const levels = levelsOf[selection.level ?? 'all'];
  return checks.filter(
    (check) =>
      levels.includes(check.level) &&
      ((selection.only ?? []).length === 0 || selection.only?.some((token) => matchesSelector(check, token))) &&
      !selection.skip?.some((token) => matchesSelector(check, token)),
  );
}
