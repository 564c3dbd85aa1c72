import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../server/store/index.ts';
import type { KeyPrincipal } from '../../server/tenants/keys.ts';
import { changedPrincipal } from '../../dev/testing/sandbox.ts';
import { answerJson, type AnswerRewrite } from '../../dev/testing/conformance/proxy.ts';
import { type ReferenceTarget, runAgainstBroken, runChecks, startReference } from '../../dev/testing/conformance/reference.ts';
import type { Check } from '../engine/types/check.ts';
import type { CheckResult, CheckWait } from '../engine/types/report.ts';
import { ratelimitChecks } from './ratelimit.ts';
import { spendQuota, WHOLE_QUOTA_MS } from './support/quota-burst.ts';
import { startProxy } from '../../dev/testing/conformance/proxy.ts';

let reference: ReferenceTarget | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

/** Runs the family against the reference (with `wrapStore`), or against a proxy in front of it that applies `rewrite`. */
function run(options: { wrapStore?: (store: SqliteStore) => SqliteStore; rewrite?: AnswerRewrite } = {}) {
  return runAgainstBroken(ratelimitChecks, options);
}

/** The ids of the checks that ended `outcome`. */
function withOutcome(byId: Map<string, CheckResult>, outcome: CheckResult['outcome']): string[] {
  return [...byId.values()].filter((result) => result.outcome === outcome).map((result) => result.id);
}

/** A store whose key authentication is changed by `change`. */
function wrapAuthenticate(change: (principal: KeyPrincipal) => KeyPrincipal) {
  return (store: SqliteStore): SqliteStore => ({
    ...store,
    keys: { ...store.keys, authenticate: (presented) => changedPrincipal(store.keys.authenticate(presented), change) },
  });
}

const isRateLimited = (answer: Parameters<AnswerRewrite>[0]) => answer.status === 429 && (answerJson(answer) as { type?: string } | undefined)?.type === 'api.rate_limited';

describe('ratelimit checks against the reference', () => {
  it('pass, spending the rateLimited key within perMinute + 2 requests', async () => {
    const { byId, report } = await run();
    expect([...byId.values()].map((result) => [result.id, result.outcome, result.findings])).toEqual([
      ['ratelimit.exceeded', 'pass', []],
      ['ratelimit.retryAfter.honourable', 'pass', []],
      ['ratelimit.exceeded.decided', 'pass', []],
      ['ratelimit.headers', 'pass', []],
    ]);
    expect([...byId.values()].map((result) => [result.id, result.level])).toEqual([
      ['ratelimit.exceeded', 'MUST'],
      ['ratelimit.retryAfter.honourable', 'SHOULD'],
      ['ratelimit.exceeded.decided', 'DECISION'],
      ['ratelimit.headers', 'DECISION'],
    ]);
    // The quota is spent once, under the first check to judge it.
    expect(byId.get('ratelimit.retryAfter.honourable')?.exchangeCount).toBe(0);
    expect(byId.get('ratelimit.exceeded')).toMatchObject({ phase: 'exclusive', exchangeCount: 1 + 6 + 1 });
    expect(byId.get('ratelimit.headers')?.phase).toBe('concurrent');
  });

  it('pass exceeded when another check spent part of the quota earlier in the run', async () => {
    reference = await startReference();
    const spender: Check = {
      id: 'probe.spender',
      family: 'probe',
      title: 'uses the rateLimited key twice',
      verifies: ['int.service.json'],
      fix: 'answer JSON (int.service.json)',
      requires: ['key:rateLimited'],
      async run(ctx) {
        for (let i = 0; i < 2; i += 1) await ctx.http.request({ method: 'GET', path: '/api/v1/integration/whoami', key: 'rateLimited' });
      },
    };
    const { byId } = await runChecks([spender, ...ratelimitChecks], reference.profile);
    expect(byId.get('ratelimit.exceeded')).toMatchObject({ outcome: 'pass', exchangeCount: 1 + 4 + 1 });
  });

  /**
   * The reference whose rateLimited key an earlier run used `used` times just now (outside the
   * suite), and a check that spends the quota first with a `sleep` that moves the tenant's clock
   * (D52: the key's bucket refills by it) instead of waiting, recording each wait.
   */
  async function spentEarlier(used: number, { rewrite, wrapStore }: { rewrite?: AnswerRewrite; wrapStore?: (store: SqliteStore) => SqliteStore } = {}) {
    reference = await startReference(wrapStore === undefined ? {} : { wrapStore });
    const { profile, store, server } = reference;
    const whoami = (key: string) => fetch(`${server.url}/api/v1/integration/whoami`, { headers: { 'x-api-key': key } });
    const { tenantId } = (await (await whoami(profile.keys.full)).json()) as { tenantId: string };
    for (let i = 0; i < used; i += 1) await whoami(profile.keys.rateLimited!.key);
    const waits: number[] = [];
    const announced: CheckWait[] = [];
    const waiter: Check = {
      id: 'probe.waiter',
      family: 'probe',
      title: "spends the rateLimited key's quota, waiting on the tenant's clock",
      verifies: ['int.service.json'],
      fix: 'answer JSON (int.service.json)',
      requires: ['key:rateLimited', 'key:full'],
      exclusive: true,
      async run(ctx) {
        await spendQuota(ctx, async (ms) => {
          waits.push(ms);
          await store.clocks.advance(tenantId, ms);
        });
      },
    };
    const proxy = rewrite === undefined ? undefined : await startProxy(server.url, rewrite);
    try {
      const { byId } = await runChecks([waiter, ...ratelimitChecks], proxy === undefined ? profile : { ...profile, target: proxy.url }, { onWait: (wait) => announced.push(wait) });
      return { byId, waits, announced };
    } finally {
      await proxy?.close();
    }
  }

  it('pass exceeded when an earlier run spent part of the quota just before: it waits for the whole quota RateLimit-Reset names', async () => {
    const { byId, waits, announced } = await spentEarlier(2);
    // 5 a minute, 2 spent earlier and 1 by its own first request: 3 tokens, 12 s each, until the bucket is whole.
    expect(waits).toEqual([36_500]);
    // Said before it waits, with what the headers showed: a console quiet for half a minute is not a hang.
    expect(announced).toEqual([{ checkId: 'probe.waiter', ms: 36_500, why: expect.stringMatching(/^for the rateLimited key's quota to be whole again \(RateLimit-Remaining: 2 of 5 \(exchange #\d+\), 2 spent before this run, RateLimit-Reset: \d+\)$/) }]);
    expect(byId.get('ratelimit.exceeded')).toMatchObject({ outcome: 'pass', findings: [] });
    expect(byId.get('ratelimit.exceeded.decided')?.outcome).toBe('pass');
  });

  it('pass exceeded when an earlier run spent the whole quota and no RateLimit-* header tells: the early 429 is retried after a minute', async () => {
    const withoutHeaders: AnswerRewrite = (answer) => ({ ...answer, headers: Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !name.startsWith('ratelimit-'))) });
    const { byId, waits, announced } = await spentEarlier(5, { rewrite: withoutHeaders });
    expect(waits).toEqual([WHOLE_QUOTA_MS]);
    expect(announced).toEqual([{ checkId: 'probe.waiter', ms: WHOLE_QUOTA_MS, why: expect.stringMatching(/^a minute, so that any per-minute quota is whole: the rateLimited key was refused after 0 requests/) }]);
    expect(byId.get('ratelimit.exceeded')).toMatchObject({ outcome: 'pass', findings: [] });
  });

  it('still fail exceeded when, after the wait, the key is refused before the quota the profile states', async () => {
    // The key takes 2 a minute, not the profile's 5: the wait for a whole quota does not excuse it.
    const { byId, waits } = await spentEarlier(1, { wrapStore: wrapAuthenticate((principal) => (principal.rateLimit === 5 ? { ...principal, rateLimit: 2 } : principal)) });
    expect(waits).toHaveLength(1);
    expect(byId.get('ratelimit.exceeded')?.outcome).toBe('fail');
    expect(byId.get('ratelimit.exceeded')?.findings.map((f) => f.expected)).toEqual([expect.stringMatching(/^4 requests pass before the first 429 \(5 a minute, 1 already made by this run; after waiting for a whole quota: RateLimit-Remaining: 0 of 2 /)]);
  });

  it('skip exceeded without a rateLimited key, rather than pass', async () => {
    reference = await startReference();
    const { rateLimited: _dropped, ...keys } = reference.profile.keys;
    const { byId } = await runChecks(ratelimitChecks, { ...reference.profile, keys });
    expect(byId.get('ratelimit.exceeded')).toMatchObject({ outcome: 'skip', reason: expect.stringContaining('rateLimited') });
    expect(withOutcome(byId, 'skip')).toEqual(['ratelimit.exceeded', 'ratelimit.retryAfter.honourable', 'ratelimit.exceeded.decided']);
    expect(byId.get('ratelimit.headers')?.outcome).toBe('pass');
  });
});

describe('ratelimit checks against broken targets', () => {
  it('fail exceeded alone when every key may make 6000 requests a minute', async () => {
    const { byId } = await run({ wrapStore: wrapAuthenticate((principal) => ({ ...principal, rateLimit: 6000 })) });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.exceeded']);
    expect(withOutcome(byId, 'skip')).toEqual(['ratelimit.retryAfter.honourable', 'ratelimit.exceeded.decided']);
    const findings = byId.get('ratelimit.exceeded')?.findings ?? [];
    expect(findings).toHaveLength(1);
    expect(findings[0]?.message).toMatch(/^the rateLimited key was never refused: 7 requests passed/);
  });

  it('fail exceeded alone when the rate-limit 429 lacks Retry-After; the D14 check, with no value to judge, skips', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (!isRateLimited(answer)) return answer;
        const { ['retry-after']: _dropped, ...headers } = answer.headers;
        return { ...answer, headers };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.exceeded']);
    expect(byId.get('ratelimit.exceeded')?.findings.map((f) => f.received)).toEqual(['no Retry-After header']);
    expect(byId.get('ratelimit.exceeded.decided')).toMatchObject({ outcome: 'skip', reason: expect.stringContaining('carried no Retry-After') });
  });

  it('fail exceeded alone when the rate-limit 429 carries a code outside the catalog and a Retry-After no client can read', async () => {
    const { byId } = await run({
      rewrite: (answer) => (isRateLimited(answer) ? { ...answer, headers: { ...answer.headers, 'retry-after': 'soon' }, body: Buffer.from(JSON.stringify({ ...(answerJson(answer) as object), type: 'quota.exceeded' })) } : answer),
    });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.exceeded', 'ratelimit.exceeded.decided']);
    expect(byId.get('ratelimit.exceeded')?.findings.map((f) => [f.expected, f.received])).toEqual([
      ['type: api.rate_limited or orders.rate_limited', 'type: quota.exceeded'],
      ['Retry-After: delay-seconds or an HTTP-date', 'Retry-After: soon (neither delay-seconds nor an HTTP-date)'],
    ]);
  });

  it('fail only the D25 check when the 429 carries orders.rate_limited, which the catalog also lists for a 429', async () => {
    const { byId } = await run({
      rewrite: (answer) => (isRateLimited(answer) ? { ...answer, body: Buffer.from(JSON.stringify({ ...(answerJson(answer) as object), type: 'orders.rate_limited' })) } : answer),
    });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.exceeded.decided']);
    expect(byId.get('ratelimit.exceeded.decided')?.findings.map((f) => f.received)).toEqual(['type: orders.rate_limited']);
  });

  it('fail only the D14 check when Retry-After is an HTTP-date a few seconds ahead', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (!isRateLimited(answer)) return answer;
        const now = Date.now();
        return { ...answer, headers: { ...answer.headers, date: new Date(now).toUTCString(), 'retry-after': new Date(now + 3000).toUTCString() } };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.exceeded.decided']);
    expect(byId.get('ratelimit.exceeded.decided')?.findings.map((f) => f.received)).toEqual([expect.stringMatching(/^Retry-After: \w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT \(not whole seconds\)$/)]);
  });

  it('fail only the SHOULD check when Retry-After asks for an hour', async () => {
    const { byId } = await run({ rewrite: (answer) => (isRateLimited(answer) ? { ...answer, headers: { ...answer.headers, 'retry-after': '3600' } } : answer) });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.retryAfter.honourable']);
    expect(byId.get('ratelimit.retryAfter.honourable')?.findings.map((f) => [f.expected, f.received])).toEqual([['Retry-After: a delay of 0 to 60 s', 'Retry-After: 3600 (a delay of 3600 s)']]);
  });

  it('fail the SHOULD and D14 checks when Retry-After is an HTTP-date in the past', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (!isRateLimited(answer)) return answer;
        const now = Date.now();
        return { ...answer, headers: { ...answer.headers, date: new Date(now).toUTCString(), 'retry-after': new Date(now - 120_000).toUTCString() } };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.retryAfter.honourable', 'ratelimit.exceeded.decided']);
    expect(byId.get('ratelimit.retryAfter.honourable')?.findings.map((f) => f.received)).toEqual([expect.stringMatching(/\(a time 120 s in the past of the answer's Date /)]);
  });

  it('fail exceeded alone when the limit is per tenant, not per key', async () => {
    // Every key of a tenant draws from one bucket, named after the tenant.
    const { byId } = await run({ wrapStore: wrapAuthenticate((principal) => ({ ...principal, keyId: principal.tenantId })) });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.exceeded']);
    expect(byId.get('ratelimit.exceeded')?.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^the full key was refused while only the rateLimited key was past its quota/)]);
  });

  it('fail exceeded alone when the key is refused before its quota is spent', async () => {
    const { byId } = await run({ wrapStore: wrapAuthenticate((principal) => (principal.rateLimit === 5 ? { ...principal, rateLimit: 2 } : principal)) });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.exceeded']);
    expect(byId.get('ratelimit.exceeded')?.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^the rateLimited key was refused after 2 of its 5 requests per minute/)]);
  });

  it('fail headers alone when RateLimit-Remaining is missing', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        const { ['ratelimit-remaining']: _dropped, ...headers } = answer.headers;
        return { ...answer, headers };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.headers']);
    const findings = byId.get('ratelimit.headers')?.findings ?? [];
    expect(findings).toHaveLength(5);
    expect(findings[4]?.message).toMatch(/^an answer without a usable quota: GET \/api\/v1\/integration\/orders\?limit=0 → 400/);
  });

  it('fail headers alone when RateLimit-Remaining never goes down', async () => {
    const { byId } = await run({ rewrite: (answer) => ({ ...answer, headers: { ...answer.headers, 'ratelimit-remaining': String(Math.max(0, Number(answer.headers['ratelimit-limit'] ?? 1) - 1)) } }) });
    expect(withOutcome(byId, 'fail')).toEqual(['ratelimit.headers']);
    expect(byId.get('ratelimit.headers')?.findings.map((f) => f.received)).toEqual(['RateLimit-Remaining: 599 → 599 → 599 → 599']);
  });
});
