/**
 * Per-key rate limits (D14): a token bucket of `rateLimitPerMinute` tokens that refills
 * continuously. Every authenticated answer carries `RateLimit-Limit`, `RateLimit-Remaining`
 * and `RateLimit-Reset`; an empty bucket answers 429 `api.rate_limited` with `Retry-After`.
 */
import type { NextFunction, Request, Response } from 'express';
import type { TenantClock } from '../domain/time.ts';
import { principalOf } from './context.ts';
import { problem } from './problem.ts';

interface Bucket {
  tokens: number;
  at: number;
}

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
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
    res.setHeader('RateLimit-Reset', String(Math.ceil((limit - bucket.tokens) / perMs / 1000)));
    if (!allowed) {
      // Rounded up, less a nanosecond of float error: 11 s into a 12 s wait is 1 s, not 1.0000000000000009.
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000 - 1e-9));
      next(problem('api.rate_limited', `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfter} s.`, undefined, { headers: { 'Retry-After': String(retryAfter) } }));
      return;
    }
    next();
  };
}
