/**
 * The request log's writing statements on PostgreSQL (D48, D78), over the log's own pool:
 * those of `store.ts`'s SQLite table in PostgreSQL's words, asynchronous (the control
 * plane's reads are `store.ts`'s, over the store contract). A batch is one statement of a
 * VALUES row per entry, in a transaction under the log's write lock that notifies the live
 * tails of every process (D84).
 */
import type pg from 'pg';
import { LOCK_REQUEST_LOG_WRITES, REQUEST_LOG_CHANNEL } from '../store/postgres/locks.ts';
import { rowTypes } from '../store/postgres/row-types.ts';
import { inTransaction } from '../store/postgres/transaction.ts';
import type { NewLogEntry } from './store.ts';

/** The columns of an entry, each with the entry's field that fills it. */
const COLUMNS: [column: string, field: keyof NewLogEntry][] = [
  ['tenant_id', 'tenantId'], ['at', 'at'], ['operation', 'operation'], ['method', 'method'],
  ['target', 'target'], ['status', 'status'], ['problem_type', 'problemType'], ['field_errors', 'fieldErrors'],
  ['latency_ms', 'latencyMs'], ['key_id', 'keyId'], ['request_id', 'requestId'],
  ['idempotency_key', 'idempotencyKey'], ['replayed', 'replayed'], ['request_content_type', 'requestContentType'],
  ['request_body', 'requestBody'], ['request_bytes', 'requestBytes'], ['response_content_type', 'responseContentType'],
  ['response_body', 'responseBody'], ['response_bytes', 'responseBytes'], ['order_ids', 'orderIds'],
  ['trip_ids', 'tripIds'], ['fault', 'fault'], ['feed_page', 'feedPage'],
];

const names = COLUMNS.map(([column]) => column).join(', ');

const inserts = new Map<number, string>();

/** The insert of `rows` entries: one VALUES row of parameters each (a parameter is sent as it is; an array's elements would each be escaped into its text). */
function insertText(rows: number): string {
  let text = inserts.get(rows);
  if (text === undefined) {
    const values = Array.from({ length: rows }, (_, row) => `(${COLUMNS.map((_, column) => `$${row * COLUMNS.length + column + 1}`).join(', ')})`);
    text = `INSERT INTO request_log (${names}) VALUES ${values.join(', ')} RETURNING id`;
    inserts.set(rows, text);
  }
  return text;
}

/**
 * A value as PostgreSQL's text can hold it: without NUL characters, which it refuses and
 * SQLite keeps. A body of binary bytes shows U+FFFD where they were (its `bytes` stay).
 */
function storable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' && value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
}

/** A NOTIFY payload is at most 8,000 bytes: past this, `*` stands for every tenant. */
const PAYLOAD_LIMIT = 7900;

/** What a batch's NOTIFY says: the tenants it wrote, or `*` when they do not fit. */
export function notifyPayload(tenantIds: Iterable<string>): string {
  const payload = [...new Set(tenantIds)].join(',');
  return payload.length <= PAYLOAD_LIMIT ? payload : '*';
}

/** The request log's statements over `pool`. */
export function makePostgresLogTable(pool: pg.Pool) {
  const query = async <R extends object>(name: string, text: string, values: unknown[]) =>
    (await pool.query<R>({ name: `waybill-log-${name}`, text, values, types: rowTypes })).rows;

  return {
    // requirement: D84
    /**
     * Writes `entries` in one statement and notifies the tenants' tails; returns their ids in
     * order. Under the log's write lock, ids are taken and committed in one order across processes.
     */
    async insert(entries: NewLogEntry[]): Promise<number[]> {
      const values = entries.flatMap((entry) => COLUMNS.map(([, field]) => storable(entry[field])));
      const rows = await inTransaction(
        pool,
        async (client) => {
          // Ids are taken in the order the rows are inserted, which is the batch's.
          const { rows: inserted } = await client.query<{ id: number }>({ name: `waybill-log-insert-${entries.length}`, text: insertText(entries.length), values, types: rowTypes });
          // Delivered at the commit, after the rows are visible.
          await client.query('SELECT pg_notify($1, $2)', [REQUEST_LOG_CHANNEL, notifyPayload(entries.map((entry) => entry.tenantId))]);
          return inserted;
        },
        // The lock taken in the same round trip as the BEGIN.
        `BEGIN; ${LOCK_REQUEST_LOG_WRITES}`,
      );
      return rows.map((row) => row.id).sort((a, b) => a - b);
    },
    /** How many entries the tenant has. */
    async count(tenantId: string): Promise<number> {
      return (await query<{ count: number }>('count', 'SELECT count(*) AS count FROM request_log WHERE tenant_id = $1', [tenantId]))[0]!.count;
    },
    /** The newest id beyond the tenant's last `keep` entries, or undefined when it has no more than `keep`. */
    async cutoff(tenantId: string, keep: number): Promise<number | undefined> {
      return (await query<{ id: number }>('cutoff', 'SELECT id FROM request_log WHERE tenant_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2', [tenantId, keep]))[0]?.id;
    },
    /** Deletes at most `limit` of the tenant's oldest entries with an id up to `upTo`; returns how many. */
    async deleteStep(tenantId: string, upTo: number, limit: number): Promise<number> {
      const { rowCount } = await pool.query({
        name: 'waybill-log-delete-step',
        text: 'DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE tenant_id = $1 AND id <= $2 ORDER BY id LIMIT $3)',
        values: [tenantId, upTo, limit],
      });
      return rowCount ?? 0;
    },
    /** Deletes every entry (the sandbox's reset, D38). */
    async clear(): Promise<void> {
      await pool.query('DELETE FROM request_log');
    },
  };
}

export type PostgresLogTable = ReturnType<typeof makePostgresLogTable>;
