/**
 * Spending the profile's `rateLimited` key's quota, once per run, for the checks that judge the
 * 429 it ends in. A profile may be saved and run again, so the key may come with its quota
 * partly spent by an earlier run: the burst starts from a whole quota, never from what another
 * run left. The key's state is read first, from the `RateLimit-*` headers of one request when
 * the target sends them (D14); a shortfall this run does not explain is waited out, up to the
 * minute a requests-per-minute quota needs to be whole again. Without the headers the state is
 * unknown: a burst refused early is repeated once after that minute, and only the repeat counts.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { CheckContext } from '../../engine/types/check.ts';
import type { HttpResponse } from '../../engine/types/exchange.ts';

const whoamiPath = '/api/v1/integration/whoami';

/** The longest a requests-per-minute quota can take to be whole again, with a margin. */
export const WHOLE_QUOTA_MS = 61_000;

/** whoami with `key`. */
export function whoami(ctx: CheckContext, key: string): Promise<HttpResponse> {
  return ctx.http.request({ method: 'GET', path: whoamiPath, key });
}

/** Tokens a bucket of `perMinute` can regain in `ms` milliseconds, rounded up. */
export function refillIn(ms: number, perMinute: number): number {
  return Math.ceil((ms / 60_000) * perMinute);
}

/** Requests this run made with the `rateLimited` key in the last minute outside `burst` (they spent part of its quota). */
export function otherUses(ctx: CheckContext, burst: ReadonlySet<number>): number {
  const since = Date.now() - 60_000;
  return ctx.exchanges().filter(
    (exchange) => !burst.has(exchange.id) && Date.parse(exchange.startedAt) >= since && Object.values(exchange.request.headers).some((value) => value.includes('<redacted:rateLimited>')),
  ).length;
}

/** What spending the `rateLimited` key's quota gave: the first 429, or the last answer when none came. */
export interface Burst {
  /** The full key's whoami before the burst; a 429 there means the run itself spent the full key. */
  baseline: HttpResponse;
  passed: number;
  refused?: HttpResponse;
  last?: HttpResponse;
  elapsedMs: number;
  /** The exchanges of the burst, so that they are not counted as other checks' uses of the key. */
  exchangeIds: ReadonlySet<number>;
  /** How long the check waited for a whole quota before the burst it judges, and why (empty when it did not). */
  waited: { ms: number; why: string }[];
}

/** A `RateLimit-*` header as a whole number, or undefined. */
function wholeHeader(answer: HttpResponse, name: string): number | undefined {
  const value = answer.headers[name]?.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * What the `RateLimit-*` headers of `answer` say of the key's bucket: whole, when what remains
 * and what this run took in the last minute (`ownUses`, `answer` included) make up the limit;
 * else how long until it is (the later of RateLimit-Reset and the missing tokens' refill, at most a minute). Undefined without the headers.
 */
export function bucketState(answer: HttpResponse, ownUses: number): { whole: true } | { whole: false; waitMs: number; seen: string } | undefined {
  const limit = wholeHeader(answer, 'ratelimit-limit');
  const remaining = wholeHeader(answer, 'ratelimit-remaining');
  if (limit === undefined || remaining === undefined) return undefined;
  if (remaining + ownUses >= limit) return { whole: true };
  const reset = wholeHeader(answer, 'ratelimit-reset');
  // Reset may name the next request's moment (D14's token bucket: one token every 60/limit s)
  // or the whole quota's (a window): wait for whichever is later, the missing tokens' refill or Reset.
  const refillSeconds = ((limit - remaining) * 60) / Math.max(limit, 1);
  const waitMs = Math.min(reset === undefined ? WHOLE_QUOTA_MS : Math.ceil(Math.max(reset, refillSeconds) * 1000) + 500, WHOLE_QUOTA_MS);
  const seen = `RateLimit-Remaining: ${remaining} of ${limit} (exchange #${answer.exchange.id}), ${limit - remaining - ownUses} spent before this run, RateLimit-Reset: ${answer.headers['ratelimit-reset'] ?? 'none'}`;
  return { whole: false, waitMs, seen };
}

/**
 * One burst: requests with the `rateLimited` key until the first 429, or until more passed than
 * the quota and its refill allow; `opening`, an answer just received with the key, is its first.
 */
async function burstOnce(ctx: CheckContext, perMinute: number, opening?: HttpResponse): Promise<Omit<Burst, 'baseline' | 'waited'>> {
  const exchangeIds = new Set<number>();
  const start = performance.now() - (opening?.durationMs ?? 0);
  let passed = 0;
  let refused: HttpResponse | undefined;
  let last: HttpResponse | undefined;
  while (passed <= perMinute + refillIn(performance.now() - start, perMinute)) {
    last = opening ?? (await whoami(ctx, 'rateLimited'));
    opening = undefined;
    exchangeIds.add(last.exchange.id);
    if (last.status === 429) {
      refused = last;
      break;
    }
    passed += 1;
  }
  return { passed, refused, last, elapsedMs: Math.round(performance.now() - start), exchangeIds };
}

/** True when `burst` was refused before the quota, less what the run itself spent in the last minute, was used. */
export function refusedEarly(ctx: CheckContext, burst: Pick<Burst, 'refused' | 'passed' | 'exchangeIds'>, perMinute: number): boolean {
  return burst.refused !== undefined && burst.passed < perMinute - otherUses(ctx, burst.exchangeIds);
}

/**
 * Spends the `rateLimited` key's quota once per run, for every check that judges the refusal,
 * from a whole quota (see the module comment); `sleep` waits (a test passes one that moves the
 * target's clock instead). A bucket that refills continuously may grant a token more for each
 * 60/perMinute s of the burst.
 */
export function spendQuota(ctx: CheckContext, sleep: (ms: number) => Promise<unknown> = (ms) => delay(ms)): Promise<Burst> {
  return ctx.shared('ratelimit:burst', async () => {
    const perMinute = ctx.profile.keys.rateLimited?.perMinute ?? 0;
    const baseline = await whoami(ctx, 'full');
    const waited: Burst['waited'] = [];
    const probe = await whoami(ctx, 'rateLimited');
    const state = bucketState(probe, otherUses(ctx, new Set()));
    if (state?.whole === false) {
      ctx.waiting(state.waitMs, `for the rateLimited key's quota to be whole again (${state.seen})`);
      await sleep(state.waitMs);
      waited.push({ ms: state.waitMs, why: `${state.seen}; waited ${state.waitMs} ms` });
    }
    // Unless it had to wait, the probe is the burst's first request.
    let burst = await burstOnce(ctx, perMinute, state?.whole === false ? undefined : probe);
    if (state === undefined && refusedEarly(ctx, burst, perMinute)) {
      // No headers told the key's state: an earlier run may have spent it. A minute idle makes any per-minute quota whole.
      ctx.waiting(WHOLE_QUOTA_MS, `a minute, so that any per-minute quota is whole: the rateLimited key was refused after ${burst.passed} requests and no RateLimit-* header said whether an earlier run spent it`);
      await sleep(WHOLE_QUOTA_MS);
      waited.push({ ms: WHOLE_QUOTA_MS, why: `the first burst was refused after ${burst.passed} requests (exchange #${burst.refused!.exchange.id}) and no RateLimit-* header told the key's state before it` });
      burst = await burstOnce(ctx, perMinute);
    }
    return { baseline, ...burst, waited };
  });
}
