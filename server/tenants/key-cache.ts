/**
 * The authenticated-key cache: key id → the key's stored hash and what it authenticates as,
 * so that a request with a known key costs one hash and one comparison, not a query.
 *
 * Invalidation is exact. The store's own writes that change a key or a tenant's state
 * (revoke, suspend, reactivate, archive, reset) forget what they changed once committed, on
 * either engine. On SQLite, TEMP triggers on the connection also call back into the cache
 * from inside every statement that inserts, updates or deletes a key, changes a tenant's
 * state or deletes a tenant, in the same transaction, before any other request can run:
 * a change made by any statement there is seen too (tests make some). On PostgreSQL, where
 * other processes change keys through connections of their own, any change to a tenant's
 * keys or state gives the tenant a new version, and a request that finds it forgets the
 * tenant's keys before it is authenticated again (tenants/versions.ts, D81).
 */
import type { Db } from '../store/db.ts';
import type { TenantState } from './store.ts';

/** What an authenticated key resolves to (frozen, scopes too: one object serves many requests). */
export interface KeyPrincipal {
  keyId: string;
  tenantId: string;
  scopes: string[];
  rateLimit: number;
  tenantState: TenantState;
}

/** A live key as the cache holds it: never the key itself, only its SHA-256. */
export interface CachedKey {
  secretHash: Buffer;
  principal: KeyPrincipal;
}

/** The cache's entries, and the ways a change in the database reaches it. */
export interface KeyCache {
  get(keyId: string): CachedKey | undefined;
  /** Keeps `entry` unless something was forgotten since `generation` was read (the entry may be older than that change). */
  set(keyId: string, entry: CachedKey, generation: number): void;
  /** Counts every forget: a read that started before one must not fill the cache. */
  readonly generation: number;
  forgetKey(keyId: string): void;
  forgetTenant(tenantId: string): void;
  forgetAll(): void;
}

// Every cache over a connection: a store made twice over one database keeps both exact.
const cachesOf = new WeakMap<Db, Set<KeyCache>>();

const TRIGGERS = `
  CREATE TEMP TRIGGER IF NOT EXISTS key_cache_key_inserted AFTER INSERT ON main.api_keys
    BEGIN SELECT waybill_forget_key(NEW.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS key_cache_key_updated AFTER UPDATE ON main.api_keys
    BEGIN SELECT waybill_forget_key(OLD.id), waybill_forget_key(NEW.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS key_cache_key_deleted AFTER DELETE ON main.api_keys
    BEGIN SELECT waybill_forget_key(OLD.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS key_cache_tenant_inserted AFTER INSERT ON main.tenants
    BEGIN SELECT waybill_forget_tenant(NEW.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS key_cache_tenant_changed AFTER UPDATE OF id, state ON main.tenants
    BEGIN SELECT waybill_forget_tenant(OLD.id), waybill_forget_tenant(NEW.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS key_cache_tenant_deleted AFTER DELETE ON main.tenants
    BEGIN SELECT waybill_forget_tenant(OLD.id); END;
`;

/** Registers the callbacks and TEMP triggers of `db` once; they reach every cache over it. */
function watch(db: Db): Set<KeyCache> {
  let caches = cachesOf.get(db);
  if (caches === undefined) {
    const all = new Set<KeyCache>();
    caches = all;
    cachesOf.set(db, all);
    db.function('waybill_forget_key', { deterministic: false }, (keyId: unknown) => {
      for (const cache of all) cache.forgetKey(String(keyId));
      return null;
    });
    db.function('waybill_forget_tenant', { deterministic: false }, (tenantId: unknown) => {
      for (const cache of all) cache.forgetTenant(String(tenantId));
      return null;
    });
    db.exec(TRIGGERS);
  }
  return caches;
}

/** A key cache, emptied of a key or a tenant's keys by every change to them; over SQLite's `db`, by its triggers too. */
export function makeKeyCache(db?: Db): KeyCache {
  const entries = new Map<string, CachedKey>();
  let generation = 0;
  const cache: KeyCache = {
    get: (keyId) => entries.get(keyId),
    set(keyId, entry, readAt) {
      if (readAt === generation) entries.set(keyId, entry);
    },
    get generation() {
      return generation;
    },
    forgetKey(keyId) {
      generation++;
      entries.delete(keyId);
    },
    forgetTenant(tenantId) {
      generation++;
      for (const [keyId, entry] of entries) if (entry.principal.tenantId === tenantId) entries.delete(keyId);
    },
    forgetAll() {
      generation++;
      entries.clear();
    },
  };
  if (db !== undefined) watch(db).add(cache);
  return cache;
}
