/**
 * API keys. A key is `wbk_<id>_<secret>`; only its SHA-256 is stored, and a presented key
 * is compared with the stored hash in constant time.
 */
import crypto, { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type components, scopeValues } from '../../spec/sandbox-types.ts';
import { type TenantClock, utc } from '../domain/time.ts';
import type { Db } from '../store/db.ts';
import { type KeyPrincipal, makeKeyCache } from './key-cache.ts';
import type { TenantState } from './store.ts';

export type { KeyPrincipal } from './key-cache.ts';

/** The scope catalog (`Scope` of spec/sandbox.yaml, D2). */
export const SCOPES = scopeValues;
/** A scope of the catalog. */
export type Scope = components['schemas']['Scope'];

// requirement: int.auth.key-rules
// requirement: D33
/** Default and maximum requests per minute of a key (D14). */
export const DEFAULT_RATE_LIMIT = 600;
export const MAX_RATE_LIMIT = 6000;

/** A key as the key list shows it, never the secret (`ApiKey`). */
export type ApiKeyInfo = components['schemas']['ApiKey'];

interface KeyRow {
  id: string;
  tenant_id: string;
  name: string;
  secret_hash: Buffer;
  scopes: string;
  rate_limit: number;
  created_at: string;
  revoked_at: string | null;
}

const KEY_PATTERN = /^wbk_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{32})$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomId(length: number): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

// Node's one-shot `crypto.hash` (20.12 and later) makes no Hash object per request.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
const sha256 = oneShot === undefined
  ? (text: string): Buffer => createHash('sha256').update(text).digest()
  : (text: string): Buffer => oneShot('sha256', text, 'buffer');
// Compared against when the presented key names no stored key, so both paths do the same work.
const DECOY_HASH = sha256('waybill decoy key');

const toInfo = (row: KeyRow): ApiKeyInfo => ({
  id: row.id,
  tenantId: row.tenant_id,
  name: row.name,
  scopes: row.scopes === '' ? [] : (row.scopes.split(' ') as Scope[]),
  rateLimitPerMinute: row.rate_limit,
  createdAtUtc: row.created_at,
  revokedAtUtc: row.revoked_at,
});

/** Whose a revoked key was: a request presenting it is that tenant's, refused (D48). */
export interface RevokedKeyOwner {
  keyId: string;
  tenantId: string;
}

/** API key statements, prepared once. */
export function makeKeys(db: Db, clock: TenantClock) {
  const insert = db.prepare(
    'INSERT INTO api_keys (id, tenant_id, name, secret_hash, scopes, rate_limit, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const forAuth = db.prepare<[string], KeyRow & { state: TenantState }>(
    'SELECT k.*, t.state FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.id = ?',
  );
  const byId = db.prepare<[string, string], KeyRow>('SELECT * FROM api_keys WHERE id = ? AND tenant_id = ?');
  const byTenant = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const cache = makeKeyCache(db);

  /** The live key `keyId` as the cache holds it, read from the database on a miss. */
  const liveKey = (keyId: string) => {
    const cached = cache.get(keyId);
    if (cached !== undefined) return cached;
    const row = forAuth.get(keyId);
    if (row === undefined || row.revoked_at !== null) return undefined;
    const principal: KeyPrincipal = Object.freeze({
      keyId: row.id,
      tenantId: row.tenant_id,
      scopes: Object.freeze(row.scopes === '' ? [] : row.scopes.split(' ')) as string[],
      rateLimit: row.rate_limit,
      tenantState: row.state,
    });
    const entry = { secretHash: row.secret_hash, principal };
    cache.set(keyId, entry);
    return entry;
  };

  return {
    /** Creates a key; the returned `secret` is the only time the key is ever available. */
    create(input: { tenantId: string; name: string; scopes: readonly string[]; rateLimit?: number }): ApiKeyInfo & { secret: string } {
      const id = `key_${randomId(12)}`;
      const secret = `wbk_${id.slice(4)}_${randomBytes(24).toString('base64url')}`;
      insert.run(id, input.tenantId, input.name, sha256(secret), input.scopes.join(' '), input.rateLimit ?? DEFAULT_RATE_LIMIT, utc(clock(input.tenantId)));
      return { ...toInfo(byId.get(id, input.tenantId)!), secret };
    },
    // requirement: int.auth.one-tenant
    // requirement: int.auth.revoked
    /** The live key that `presented` is, or null (unknown, malformed or revoked); the answer is shared and frozen. */
    authenticate(presented: string): KeyPrincipal | null {
      const match = KEY_PATTERN.exec(presented);
      const key = match ? liveKey(`key_${match[1]}`) : undefined;
      const same = timingSafeEqual(sha256(presented), key?.secretHash ?? DECOY_HASH);
      return same && key !== undefined ? key.principal : null;
    },
    /**
     * Whose revoked key `presented` is, or null (unknown, malformed, live, or a wrong secret):
     * only the key itself, its hash matching a revoked key's, names a tenant. Asked only of a
     * key `authenticate` refused; the comparison runs in constant time against the stored
     * hash, or the decoy when the id names no key, as `authenticate`'s does.
     */
    revokedOwner(presented: string): RevokedKeyOwner | null {
      const match = KEY_PATTERN.exec(presented);
      const row = match ? forAuth.get(`key_${match[1]}`) : undefined;
      const same = timingSafeEqual(sha256(presented), row?.secret_hash ?? DECOY_HASH);
      return same && row !== undefined && row.revoked_at !== null ? { keyId: row.id, tenantId: row.tenant_id } : null;
    },
    /** The key `id` of the tenant, or undefined. */
    get(tenantId: string, id: string): ApiKeyInfo | undefined {
      const row = byId.get(id, tenantId);
      return row && toInfo(row);
    },
    /** The tenant's keys, oldest first. */
    list(tenantId: string): ApiKeyInfo[] {
      return byTenant.all(tenantId).map(toInfo);
    },
    /** Revokes the key; false when it was already revoked. */
    revoke(tenantId: string, id: string): boolean {
      if (byId.get(id, tenantId) === undefined) return false;
      return revoke.run(utc(clock(tenantId)), id).changes === 1;
    },
  };
}

export type Keys = ReturnType<typeof makeKeys>;
