/**
 * Rate limit: the profile's `rateLimited` key is refused 429 with Retry-After once its quota is
 * spent, while other keys go on; every answer states the quota in `RateLimit-*` headers. The
 * quota is spent once per run (`ctx.shared`), by whichever refusal check runs first, from a
 * whole quota (`support/quota-burst.ts`: a profile's key an earlier run spent is waited out,
 * never held against the target), and the 429 is judged three times: readable (MUST), a delay a
 * client can honour (SHOULD), and waybill's code and whole seconds (D14, D25). A token
 * refilled during the burst is counted, not held against the target.
 */
import { performance } from 'node:perf_hooks';
import { describeExchange, finding, show } from '../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../engine/types/check.ts';
import type { HttpResponse } from '../engine/types/exchange.ts';
import { otherUses, refillIn, spendQuota, whoami } from './support/quota-burst.ts';
import { answerClock, HONOURABLE_SECONDS, retryAfterDishonourable, retryAfterProblem, retryAfterUnreadable } from './support/retry-after.ts';

/** `status body` of an answer, for `received`. */
function answerText(response: HttpResponse): string {
  return `${response.status} ${show(response.json ?? response.text, 300)}`;
}

/** The burst's 429; the check ends as `skip` when the burst could not show one (ratelimit.exceeded reports why). */
async function refusal(ctx: CheckContext): Promise<HttpResponse> {
  const burst = await spendQuota(ctx);
  if (burst.baseline.status === 429) ctx.skip(`the full key is itself rate limited (exchange #${burst.baseline.exchange.id}), so the quota of the rateLimited key was not spent`);
  if (burst.refused === undefined) ctx.skip(`the rateLimited key was never refused (see ratelimit.exceeded)`);
  return burst.refused;
}

/** The catalog codes a rate-limit 429 may carry: the generic one and the API-key one. */
const RATE_LIMIT_CODES = ['api.rate_limited', 'orders.rate_limited'];

/** The `rateLimited` key is refused 429 with a readable Retry-After once its quota is spent; the full key still passes. */
export const exceeded: Check = {
  id: 'ratelimit.exceeded',
  family: 'ratelimit',
  title: 'a key past its per-minute quota gets 429 with a rate-limit code and Retry-After; another key is not limited',
  verifies: ['int.limits.rate-limit', 'int.errors.rate-limit-429', 'cat.api.rate-limited'],
  fix: "count each key's requests against its own per-minute limit, and once they are spent answer 429 api.rate_limited with Retry-After, leaving other keys served (int.limits.rate-limit, int.errors.rate-limit-429, cat.api.rate-limited)",
  requires: ['key:rateLimited', 'key:full'],
  exclusive: true,
  async run(ctx) {
    const perMinute = ctx.profile.keys.rateLimited?.perMinute ?? 0;
    const { baseline, passed, refused, last, elapsedMs, exchangeIds, waited } = await spendQuota(ctx);
    // A full key already limited by the rest of the run would look like a limit shared across keys.
    if (baseline.status === 429) ctx.skip(`the full key is itself rate limited (exchange #${baseline.exchange.id}), so it cannot show that other keys are unaffected`);
    if (refused === undefined) {
      return [
        finding(
          `the rateLimited key was never refused: ${passed} requests passed, the last ${last === undefined ? '' : describeExchange(last.exchange)}`,
          `429 once ${perMinute} requests (the profile's perMinute) and the ${refillIn(elapsedMs, perMinute)} that can be refilled in ${elapsedMs} ms are spent`,
          last === undefined ? 'no request' : answerText(last),
          last?.exchange,
        ),
      ];
    }
    const findings: Finding[] = [];
    const spent = otherUses(ctx, exchangeIds);
    if (passed < perMinute - spent) {
      findings.push(
        finding(
          `the rateLimited key was refused after ${passed} of its ${perMinute} requests per minute: ${describeExchange(refused.exchange)}`,
          `${perMinute - spent} requests pass before the first 429 (${perMinute} a minute${spent > 0 ? `, ${spent} already made by this run` : ''}${waited.length > 0 ? `; after waiting for a whole quota: ${waited.map((wait) => wait.why).join('; ')}` : '; its RateLimit-* headers said its quota was whole when the check began'})`,
          `429 after ${passed} passed`,
          refused.exchange,
        ),
      );
    }
    const type = (refused.json as { type?: unknown } | undefined)?.type;
    if (typeof type !== 'string' || !RATE_LIMIT_CODES.includes(type)) {
      findings.push(finding(`the rate-limit 429 carries no rate-limit code: ${describeExchange(refused.exchange)}`, `type: ${RATE_LIMIT_CODES.join(' or ')}`, `type: ${show(type)}`, refused.exchange, "give the rate-limit 429 a problem body whose type is the catalog's rate-limit code, api.rate_limited (cat.api.rate-limited)"));
    }
    const unreadable = retryAfterUnreadable(refused.headers['retry-after']);
    if (unreadable !== null) findings.push(finding(`the rate-limit 429 does not say when to retry: ${describeExchange(refused.exchange)}`, 'Retry-After: delay-seconds or an HTTP-date', unreadable, refused.exchange, "send Retry-After with every rate-limit 429, as delay-seconds or an HTTP-date, saying when the key's quota allows the next request (int.errors.rate-limit-429)"));

    const other = await whoami(ctx, 'full');
    if (other.status === 429) {
      findings.push(finding(`the full key was refused while only the rateLimited key was past its quota: ${describeExchange(other.exchange)}`, 'a per-key limit: the full key still answered (200)', answerText(other), other.exchange, "keep a quota per key: spending one key's quota must not refuse another key's requests (int.limits.rate-limit)"));
    }
    return findings;
  },
};

/** The rate-limit 429's Retry-After asks for a delay a client can honour: 0 to 60 s. */
export const retryAfterHonourable: Check = {
  id: 'ratelimit.retryAfter.honourable',
  family: 'ratelimit',
  title: "the rate-limit 429's Retry-After asks for a delay within the quota's one-minute window (0 to 60 s)",
  verifies: ['int.errors.retry-after-honourable'],
  fix: "ask in a rate-limit 429's Retry-After for the time until the key's next token, never more than the quota's one-minute window (int.errors.retry-after-honourable)",
  requires: ['key:rateLimited', 'key:full'],
  exclusive: true,
  async run(ctx) {
    const refused = await refusal(ctx);
    const problem = retryAfterDishonourable(refused.headers['retry-after'], answerClock(refused));
    return problem === null ? [] : [finding(`the rate-limit 429 asks for a delay no per-minute quota needs: ${describeExchange(refused.exchange)}`, `Retry-After: a delay of 0 to ${HONOURABLE_SECONDS} s`, problem, refused.exchange)];
  },
};

/** The rate-limit 429 is api.rate_limited (D25) with Retry-After in whole seconds, at least 1 (D14). */
export const exceededDecided: Check = {
  id: 'ratelimit.exceeded.decided',
  family: 'ratelimit',
  title: 'the rate-limit 429 carries api.rate_limited, not orders.rate_limited, and Retry-After in whole seconds, at least 1',
  verifies: ['D14', 'D25'],
  fix: 'type the rate-limit 429 api.rate_limited (never orders.rate_limited) and give its Retry-After in whole seconds, at least 1 (D14, D25)',
  requires: ['key:rateLimited', 'key:full'],
  exclusive: true,
  async run(ctx) {
    const refused = await refusal(ctx);
    const findings: Finding[] = [];
    const type = (refused.json as { type?: unknown } | undefined)?.type;
    if (type !== 'api.rate_limited') findings.push(finding(`the rate-limit 429 carries another type: ${describeExchange(refused.exchange)}`, 'type: api.rate_limited', `type: ${show(type)}`, refused.exchange));
    // A 429 without Retry-After breaks the seeds, which ratelimit.exceeded reports; there is no value to judge here.
    if (refused.headers['retry-after'] === undefined) {
      if (findings.length === 0) return ctx.skip('the rate-limit 429 carried no Retry-After, so there is no value to judge (ratelimit.exceeded reports the missing header)');
      return findings;
    }
    const retryAfter = retryAfterProblem(refused.headers['retry-after']);
    if (retryAfter !== null) findings.push(finding(`the rate-limit 429's Retry-After is not whole seconds of at least 1: ${describeExchange(refused.exchange)}`, 'Retry-After: whole seconds, at least 1', retryAfter, refused.exchange));
    return findings;
  },
};

/** How many whoami answers the headers check compares. */
const probes = 4;

/** The `RateLimit-*` value of `name` as a whole number, or why it is not one. */
function rateLimitValue(response: HttpResponse, name: string, minimum: number): number | string {
  const value = response.headers[name.toLowerCase()];
  if (value === undefined) return `no ${name} header`;
  if (!/^\d+$/.test(value.trim()) || Number(value) < minimum) return `${name}: ${value}`;
  return Number(value);
}

/** Every answer carries RateLimit-Limit, -Remaining and -Reset, and Remaining goes down as requests are made. */
export const headers: Check = {
  id: 'ratelimit.headers',
  family: 'ratelimit',
  title: 'answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, and Remaining goes down with each request',
  verifies: ['D14'],
  fix: 'send RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset as whole numbers on every answer, a refusal too, with Remaining taking one for each request the key makes (D14)',
  requires: ['key:full'],
  async run(ctx) {
    const findings: Finding[] = [];
    const start = performance.now();
    const answers: HttpResponse[] = [];
    for (let index = 0; index < probes; index += 1) answers.push(await whoami(ctx, 'full'));
    const elapsed = performance.now() - start;
    // A refusal must state the quota too.
    answers.push(await ctx.http.request({ method: 'GET', path: '/api/v1/integration/orders', query: { limit: 0 } }));

    const remaining: number[] = [];
    let limit: number | undefined;
    for (const [index, response] of answers.entries()) {
      const values = [rateLimitValue(response, 'RateLimit-Limit', 1), rateLimitValue(response, 'RateLimit-Remaining', 0), rateLimitValue(response, 'RateLimit-Reset', 0)];
      const broken = values.filter((value): value is string => typeof value === 'string');
      if (broken.length > 0) {
        findings.push(finding(`an answer without a usable quota: ${describeExchange(response.exchange)}`, 'RateLimit-Limit (≥ 1), RateLimit-Remaining and RateLimit-Reset (≥ 0), whole numbers', broken.join('; '), response.exchange));
        continue;
      }
      const [quota, left] = values as number[];
      if (left! > quota!) findings.push(finding(`RateLimit-Remaining exceeds RateLimit-Limit: ${describeExchange(response.exchange)}`, `RateLimit-Remaining ≤ ${quota}`, `RateLimit-Remaining: ${left}`, response.exchange));
      if (index < probes && response.status !== 429) {
        remaining.push(left!);
        limit = quota;
      }
    }
    // Each request takes one token; at most `refill` come back meanwhile (other checks only take more).
    const [firstLeft, lastLeft] = [remaining[0], remaining.at(-1)];
    if (remaining.length === probes && firstLeft !== undefined && lastLeft !== undefined && limit !== undefined) {
      const bound = firstLeft - (probes - 1) + refillIn(elapsed, limit);
      const lastAnswer = answers[probes - 1]!;
      if (lastLeft > bound) {
        findings.push(
          finding(
            `RateLimit-Remaining did not go down over ${probes} requests: ${describeExchange(lastAnswer.exchange)}`,
            `RateLimit-Remaining ≤ ${bound} (${firstLeft} after the first, minus ${probes - 1} requests, plus what ${limit}/min refills in ${Math.round(elapsed)} ms)`,
            `RateLimit-Remaining: ${remaining.join(' → ')}`,
            lastAnswer.exchange,
          ),
        );
      }
    }
    return findings;
  },
};

/** The ratelimit family. */
export const ratelimitChecks: Check[] = [exceeded, retryAfterHonourable, exceededDecided, headers];
