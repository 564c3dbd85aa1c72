/**
 * Which process runs a tenant's simulation from its timer (D84). On SQLite one process serves
 * the database: it runs them all. On PostgreSQL several may: a process runs a tenant's
 * simulation while it holds the tenant's session-level advisory lock on a connection of its
 * own, and lets it go when the simulation stops. A process that dies (or loses that
 * connection) releases its locks with its session, and another takes them on its next tick.
 * The lease saves the work; what keeps a change from being made twice is the tenant's write
 * lock (D74), under which a slice reads how far the simulation got.
 */
import type { Store } from '../store/index.ts';
import { type DedicatedConnection, dedicatedConnection } from '../store/postgres/dedicated-connection.ts';
import { SIMULATION_LEASE_NAMESPACE } from '../store/postgres/locks.ts';
import type { PostgresSql } from '../store/postgres/sql.ts';

/** The tenants whose simulation this process runs from its timer. */
export interface SimulationLease {
  /** Of the `running` tenants, those this process runs: the ones it held, and the free ones it takes now; it lets go of the others. */
  hold(running: readonly string[]): Promise<ReadonlySet<string>>;
  /** Whether other processes share the database: a simulation may start in one of them, so the timer keeps looking. */
  readonly shared: boolean;
  /** Lets go of every tenant. */
  close(): Promise<void>;
}

/** The application_name of a lease's connection: `pg_stat_activity` and `pg_locks` show which process runs which simulation. */
export const leaseApplicationName = (pid: number) => `waybill simulation lease pid ${pid}`;

// One statement lets go of the tenants no longer running and tries the free ones; a try never waits.
const HOLD = `SELECT
  array(SELECT pg_advisory_unlock(${SIMULATION_LEASE_NAMESPACE}, hashtext(t)) FROM unnest($1::text[]) AS t) AS released,
  array(SELECT t FROM unnest($2::text[]) AS t WHERE pg_try_advisory_lock(${SIMULATION_LEASE_NAMESPACE}, hashtext(t))) AS taken`;

// requirement: D84
/** The lease over the database at `url`, on a connection of its own opened when a simulation first runs. */
export function postgresLease(url: string): SimulationLease {
  // The locks are re-entrant within a session: a tenant held is never tried again, so each is held once.
  let held = new Set<string>();
  const connection: DedicatedConnection = dedicatedConnection(url, {
    applicationName: leaseApplicationName(process.pid),
    // The session and its locks are gone: another process may run them now.
    onLost: () => (held = new Set()),
  });
  return {
    shared: true,
    async hold(running) {
      const wanted = new Set(running);
      const release = [...held].filter((tenantId) => !wanted.has(tenantId));
      const take = running.filter((tenantId) => !held.has(tenantId));
      if (release.length === 0 && take.length === 0) return held;
      if (take.length === 0 && !connection.open) {
        held = new Set();
        return held;
      }
      try {
        const client = await connection.client();
        const { rows } = await client.query<{ taken: string[] }>(HOLD, [release, take]);
        held = new Set([...[...held].filter((tenantId) => wanted.has(tenantId)), ...rows[0]!.taken]);
      } catch {
        // The database cannot be reached now, or the statement failed with some locks taken (a session lock
        // outlives its statement): the session goes, and its locks with it; nothing runs from the timer until it can.
        held = new Set();
        await connection.reset();
      }
      return held;
    },
    close: () => connection.close(),
  };
}

/** The lease of `store`'s engine: every tenant on SQLite, a lock per tenant on PostgreSQL. */
export function leaseOf(store: Store): SimulationLease {
  if (store.sql.engine === 'postgres') return postgresLease((store.sql as PostgresSql).url);
  return { shared: false, hold: async (running) => new Set(running), close: async () => {} };
}
