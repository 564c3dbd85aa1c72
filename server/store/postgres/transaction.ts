/** One transaction on a connection of the pool, the PostgreSQL counterpart of better-sqlite3's `db.transaction`. */
import type pg from 'pg';

/**
 * Runs `work` in a transaction on one connection of `pool`: commits when it resolves, rolls
 * back when it throws. `begin` may ask for another kind (a read-only snapshot).
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A connection that cannot even roll back is closed rather than given back to the pool.
    await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
    throw error;
  } finally {
    client.release(broken);
  }
}
