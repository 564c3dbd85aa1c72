/**
 * Idempotency-Keys in flight across processes (D13, D82): where several processes share a
 * PostgreSQL database, the request that runs a key holds a row of `idempotency_in_flight`
 * until its answer is out, and a request with the same key in any process finds it held.
 * A holder renews its row while its request runs; one whose process died stops renewing,
 * and its row is taken over once it expires. Times are the database's, one clock for every
 * process and machine. PostgreSQL only: one process keeps its keys in flight in memory.
 */
import { randomUUID } from 'node:crypto';
import { type Sql, statement } from '../store/sql.ts';

/** How long a held key stays held without a renewal: a holder whose process died is taken over after this. */
export const IN_FLIGHT_LEASE_MS = 30_000;
/** How often a running request renews its key's row: a third of the lease, so two renewals may be late before it expires. */
const RENEW_EVERY_MS = IN_FLIGHT_LEASE_MS / 3;

const UNTIL = "clock_timestamp() + CAST(? AS double precision) * interval '1 millisecond'";
// requirement: D82
const TAKE = statement(`
  INSERT INTO idempotency_in_flight AS f (tenant_id, key, holder, expires_at) VALUES (?, ?, ?, ${UNTIL})
  ON CONFLICT (tenant_id, key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
    WHERE f.expires_at < clock_timestamp()
  RETURNING holder`);
const RENEW = statement(`UPDATE idempotency_in_flight SET expires_at = ${UNTIL} WHERE tenant_id = ? AND key = ? AND holder = ?`);
const RELEASE = statement('DELETE FROM idempotency_in_flight WHERE tenant_id = ? AND key = ? AND holder = ?');

/** A key this request holds: renewed until released. */
export interface InFlightLease {
  /** Moves its expiry a lease ahead (a timer calls it while the request runs). */
  renew(): Promise<void>;
  /** Stops renewing and lets the key go; never rejects (a failure is told to `onError`, and the row expires). */
  release(): Promise<void>;
}

/** The keys in flight over `sql`; a renewal or release that fails is told to `onError` (the row then expires). */
export function makeSharedInFlight(sql: Sql, onError: (error: unknown) => void = (error) => process.stderr.write(`idempotency keys in flight: ${String(error)}\n`)) {
  return {
    /** Holds the tenant's `key` for this request, or answers null when a live holder has it. */
    async take(tenantId: string, key: string): Promise<InFlightLease | null> {
      const holder = randomUUID();
      if ((await sql.one(TAKE, [tenantId, key, holder, IN_FLIGHT_LEASE_MS])) === undefined) return null;
      const renew = async () => {
        await sql.run(RENEW, [IN_FLIGHT_LEASE_MS, tenantId, key, holder]);
      };
      const timer = setInterval(() => renew().catch(onError), RENEW_EVERY_MS).unref();
      return {
        renew,
        async release() {
          clearInterval(timer);
          await sql.run(RELEASE, [tenantId, key, holder]).catch(onError);
        },
      };
    },
  };
}

/** The keys in flight across processes. */
export type SharedInFlight = ReturnType<typeof makeSharedInFlight>;
