/**
 * Per-key rate limits (D14): a token bucket of `rateLimitPerMinute` tokens that refills
 * continuously (token-bucket.ts). Every authenticated answer carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds until one more request is available);
 * an empty bucket answers 429 `api.rate_limited` with `Retry-After`, the same instant as its
 * Reset. One process keeps the buckets in memory and answers at once; processes sharing a
 * PostgreSQL database take the token in the database, one statement that also answers the
 * tenant's version (D81).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { TenantClock } from '../domain/time.ts';
import type { TenantVersions } from '../tenants/versions.ts';
import { principalOf, setAnswerHeader } from './context.ts';
import { problem, type ProblemError } from './problem.ts';
import { type Bucket, fullBucket, limitHeaders, type SharedBuckets, take } from './token-bucket.ts';

/** The 429 of a key whose bucket of `limit` a minute is empty, with the seconds until it holds a token again. */
export function rateLimited(limit: number, retryAfterSeconds: number): ProblemError {
  return problem('api.rate_limited', `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfterSeconds} s.`, undefined, { headers: { 'Retry-After': String(retryAfterSeconds) } });
}

/** Answers the request after its token was taken (or not): the headers, then 429 or on. */
function limited(res: Response, next: NextFunction, limit: number, tokens: number, taken: boolean): void {
  const { remaining, reset } = limitHeaders(tokens, limit);
  setAnswerHeader(res, 'RateLimit-Limit', String(limit));
  setAnswerHeader(res, 'RateLimit-Remaining', String(remaining));
  setAnswerHeader(res, 'RateLimit-Reset', String(reset));
  if (!taken) {
    next(rateLimited(limit, reset));
    return;
  }
  next();
}

// requirement: int.limits.rate-limit
// requirement: int.errors.rate-limit-429
// requirement: int.errors.retry-after-honourable
// requirement: cat.api.rate-limited
// requirement: D14
// requirement: D25
/** Middleware: takes one token from the key's bucket, kept in this process's memory, or answers 429. */
export function makeRateLimit(options: { clock: TenantClock }) {
  const buckets = new Map<string, Bucket>();
  return function rateLimit(_req: Request, res: Response, next: NextFunction): void {
    const { tenantId, keyId, rateLimit: limit } = principalOf(res);
    // The tenant's clock (D52): a frozen clock refills nothing until it is advanced.
    const now = options.clock(tenantId);
    let bucket = buckets.get(keyId);
    if (bucket === undefined) {
      bucket = fullBucket(limit, now);
      buckets.set(keyId, bucket);
    }
    const taken = take(bucket, now, limit);
    limited(res, next, limit, bucket.tokens, taken);
  };
}

// requirement: D81
/**
 * Middleware: takes one token from the key's bucket in the database, or answers 429. When
 * the tenant's version it answers is not the one this process's caches were read at (a key
 * revoked, the tenant suspended, its clock set or a fault rule added, maybe by another
 * process), the tenant's caches are read again and the request authenticated again, from the
 * database, by `authenticate` (the auth middleware) before it goes on.
 */
export function makeSharedRateLimit(options: { buckets: SharedBuckets; versions: TenantVersions; authenticate: RequestHandler }) {
  const { buckets, versions, authenticate } = options;
  return function rateLimit(req: Request, res: Response, next: NextFunction): void {
    const { tenantId, keyId, rateLimit: limit } = principalOf(res);
    buckets.take(tenantId, keyId, limit).then(({ tokens, taken, version }) => {
      if (versions.current(tenantId, version)) {
        limited(res, next, limit, tokens, taken);
        return;
      }
      versions.refresh(tenantId, version).then(() => {
        authenticate(req, res, (error?: unknown) => {
          if (error !== undefined) next(error);
          // A key's limit changed by a statement outside the API (no operation changes one): its bucket is taken at the new limit.
          else if (principalOf(res).rateLimit !== limit) rateLimit(req, res, next);
          else limited(res, next, limit, tokens, taken);
        });
      }, next);
    }, next);
  };
}
