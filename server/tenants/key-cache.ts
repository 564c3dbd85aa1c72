/**
 * The authenticated-key cache: key id → the key's stored hash and what it authenticates as,
 * so that a request with a known key costs one hash and one comparison, not a query.
 *
 * Invalidation is exact: TEMP triggers on this connection call back into the cache from
 * inside every statement that inserts, updates or deletes a key, changes a tenant's state
 * or deletes a tenant (revoke, suspend, reactivate, archive, reset, provisioning, and any
 * scope or rate-limit change), in the same transaction, before any other request can run.
 * The process owns its database: a change made through another connection is not seen.
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

/** The cache's entries, and the two ways a change in the database reaches it. */
export interface KeyCache {
  get(keyId: string): CachedKey | undefined;
  set(keyId: string, entry: CachedKey): void;
  forgetKey(keyId: string): void;
  forgetTenant(tenantId: string): void;
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

/** A key cache over `db`, emptied of a key or a tenant's keys by every change to them. */
export function makeKeyCache(db: Db): KeyCache {
  const entries = new Map<string, CachedKey>();
  const cache: KeyCache = {
    get: (keyId) => entries.get(keyId),
    set: (keyId, entry) => void entries.set(keyId, entry),
    forgetKey: (keyId) => void entries.delete(keyId),
    forgetTenant(tenantId) {
      for (const [keyId, entry] of entries) if (entry.principal.tenantId === tenantId) entries.delete(keyId);
    },
  };
  watch(db).add(cache);
  return cache;
}
