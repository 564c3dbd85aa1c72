/**
 * A key's token bucket (D14), its arithmetic in one place: `limit` tokens, refilled
 * continuously at `limit / 60,000` a millisecond of the tenant's time (D52), one taken per
 * request. One process keeps its buckets in memory (`take`, on SQLite); processes sharing a
 * PostgreSQL database keep them in a table, where one statement (`TAKE_TOKEN`) refills and
 * takes exactly as `take` does, in the same IEEE doubles, so both answer the same headers
 * (`limitHeaders`) for the same calls (D81).
 */
import type { Clock } from '../domain/time.ts';
import { type Sql, statement } from '../store/sql.ts';

/** A bucket: its tokens at the tenant time `at` (ms). */
export interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Below one token by float error only: refills summed over several waits carry it (a client
 * that waited exactly the Retry-After it was given, 7 s then 5 s of a 12 s token, holds
 * 0.9999999999999999 of one).
 */
const ONE_TOKEN = 1 - 1e-9;

/** Tokens a millisecond of a key allowed `limit` requests a minute. */
const perMs = (limit: number) => limit / 60_000;

/** A full bucket at `now`, as a key's first request finds it. */
export const fullBucket = (limit: number, now: number): Bucket => ({ tokens: limit, at: now });

/** Refills `bucket` up to `now` and takes a token if it holds one; answers whether it took one. A clock that steps back refills nothing (and takes nothing away). */
export function take(bucket: Bucket, now: number, limit: number): boolean {
  bucket.tokens = Math.min(limit, bucket.tokens + Math.max(0, now - bucket.at) * perMs(limit));
  bucket.at = Math.max(bucket.at, now);
  const taken = bucket.tokens >= ONE_TOKEN;
  if (taken) bucket.tokens = Math.max(0, bucket.tokens - 1);
  return taken;
}

/** What the answer tells of a bucket left holding `tokens`: the RateLimit-* headers' values. */
export interface LimitHeaders {
  remaining: number;
  /** Seconds until the next whole token, the instant `remaining` goes up by one (and, refused, the Retry-After). */
  reset: number;
}

/**
 * The headers' values for `tokens` left of `limit`: Reset rounded up, less a nanosecond of
 * float error (11 s into a 12 s wait is 1 s, not 1.0000000000000009), at least 1; 0 only
 * for a full bucket.
 */
export function limitHeaders(tokens: number, limit: number): LimitHeaders {
  const reset = tokens >= limit ? 0 : Math.max(1, Math.ceil((Math.floor(tokens) + 1 - tokens) / perMs(limit) / 1000 - 1e-9));
  return { remaining: Math.floor(tokens), reset };
}

// `take` in SQL, on the latest row (ON CONFLICT DO UPDATE sees the row as the last writer
// left it, whichever process that was): the same operations in the same order, in doubles.
const REFILLED = 'least(CAST(excluded.rate_limit AS double precision), b.tokens + greatest(0, excluded.at - b.at) * (CAST(excluded.rate_limit AS double precision) / 60000))';
const HAS_TOKEN = `${REFILLED} >= 1 - CAST(1e-9 AS double precision)`;

/**
 * Takes a token of key `keyId` (allowed `limit` a minute) of tenant `tenantId`: the bucket
 * refilled to the tenant's time, read from `tenant_clocks` at the wall time given (so a clock
 * another process set counts at once), and answers the tenant's version (D81) in the same
 * round trip. A key's first request finds a full bucket. PostgreSQL only.
 */
// requirement: D81
const TAKE_TOKEN = statement(`
  WITH clock AS (
    SELECT coalesce((SELECT coalesce(c.frozen_at, CAST(? AS bigint) + c.offset_ms) FROM tenant_clocks c WHERE c.tenant_id = ?), CAST(? AS bigint)) AS now
  )
  INSERT INTO rate_limit_buckets AS b (key_id, rate_limit, tokens, at, taken)
  SELECT ?, CAST(? AS integer), CAST(? AS double precision) - 1, clock.now, 1 FROM clock
  ON CONFLICT (key_id) DO UPDATE SET
    tokens = CASE WHEN ${HAS_TOKEN} THEN greatest(0, ${REFILLED} - 1) ELSE ${REFILLED} END,
    taken = CASE WHEN ${HAS_TOKEN} THEN 1 ELSE 0 END,
    at = greatest(b.at, excluded.at),
    rate_limit = excluded.rate_limit
  RETURNING b.tokens, b.taken, (SELECT t.version FROM tenants t WHERE t.id = ?) AS version`);

/** What a shared bucket answered: the tokens left, whether one was taken, and the tenant's version (null: no such tenant any more). */
export interface SharedTake {
  tokens: number;
  taken: boolean;
  version: number | null;
}

/** The keys' buckets in the database (PostgreSQL, several processes); `wall` is the wall clock the tenants' clocks run from. */
export function makeSharedBuckets(sql: Sql, wall: Clock) {
  return {
    /** Takes a token of the key's bucket, one statement; see `TAKE_TOKEN`. */
    async take(tenantId: string, keyId: string, limit: number): Promise<SharedTake> {
      const now = wall();
      const row = await sql.one<{ tokens: number; taken: number; version: number | null }>(TAKE_TOKEN, [now, tenantId, now, keyId, limit, limit, tenantId]);
      return { tokens: row!.tokens, taken: row!.taken === 1, version: row!.version };
    },
  };
}

/** The shared buckets. */
export type SharedBuckets = ReturnType<typeof makeSharedBuckets>;
