/**
 * The advisory locks waybill takes on PostgreSQL, in the two-key form `(namespace, key)`:
 * namespaces of waybill's own, so that they never meet an application's locks keyed by one
 * bigint, nor each other.
 */

/** Held while the migrations run: one process at a time brings the schema up to date. */
export const MIGRATION_LOCK = [0x77620001, 0] as const;

/** Namespace of the per-tenant write lock (D74); its key is `hashtext(tenant_id)`. */
export const TENANT_WRITE_NAMESPACE = 0x77620002;

/**
 * SQL that takes the tenant's write lock until the transaction ends (D74); the one
 * parameter is the tenant id. Two tenants whose ids hash alike share a lock: their
 * writes wait for each other, and no more.
 */
export const LOCK_TENANT_WRITES = `SELECT pg_advisory_xact_lock(${TENANT_WRITE_NAMESPACE}, hashtext($1))`;

/**
 * Namespace of the simulation lease (D84): a session-level lock per tenant, key
 * `hashtext(tenant_id)`, held on the process's lease connection while it runs the tenant's simulation.
 */
export const SIMULATION_LEASE_NAMESPACE = 0x77620010;

/**
 * Held by a writer of the request log from its insert to its commit (D84), so that entries
 * become visible in the order of their ids whichever process wrote them: a live tail
 * reading "after the last id it sent" then never skips one committed late.
 */
export const LOCK_REQUEST_LOG_WRITES = `SELECT pg_advisory_xact_lock(${0x77620011}, 0)`;

/** The channel a request log's writer notifies after each batch (D84), its payload the batch's tenant ids joined by commas, or `*`. */
export const REQUEST_LOG_CHANNEL = 'waybill_request_log';
