/**
 * The request log's writing statements on PostgreSQL (D48, D78), over the log's own pool:
 * those of `store.ts`'s SQLite table in PostgreSQL's words, asynchronous (the control
 * plane's reads are `store.ts`'s, over the store contract). A batch is one statement: its
 * columns as arrays, unnested in order.
 */
import type pg from 'pg';
import { rowTypes } from '../store/postgres/row-types.ts';
import type { NewLogEntry } from './store.ts';

/** The columns of an entry, each with the type of its array in the batch insert. */
const COLUMNS: [column: string, type: string, field: keyof NewLogEntry][] = [
  ['tenant_id', 'text', 'tenantId'], ['at', 'text', 'at'], ['operation', 'text', 'operation'], ['method', 'text', 'method'],
  ['target', 'text', 'target'], ['status', 'integer', 'status'], ['problem_type', 'text', 'problemType'], ['field_errors', 'text', 'fieldErrors'],
  ['latency_ms', 'double precision', 'latencyMs'], ['key_id', 'text', 'keyId'], ['request_id', 'text', 'requestId'],
  ['idempotency_key', 'text', 'idempotencyKey'], ['replayed', 'integer', 'replayed'], ['request_content_type', 'text', 'requestContentType'],
  ['request_body', 'text', 'requestBody'], ['request_bytes', 'integer', 'requestBytes'], ['response_content_type', 'text', 'responseContentType'],
  ['response_body', 'text', 'responseBody'], ['response_bytes', 'integer', 'responseBytes'], ['order_ids', 'text', 'orderIds'],
  ['trip_ids', 'text', 'tripIds'], ['fault', 'text', 'fault'], ['feed_page', 'text', 'feedPage'],
];

const names = COLUMNS.map(([column]) => column).join(', ');
const INSERT = `INSERT INTO request_log (${names})
  SELECT ${names} FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) WITH ORDINALITY AS batch (${names}, n)
  ORDER BY n RETURNING id`;
/**
 * A value as PostgreSQL's text can hold it: without NUL characters, which it refuses and
 * SQLite keeps. A body of binary bytes shows U+FFFD where they were (its `bytes` stay).
 */
function storable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' && value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
}

/** The request log's statements over `pool`. */
export function makePostgresLogTable(pool: pg.Pool) {
  const query = async <R extends object>(name: string, text: string, values: unknown[]) =>
    (await pool.query<R>({ name: `waybill-log-${name}`, text, values, types: rowTypes })).rows;

  return {
    /** Writes `entries` in one statement; returns their ids in order. */
    async insert(entries: NewLogEntry[]): Promise<number[]> {
      const arrays = COLUMNS.map(([, , field]) => entries.map((entry) => storable(entry[field])));
      // Ids are taken in the order the rows are inserted, which is the batch's.
      const rows = await query<{ id: number }>('insert', INSERT, arrays);
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
