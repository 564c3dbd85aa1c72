/** Opens the sandbox's store on a PostgreSQL database: its pool, its schema brought up to date (D75), its caches loaded. */
import { type Clock, systemClock } from '../../domain/time.ts';
import { makeStore, type Store } from '../index.ts';
import { migrate } from './migrate.ts';
import { type PostgresSql, postgresSql } from './sql.ts';

/** A store on PostgreSQL, with its engine's pool and URL (the request log opens a pool of its own from it). */
export type PostgresStore = Store & { readonly sql: PostgresSql };

/**
 * The store of the database at `url`, migrated first (several processes starting at once
 * apply each migration once); a database a newer waybill migrated rejects with
 * `SchemaTooNewError`, a server it cannot reach with pg's error. Nothing stays open on a failure.
 */
export async function openPostgresStore(url: string, clock: Clock = systemClock, options: { max?: number } = {}): Promise<PostgresStore> {
  const sql = postgresSql(url, options);
  try {
    await migrate(sql.pool);
    return { ...(await makeStore(sql, clock)), sql };
  } catch (error) {
    await sql.close();
    throw error;
  }
}
