/** Stored answers of requests sent with an Idempotency-Key (D13). */
import type { TenantClock } from '../domain/time.ts';
import type { Db } from '../store/db.ts';

// requirement: D13
/** How long a completed answer is replayed (D13). */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A completed answer as stored. */
export interface StoredAnswer {
  fingerprint: string;
  status: number;
  contentType: string | null;
  body: string;
}

/** Idempotency statements, prepared once; the replay window runs on each tenant's clock (D52). */
export function makeIdempotency(db: Db, clock: TenantClock) {
  const find = db.prepare<[string, string, number], { fingerprint: string; status: number; content_type: string | null; body: string }>(
    'SELECT fingerprint, status, content_type, body FROM idempotency WHERE tenant_id = ? AND key = ? AND created_at > ?',
  );
  const save = db.prepare(
    'INSERT OR REPLACE INTO idempotency (tenant_id, key, fingerprint, status, content_type, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const purge = db.prepare('DELETE FROM idempotency WHERE tenant_id = ? AND created_at <= ?');

  return {
    /** The answer stored under the tenant's `key` within the replay window, or undefined. */
    find(tenantId: string, key: string): StoredAnswer | undefined {
      const row = find.get(tenantId, key, clock(tenantId) - REPLAY_WINDOW_MS);
      return row && { fingerprint: row.fingerprint, status: row.status, contentType: row.content_type, body: row.body };
    },
    /** Stores the answer of a completed request. */
    save(tenantId: string, key: string, answer: StoredAnswer): void {
      save.run(tenantId, key, answer.fingerprint, answer.status, answer.contentType, answer.body, clock(tenantId));
    },
    /** Deletes the tenant's answers older than its replay window; returns how many. */
    purgeExpired(tenantId: string): number {
      return purge.run(tenantId, clock(tenantId) - REPLAY_WINDOW_MS).changes;
    },
  };
}

export type Idempotency = ReturnType<typeof makeIdempotency>;
