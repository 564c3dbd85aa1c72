/**
 * The request log's table (D48), in a database file of its own beside the sandbox's: its
 * writes would otherwise make every read of the sandbox's connection start over with an
 * empty page cache and a WAL to search (a third of the feed's throughput, `npm run bench`).
 * A batch is written in one transaction, a chunk per tenant (chunks.ts, D85), and pruned in
 * bounded steps. Commits do not fsync (WAL, synchronous NORMAL): the log may lose its last
 * batches to a power cut.
 */
import type Database from 'better-sqlite3';
import { type Db, openDatabase } from '../store/db.ts';
import { byTenant, chunkGroups, encodeChunk } from './chunks.ts';
import type { NewLogEntry } from './entry.ts';

export { makeRequestLogReads, type RequestLogReads } from './chunks.ts';
export { BODY_LIMIT, type LogFilter, type LoggedPage, type LogRow, type LogSummaryRow, type NewLogEntry } from './entry.ts';

/** The request log's database file for the sandbox database `file` (`sandbox.db` → `sandbox.requests.db`); `:memory:` stays in memory. */
export function requestLogFile(file: string): string {
  return file === ':memory:' || file === '' ? ':memory:' : `${file.replace(/\.db$/, '')}.requests.db`;
}

/**
 * The log file's page size. A feed page's entry (its body cut at 16 KiB, and the page) spans
 * five pages of SQLite's default 4 KiB and two of 16 KiB: writing and later pruning one cost
 * the writer thread ~104 µs of CPU at 4 KiB and ~65 µs at 16 KiB (200-entry batches at the
 * retention); a caught-up poll's entry costs the same at both (~11 µs). 32 and 64 KiB cost more.
 */
export const LOG_PAGE_SIZE = 16384;

/** Opens (creating if needed) the request log's database `file`, commits unsynced. */
export function openRequestLogDatabase(file: string): Db {
  const db = openDatabase(file, 'request-log', { pageSize: LOG_PAGE_SIZE });
  db.pragma('synchronous = NORMAL');
  return db;
}

// requirement: D48
/**
 * The request log's writing statements on SQLite (D85: a chunk per batch and tenant,
 * chunks.ts), prepared once, on whichever thread writes. `retention` is how many entries
 * each tenant keeps.
 */
export function makeRequestLogTable(db: Db, retention: number) {
  const takeIds = db.prepare<[number], number>('UPDATE request_log_sequence SET last_id = last_id + ? RETURNING last_id').pluck();
  // The tenant's next place, and the first it keeps: its last `retention`.
  const advance = db.prepare<[string, number, number, number, number], { next_seq: number; kept_from: number }>(`INSERT INTO request_log_tenants (tenant_id, next_seq, kept_from)
    VALUES (?, ?, max(0, ? - ?)) ON CONFLICT (tenant_id) DO UPDATE SET next_seq = next_seq + excluded.next_seq, kept_from = max(kept_from, next_seq + excluded.next_seq - ?)
    RETURNING next_seq, kept_from`);
  const insertChunk = db.prepare('INSERT INTO request_log_chunk (tenant_id, first_id, last_id, first_seq, last_seq, entries, bodies) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const count = db.prepare<[string], number>('SELECT next_seq - kept_from FROM request_log_tenants WHERE tenant_id = ?').pluck();
  // The tenant's oldest `limit` chunks whose entries it all dropped, with how many entries each
  // holds. The limit is written into the statement, which is prepared once per limit (a writer
  // has one): SQLite's planner reads a bound LIMIT's value, so a `LIMIT ?` made it prepare the
  // statement again on every run (~5 % of the writer thread's samples under feed pages).
  const droppedByLimit = new Map<number, Database.Statement<[string, string], { last_seq: number; n: number }>>();
  const dropped = (limit: number) => {
    let statement = droppedByLimit.get(limit);
    if (statement === undefined) {
      statement = db.prepare<[string, string], { last_seq: number; n: number }>(`SELECT last_seq, last_seq - first_seq + 1 AS n FROM request_log_chunk
        WHERE tenant_id = ? AND last_seq < (SELECT kept_from FROM request_log_tenants WHERE tenant_id = ?) ORDER BY last_seq LIMIT ${limit}`);
      droppedByLimit.set(limit, statement);
    }
    return statement;
  };
  const deleteThrough = db.prepare('DELETE FROM request_log_chunk WHERE tenant_id = ? AND last_seq <= ?');
  const deleteOldest = db.transaction((tenantId: string, limit: number): number => {
    // The oldest chunks holding at most `limit` entries in all, and at least one chunk.
    let entries = 0;
    let through = -1;
    for (const chunk of dropped(Math.max(1, Math.trunc(limit))).all(tenantId, tenantId)) {
      if (through >= 0 && entries + chunk.n > limit) break;
      entries += chunk.n;
      through = chunk.last_seq;
    }
    if (through >= 0) deleteThrough.run(tenantId, through);
    return entries;
  });
  const clearChunks = db.prepare('DELETE FROM request_log_chunk');
  const clearTenants = db.prepare('DELETE FROM request_log_tenants');
  const clear = db.transaction(() => {
    clearChunks.run();
    clearTenants.run();
  });
  const insertAll = db.transaction((entries: readonly NewLogEntry[]): { firstIds: Map<string, number>; over: string[] } => {
    const firstIds = new Map<string, number>();
    const over: string[] = [];
    for (const [tenantId, mine] of byTenant(entries)) {
      const n = mine.length;
      const lastId = takeIds.get(n)!;
      const { next_seq: nextSeq, kept_from: keptFrom } = advance.get(tenantId, n, n, retention, retention)!;
      firstIds.set(tenantId, lastId - n + 1);
      let firstId = lastId - n + 1;
      let firstSeq = nextSeq - n;
      for (const group of chunkGroups(mine)) {
        const chunk = encodeChunk(group);
        insertChunk.run(tenantId, firstId, firstId + group.length - 1, firstSeq, firstSeq + group.length - 1, chunk.entries, chunk.bodies);
        firstId += group.length;
        firstSeq += group.length;
      }
      if (keptFrom > 0) over.push(tenantId);
    }
    return { firstIds, over };
  });

  return {
    /**
     * Writes `entries` in one transaction, a chunk per tenant; answers the first id of each
     * tenant's chunk (its entries numbered on from there, in order) and the tenants that now
     * have entries to prune.
     */
    insert(entries: readonly NewLogEntry[]): { firstIds: Map<string, number>; over: string[] } {
      return insertAll(entries);
    },
    /** How many entries the tenant keeps. */
    count(tenantId: string): number {
      return count.get(tenantId) ?? 0;
    },
    /** Deletes the tenant's oldest chunks of entries it no longer keeps, at most `limit` entries' (and at least a chunk); answers how many entries. */
    deleteStep(tenantId: string, limit: number): number {
      return deleteOldest(tenantId, limit);
    },
    /** Deletes every entry (the sandbox's reset, D38); ids go on from where they were. */
    clear(): void {
      clear();
    },
  };
}

export type RequestLogTable = ReturnType<typeof makeRequestLogTable>;
