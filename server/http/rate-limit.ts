/**
 * Per-key rate limits (D14): a token bucket of `rateLimitPerMinute` tokens that refills
 * continuously. Every authenticated answer carries `RateLimit-Limit`, `RateLimit-Remaining`
 * and `RateLimit-Reset` (seconds until one more request is available); an empty bucket
 * answers 429 `api.rate_limited` with `Retry-After`, the same instant as its Reset.
 */
import type { NextFunction, Request, Response } from 'express';
import type { TenantClock } from '../domain/time.ts';
import { principalOf } from './context.ts';
import { problem } from './problem.ts';

interface Bucket {
  tokens: number;
  at: number;
}

// requirement: int.limits.rate-limit
// requirement: int.errors.rate-limit-429
// requirement: int.errors.retry-after-honourable
// requirement: cat.api.rate-limited
// requirement: D14
// requirement: D25
/** Middleware: takes one token from the key's bucket or answers 429. */
export function makeRateLimit(options: { clock: TenantClock }) {
  const buckets = new Map<string, Bucket>();
  return function rateLimit(_req: Request, res: Response, next: NextFunction): void {
    const { tenantId, keyId, rateLimit: limit } = principalOf(res);
    // The tenant's clock (D52): a frozen clock refills nothing until it is advanced.
    const now = options.clock(tenantId);
    const perMs = limit / 60_000;
    let bucket = buckets.get(keyId);
    if (bucket === undefined) {
      bucket = { tokens: limit, at: now };
      buckets.set(keyId, bucket);
    }
    // A clock that steps back refills nothing (and takes nothing away).
    bucket.tokens = Math.min(limit, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = Math.max(bucket.at, now);
    // Refills summed over several waits carry float error: a client that waited exactly the
    // Retry-After it was given (7 s, then 5 s, of a 12 s token) holds 0.9999999999999999 of one.
    const allowed = bucket.tokens >= 1 - 1e-9;
    if (allowed) bucket.tokens = Math.max(0, bucket.tokens - 1);
    // Seconds until the next whole token, the instant RateLimit-Remaining goes up by one (and,
    // refused, the Retry-After): rounded up, less a nanosecond of float error (11 s into a 12 s
    // wait is 1 s, not 1.0000000000000009), at least 1; 0 only for a full bucket.
    const untilNext = bucket.tokens >= limit ? 0 : Math.max(1, Math.ceil((Math.floor(bucket.tokens) + 1 - bucket.tokens) / perMs / 1000 - 1e-9));
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
    res.setHeader('RateLimit-Reset', String(untilNext));
    if (!allowed) {
      next(problem('api.rate_limited', `Rate limit of ${limit} requests per minute exceeded; retry after ${untilNext} s.`, undefined, { headers: { 'Retry-After': String(untilNext) } }));
      return;
    }
    next();
  };
}
