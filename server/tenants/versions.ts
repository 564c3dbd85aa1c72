/**
 * The tenants' versions (D81), for processes sharing a PostgreSQL database. Each process
 * keeps in memory what every request reads — authenticated keys, the tenants' clocks and
 * fault rules — and another process may change any of it. Every such change gives the
 * tenant a new version (triggers of migration 007); a process remembers the version its
 * caches of the tenant were read at, and when a request finds another one (the rate limit's
 * statement answers it, the control plane asks for it) it reads the tenant's caches again
 * before the request goes on.
 */
import type { Clocks } from '../clock/store.ts';
import type { Faults } from '../faults/store.ts';
import { type Sql, statement } from '../store/sql.ts';
import type { Keys } from './keys.ts';

const ALL = statement('SELECT id, version FROM tenants');
const ONE = statement('SELECT version FROM tenants WHERE id = ?');

/** The caches a tenant's version stands for. */
export interface VersionedCaches {
  keys: Pick<Keys, 'forget'>;
  clocks: Pick<Clocks, 'read' | 'put' | 'writesOf'>;
  faults: Pick<Faults, 'read' | 'put' | 'writesOf'>;
}

// requirement: D81
/** The versions this process's caches of each tenant were read at, over `sql`; `load` before the caches load. */
export function makeTenantVersions(sql: Sql, caches: VersionedCaches) {
  let known = new Map<string, number>();

  /** Whether the caches of the tenant were read at `version` (null: the tenant is gone, which no cache is current for). */
  const current = (tenantId: string, version: number | null): boolean => version !== null && known.get(tenantId) === version;

  /**
   * Reads the tenant's caches again, at `version` or later: its clock and rules are read
   * after the version was, so what they hold is never older than the version remembered.
   * Applied together once both are read: of two refreshes of one tenant in flight, the one
   * applied last leaves its rules, clock and version, never a mix with an older version.
   */
  async function reload(tenantId: string, version: number | null): Promise<void> {
    // A setting or rule this process writes meanwhile is newer than what the reads answer: it stays.
    const seen = { clock: caches.clocks.writesOf(tenantId), rules: caches.faults.writesOf(tenantId) };
    const [clock, rules] = await Promise.all([caches.clocks.read(tenantId), caches.faults.read(tenantId)]);
    caches.clocks.put(tenantId, clock, seen.clock);
    caches.faults.put(tenantId, rules, seen.rules);
    // Keys read before this are read again: a key cache fill that started earlier is dropped (key-cache.ts).
    caches.keys.forget(tenantId);
    if (version === null) known.delete(tenantId);
    else known.set(tenantId, version);
  }

  // The requests that find one new version at once share one reading of the caches.
  const reloading = new Map<string, { version: number | null; done: Promise<void> }>();
  /** Reads the tenant's caches again at `version` (see `reload`), or waits for the reading of that version under way. */
  function refresh(tenantId: string, version: number | null): Promise<void> {
    const pending = reloading.get(tenantId);
    if (pending !== undefined && pending.version === version) return pending.done;
    const done = reload(tenantId, version).finally(() => {
      if (reloading.get(tenantId)?.done === done) reloading.delete(tenantId);
    });
    reloading.set(tenantId, { version, done });
    return done;
  }

  return {
    /**
     * Reads every tenant's version: at start, before the clocks and rules are loaded, so
     * that they are at least as new as the versions remembered.
     */
    async load(): Promise<void> {
      known = new Map((await sql.all<{ id: string; version: number }>(ALL)).map((row) => [row.id, row.version]));
    },
    current,
    refresh,
    /** Reads the tenant's version (one small statement) and its caches again if they are older: the control plane's requests. */
    async check(tenantId: string): Promise<void> {
      const version = (await sql.one<{ version: number }>(ONE, [tenantId]))?.version ?? null;
      if (!current(tenantId, version)) await refresh(tenantId, version);
    },
  };
}

/** The tenants' versions. */
export type TenantVersions = ReturnType<typeof makeTenantVersions>;
