/**
 * The request log's writing statements on PostgreSQL (D48, D78, D85), over the log's own
 * pool: a batch is one transaction under the log's write lock, one statement per tenant
 * that takes the ids, moves the tenant's place and what it keeps, writes its chunk
 * (chunks.ts) and deletes its chunks no longer kept, then a NOTIFY for the live tails of
 * every process (D84). The control plane's reads are chunks.ts's, over the store contract.
 */
import type pg from 'pg';
import { LOCK_REQUEST_LOG_WRITES, REQUEST_LOG_CHANNEL } from '../store/postgres/locks.ts';
import { rowTypes } from '../store/postgres/row-types.ts';
import { inTransaction } from '../store/postgres/transaction.ts';
import { byTenant, encodeChunk } from './chunks.ts';
import type { NewLogEntry } from './store.ts';

/**
 * One tenant's chunk: $1 the tenant, $2 its entries' count, $3 the retention, $4 and $5 the
 * chunk. The statements of one statement see the table as it was before it: the chunk
 * inserted is not among those deleted, and never needs to be (its last entry is kept).
 */
const WRITE_CHUNK = `WITH ids AS (UPDATE request_log_sequence SET last_id = last_id + $2::bigint RETURNING last_id),
  tenant AS (
    INSERT INTO request_log_tenants AS t (tenant_id, next_seq, kept_from) VALUES ($1, $2::bigint, greatest(0, $2::bigint - $3::bigint))
    ON CONFLICT (tenant_id) DO UPDATE SET next_seq = t.next_seq + excluded.next_seq, kept_from = greatest(t.kept_from, t.next_seq + excluded.next_seq - $3::bigint)
    RETURNING next_seq, kept_from),
  dropped AS (DELETE FROM request_log_chunk c USING tenant WHERE c.tenant_id = $1 AND c.last_seq < tenant.kept_from)
INSERT INTO request_log_chunk (tenant_id, first_id, last_id, first_seq, last_seq, entries, bodies)
  SELECT $1, ids.last_id - $2::bigint + 1, ids.last_id, tenant.next_seq - $2::bigint, tenant.next_seq - 1, $4, $5 FROM ids, tenant
  RETURNING first_id`;

/**
 * A text as PostgreSQL's text can hold it: without NUL characters, which it refuses and
 * SQLite keeps. A body of binary bytes shows U+FFFD where they were (its `bytes` stay).
 */
const storable = (text: string): string => (text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text);

/** A NOTIFY payload is at most 8,000 bytes: past this, `*` stands for every tenant. */
const PAYLOAD_LIMIT = 7900;

/** What a batch's NOTIFY says: the tenants it wrote, or `*` when they do not fit. */
export function notifyPayload(tenantIds: Iterable<string>): string {
  const payload = [...new Set(tenantIds)].join(',');
  return payload.length <= PAYLOAD_LIMIT ? payload : '*';
}

/** The request log's statements over `pool`, keeping each tenant's last `retention` entries. */
export function makePostgresLogTable(pool: pg.Pool, retention: number) {
  return {
    // requirement: D84
    /**
     * Writes `entries` in one transaction, a chunk per tenant, prunes what they made due and
     * notifies the tenants' tails; answers the first id of each tenant's chunk (its entries
     * numbered on from there, in order). Under the log's write lock, ids are taken and
     * committed in one order across processes.
     */
    async insert(entries: readonly NewLogEntry[]): Promise<Map<string, number>> {
      const tenants = byTenant(entries);
      return inTransaction(
        pool,
        async (client) => {
          const firstIds = new Map<string, number>();
          for (const [tenantId, mine] of tenants) {
            const chunk = encodeChunk(mine, storable);
            const { rows } = await client.query<{ first_id: number }>({ name: 'waybill-log-chunk', text: WRITE_CHUNK, values: [tenantId, mine.length, retention, chunk.entries, chunk.bodies], types: rowTypes });
            firstIds.set(tenantId, rows[0]!.first_id);
          }
          // Delivered at the commit, after the chunks are visible.
          await client.query('SELECT pg_notify($1, $2)', [REQUEST_LOG_CHANNEL, notifyPayload(tenants.keys())]);
          return firstIds;
        },
        // The lock taken in the same round trip as the BEGIN.
        `BEGIN; ${LOCK_REQUEST_LOG_WRITES}`,
      );
    },
    /** Deletes every entry (the sandbox's reset, D38); ids go on from where they were. */
    async clear(): Promise<void> {
      await pool.query('DELETE FROM request_log_chunk; DELETE FROM request_log_tenants');
    },
  };
}

export type PostgresLogTable = ReturnType<typeof makePostgresLogTable>;
