/** Opens the store a `--db` value names (db-target.ts): a SQLite file or `:memory:`, or a PostgreSQL database. */
import { type Clock, systemClock } from '../domain/time.ts';
import { type DbTarget, parseDbTarget } from './db-target.ts';
import { openStore, type Store } from './index.ts';
import { openPostgresStore } from './postgres/open-store.ts';

/** The store of `target`, a parsed target or a `--db` value (a value no engine serves throws its one-line refusal). */
export function openStoreAt(target: string | DbTarget, clock: Clock = systemClock): Promise<Store> {
  let parsed: DbTarget;
  if (typeof target === 'string') {
    const result = parseDbTarget(target);
    if (!result.ok) throw new Error(result.message);
    parsed = result.target;
  } else parsed = target;
  return parsed.engine === 'sqlite' ? openStore(parsed.file, clock) : openPostgresStore(parsed.url, clock);
}
