/**
 * A write transaction of one tenant on PostgreSQL (D74): it holds the tenant's write lock
 * from its first statement to its commit, so a tenant's writes run one at a time, as every
 * write does on SQLite, and commit in the order of their stamps (D7).
 */
import type pg from 'pg';
import { LOCK_TENANT_WRITES } from './locks.ts';
import { inTransaction } from './transaction.ts';

/** Runs `write` in a transaction holding the tenant's write lock; commits when it resolves, rolls back when it throws. */
// requirement: D74
export function tenantWrite<T>(pool: pg.Pool, tenantId: string, write: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query(LOCK_TENANT_WRITES, [tenantId]);
    return write(client);
  });
}

/**
 * The `updatedAtUtc` stamp of a write in the tenant (D7): the later of `now` (ms since the
 * epoch, the tenant's clock) and one millisecond past the newest stamp issued. Call inside
 * `tenantWrite`, whose lock keeps it until the commit.
 */
export async function nextStamp(client: pg.ClientBase, tenantId: string, now: number): Promise<string> {
  const { rows } = await client.query<{ clock: number }>({
    name: 'waybill-next-stamp',
    text: 'UPDATE tenants SET clock = greatest($1::bigint, clock + 1) WHERE id = $2 RETURNING clock',
    values: [now, tenantId],
  });
  const row = rows[0];
  if (row === undefined) throw new Error(`no tenant ${tenantId}`);
  return new Date(row.clock).toISOString();
}
