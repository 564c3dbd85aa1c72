/** Stored answers of requests sent with an Idempotency-Key (D13). */
import type { TenantClock } from '../domain/time.ts';
import { type Sql, statement } from '../store/sql.ts';

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

const FIND = statement('SELECT fingerprint, status, content_type, body FROM idempotency WHERE tenant_id = ? AND key = ? AND created_at > ?');
const SAVE = statement(
  `INSERT INTO idempotency (tenant_id, key, fingerprint, status, content_type, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (tenant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
     content_type = excluded.content_type, body = excluded.body, created_at = excluded.created_at`,
);
const PURGE = statement('DELETE FROM idempotency WHERE tenant_id = ? AND created_at <= ?');

/** The stored answers over `sql`; the replay window runs on each tenant's clock (D52). */
export function makeIdempotency(sql: Sql, clock: TenantClock) {
  return {
    /** The answer stored under the tenant's `key` within the replay window, or undefined. */
    async find(tenantId: string, key: string): Promise<StoredAnswer | undefined> {
      const row = await sql.one<{ fingerprint: string; status: number; content_type: string | null; body: string }>(FIND, [tenantId, key, clock(tenantId) - REPLAY_WINDOW_MS]);
      return row && { fingerprint: row.fingerprint, status: row.status, contentType: row.content_type, body: row.body };
    },
    /** Stores the answer of a completed request. */
    async save(tenantId: string, key: string, answer: StoredAnswer): Promise<void> {
      await sql.run(SAVE, [tenantId, key, answer.fingerprint, answer.status, answer.contentType, answer.body, clock(tenantId)]);
    },
    /** Deletes the tenant's answers older than its replay window; returns how many. */
    async purgeExpired(tenantId: string): Promise<number> {
      return (await sql.run(PURGE, [tenantId, clock(tenantId) - REPLAY_WINDOW_MS])).changes;
    },
  };
}

export type Idempotency = ReturnType<typeof makeIdempotency>;
