/**
 * API keys. A key is `wbk_<id>_<secret>`; only its SHA-256 is stored, and a presented key
 * is compared with the stored hash in constant time.
 */
import crypto, { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type components, scopeValues } from '../../spec/sandbox-types.ts';
import { type TenantClock, utc } from '../domain/time.ts';
import type { Db } from '../store/db.ts';
import { q, type Sql, statement, type Steps } from '../store/sql.ts';
import { type KeyCache, type KeyPrincipal, makeKeyCache } from './key-cache.ts';
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

const COLUMNS = 'id, tenant_id, name, secret_hash, scopes, rate_limit, created_at, revoked_at';
const INSERT = statement('INSERT INTO api_keys (id, tenant_id, name, secret_hash, scopes, rate_limit, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
const FOR_AUTH = statement(
  'SELECT k.id, k.tenant_id, k.name, k.secret_hash, k.scopes, k.rate_limit, k.created_at, k.revoked_at, t.state FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.id = ?',
);
const BY_ID = statement(`SELECT ${COLUMNS} FROM api_keys WHERE id = ? AND tenant_id = ?`);
const BY_TENANT = statement(`SELECT ${COLUMNS} FROM api_keys WHERE tenant_id = ? ORDER BY created_at, id`);
const REVOKE = statement('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');

/** What `authenticate` answers: at once from the cache, or once the key is read. */
export type Authenticated = KeyPrincipal | null | Promise<KeyPrincipal | null>;

/**
 * The API keys over `sql`, stamped with each tenant's clock. `watch` is SQLite's connection,
 * whose triggers keep the key cache exact whatever statement changes a key.
 */
export function makeKeys(sql: Sql, clock: TenantClock, watch?: Db) {
  const cache: KeyCache = makeKeyCache(watch);

  /** Compares `presented` with the stored key (or the decoy) in constant time. */
  const verdict = (presented: string, key: { secretHash: Buffer; principal: KeyPrincipal } | undefined): KeyPrincipal | null =>
    timingSafeEqual(sha256(presented), key?.secretHash ?? DECOY_HASH) && key !== undefined ? key.principal : null;

  /** Reads the key `keyId`, keeps it in the cache when live, and judges `presented` against it. */
  async function fromDatabase(presented: string, keyId: string): Promise<KeyPrincipal | null> {
    const generation = cache.generation;
    const row = await sql.one<KeyRow & { state: TenantState }>(FOR_AUTH, [keyId]);
    if (row === undefined || row.revoked_at !== null) return verdict(presented, undefined);
    const principal: KeyPrincipal = Object.freeze({
      keyId: row.id,
      tenantId: row.tenant_id,
      scopes: Object.freeze(row.scopes === '' ? [] : row.scopes.split(' ')) as string[],
      rateLimit: row.rate_limit,
      tenantState: row.state,
    });
    const entry = { secretHash: row.secret_hash, principal };
    cache.set(keyId, entry, generation);
    return verdict(presented, entry);
  }

  const steps = {
    /** Creates a key; the returned `secret` is the only time the key is ever available. */
    *create(input: { tenantId: string; name: string; scopes: readonly string[]; rateLimit?: number }): Steps<ApiKeyInfo & { secret: string }> {
      const id = `key_${randomId(12)}`;
      const secret = `wbk_${id.slice(4)}_${randomBytes(24).toString('base64url')}`;
      yield* q.run(INSERT, [id, input.tenantId, input.name, sha256(secret), input.scopes.join(' '), input.rateLimit ?? DEFAULT_RATE_LIMIT, utc(clock(input.tenantId))]);
      return { ...toInfo((yield* q.one<KeyRow>(BY_ID, [id, input.tenantId]))!), secret };
    },
    /** Revokes the key; false when it was already revoked (tell the cache once it commits). */
    *revoke(tenantId: string, id: string): Steps<boolean> {
      if ((yield* q.one(BY_ID, [id, tenantId])) === undefined) return false;
      return (yield* q.run(REVOKE, [utc(clock(tenantId)), id])).changes === 1;
    },
  };

  return {
    /** The steps other units of work run inside their own transaction. */
    steps,
    /** Creates a key; the returned `secret` is the only time the key is ever available. */
    create: (input: { tenantId: string; name: string; scopes: readonly string[]; rateLimit?: number }): Promise<ApiKeyInfo & { secret: string }> =>
      sql.write(input.tenantId, () => steps.create(input)),
    // requirement: int.auth.one-tenant
    // requirement: int.auth.revoked
    /**
     * The live key that `presented` is, or null (unknown, malformed or revoked); the answer is
     * shared and frozen. From the cache it answers at once (the hot path awaits nothing); a key
     * the cache does not hold yet is read first.
     */
    authenticate(presented: string): Authenticated {
      const match = KEY_PATTERN.exec(presented);
      if (match === null) return verdict(presented, undefined);
      const keyId = `key_${match[1]}`;
      const cached = cache.get(keyId);
      return cached !== undefined ? verdict(presented, cached) : fromDatabase(presented, keyId);
    },
    /**
     * Whose revoked key `presented` is, or null (unknown, malformed, live, or a wrong secret):
     * only the key itself, its hash matching a revoked key's, names a tenant. Asked only of a
     * key `authenticate` refused; the comparison runs in constant time against the stored
     * hash, or the decoy when the id names no key, as `authenticate`'s does.
     */
    async revokedOwner(presented: string): Promise<RevokedKeyOwner | null> {
      const match = KEY_PATTERN.exec(presented);
      const row = match ? await sql.one<KeyRow>(FOR_AUTH, [`key_${match[1]}`]) : undefined;
      const same = timingSafeEqual(sha256(presented), row?.secret_hash ?? DECOY_HASH);
      return same && row !== undefined && row.revoked_at !== null ? { keyId: row.id, tenantId: row.tenant_id } : null;
    },
    /** The key `id` of the tenant, or undefined. */
    async get(tenantId: string, id: string): Promise<ApiKeyInfo | undefined> {
      const row = await sql.one<KeyRow>(BY_ID, [id, tenantId]);
      return row && toInfo(row);
    },
    /** The tenant's keys, oldest first. */
    async list(tenantId: string): Promise<ApiKeyInfo[]> {
      return (await sql.all<KeyRow>(BY_TENANT, [tenantId])).map(toInfo);
    },
    /** Revokes the key; false when it was already revoked. */
    async revoke(tenantId: string, id: string): Promise<boolean> {
      const revoked = await sql.write(tenantId, () => steps.revoke(tenantId, id));
      cache.forgetKey(id);
      return revoked;
    },
    /** Forgets what the cache holds of a tenant whose state changed, or of every tenant (a reset). */
    forget(tenantId: string | null): void {
      if (tenantId === null) cache.forgetAll();
      else cache.forgetTenant(tenantId);
    },
  };
}

export type Keys = ReturnType<typeof makeKeys>;
