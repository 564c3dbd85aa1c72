import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../server/store/index.ts';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type ProxyRewrite } from '../testing/proxy.ts';
import { type ReferenceTarget, runAgainstBroken, runChecks, startReference } from '../testing/reference.ts';
import type { CheckResult } from '../types.ts';
import { idempotencyChecks } from './idempotency.ts';

const ids = idempotencyChecks.map((check) => check.id);

let reference: ReferenceTarget | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

/** Runs the family against the reference (with `wrapStore`), or against a proxy in front of it that applies `rewrite`. */
function run(options: { wrapStore?: (store: Store) => Store; rewrite?: AnswerRewrite | ProxyRewrite } = {}) {
  return runAgainstBroken(idempotencyChecks, options);
}

/** The ids of the checks that ended `outcome`. */
function withOutcome(byId: Map<string, CheckResult>, outcome: CheckResult['outcome']): string[] {
  return [...byId.values()].filter((result) => result.outcome === outcome).map((result) => result.id);
}

/** A store whose idempotency functions are replaced by `override`. */
function wrapIdempotency(override: (original: Store['idempotency']) => Partial<Store['idempotency']>) {
  return (store: Store): Store => ({ ...store, idempotency: { ...store.idempotency, ...override(store.idempotency) } });
}

/** True when the answer is a 429 idempotency.inFlight. */
const isInFlight = (answer: ProxiedAnswer) => answer.status === 429 && (answerJson(answer) as { type?: string } | undefined)?.type === 'idempotency.inFlight';

describe('idempotency checks against the reference', () => {
  it('pass', async () => {
    const { byId, report } = await run();
    expect([...byId.values()].map((result) => [result.id, result.outcome, result.findings])).toEqual(ids.map((id) => [id, 'pass', []]));
    // The held request and its duplicate are both on record.
    const inflight = report.results.find((result) => result.id === 'idempotency.inflight');
    expect(inflight?.exchangeCount).toBe(2);
  });

  it('skip without a payable pool, rather than pass', async () => {
    reference = await startReference();
    const { byId } = await runChecks(idempotencyChecks, { ...reference.profile, orders: {} });
    expect(withOutcome(byId, 'skip')).toEqual(ids);
  });
});

describe('idempotency checks against broken targets', () => {
  it('fail inflight alone when the in-flight 429 lacks Retry-After', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (!isInFlight(answer)) return answer;
        const { ['retry-after']: _dropped, ...headers } = answer.headers;
        return { ...answer, headers };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight']);
    expect(byId.get('idempotency.inflight')?.findings.map((f) => [f.expected, f.received])).toEqual([['Retry-After: whole seconds, at least 1', 'no Retry-After header']]);
  });

  it('fail inflight alone when the in-flight 429 says Retry-After: 0 and another type', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (!isInFlight(answer)) return answer;
        const body = Buffer.from(JSON.stringify({ ...(answerJson(answer) as object), type: 'api.rate_limited' }));
        return { ...answer, headers: { ...answer.headers, 'retry-after': '0' }, body };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight']);
    expect(byId.get('idempotency.inflight')?.findings.map((f) => f.received)).toEqual(['type: api.rate_limited', 'Retry-After: 0 (below 1)']);
  });

  it('fail inflight alone when the duplicate is made to wait for the first and then answered 200', async () => {
    const { byId } = await run({
      rewrite: async (answer, _request, resend) => {
        let current = answer;
        // Waits as long as Retry-After says and asks again, up to a few times.
        for (let attempt = 0; attempt < 5 && isInFlight(current); attempt += 1) {
          await delay(Number(current.headers['retry-after'] ?? 1) * 1000);
          current = await resend();
        }
        return current;
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight']);
    const findings = byId.get('idempotency.inflight')?.findings ?? [];
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^the duplicate was answered only after the held request was completed: POST .*\/payment → 200/),
      expect.stringMatching(/^the same Idempotency-Key while the first request was in flight was not refused/),
    ]);
    expect(findings[1]?.exchange?.response?.status).toBe(200);
  });

  it('fail inflight alone when the target has no in-flight guard (the duplicate pays, the first is refused as a reuse)', async () => {
    // Without the guard the duplicate completes first; the held request then finds the stored answer.
    const { byId } = await run({
      rewrite: async (answer, request, resend) => (isInFlight(answer) ? resend({ headers: { ...request.headers, 'idempotency-key': `${request.headers['idempotency-key']}-unguarded` } }) : answer),
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight']);
    expect(byId.get('idempotency.inflight')?.findings[0]?.expected).toBe('429 idempotency.inFlight with Retry-After');
  });

  it('fail replay alone when a replayed 200 comes back with another body', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (answer.headers['idempotent-replayed'] !== 'true' || answer.status !== 200) return answer;
        return { ...answer, body: Buffer.from(JSON.stringify({ ...(answerJson(answer) as object), updatedAtUtc: '2030-01-01T00:00:00.000Z' })) };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.replay']);
    expect(byId.get('idempotency.replay')?.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^the repeated payment got another body: POST .*\/payment → 200/)]);
  });

  it('fail replay, replay.refusal and reuse when the store never finds a stored answer', async () => {
    const { byId } = await run({ wrapStore: wrapIdempotency(() => ({ find: () => undefined })) });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.replay', 'idempotency.replay.refusal', 'idempotency.reuse']);
    expect(byId.get('idempotency.replay')?.findings.map((f) => f.received)).toEqual(['no Idempotent-Replayed header']);
    expect(byId.get('idempotency.reuse')?.findings.map((f) => f.received)).toEqual([expect.stringMatching(/^200 /), expect.stringMatching(/^200 /)]);
  });

  it('fail replay.refusal alone when only successes are stored', async () => {
    const { byId } = await run({ wrapStore: wrapIdempotency((original) => ({ save: (tenantId, key, answer) => (answer.status < 300 ? original.save(tenantId, key, answer) : undefined) })) });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.replay.refusal']);
    expect(byId.get('idempotency.replay.refusal')?.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^the repeated refused payment got another body: POST .*\/payment → 400/),
      expect.stringMatching(/^the repeated refused payment is not marked as a replay/),
    ]);
  });

  it('fail reuse alone when a reused key is executed anyway', async () => {
    const { byId } = await run({
      rewrite: async (answer, request, resend) => {
        const reused = answer.status === 400 && (answerJson(answer) as { errors?: { field?: string }[] } | undefined)?.errors?.[0]?.field === 'Idempotency-Key' && /^[\x21-\x7e]{1,255}$/.test(request.headers['idempotency-key'] ?? '');
        if (!reused) return answer;
        const { ['idempotency-key']: _key, ...headers } = request.headers;
        return resend({ headers });
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.reuse']);
    expect(byId.get('idempotency.reuse')?.findings).toHaveLength(2);
  });

  it('fail key.format alone when invalid keys are accepted', async () => {
    const { byId } = await run({
      rewrite: {
        request: (request) => {
          const key = request.headers['idempotency-key'];
          if (key === undefined || /^[\x21-\x7e]{1,255}$/.test(key)) return request;
          return { ...request, headers: { ...request.headers, 'idempotency-key': createHash('sha256').update(key).digest('hex') } };
        },
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.key.format']);
    expect(byId.get('idempotency.key.format')?.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^an Idempotency-Key with 256 characters was not refused/),
      expect.stringMatching(/^an Idempotency-Key with a space was not refused/),
    ]);
  });

  it('fail key.format alone when the longest valid key is refused', async () => {
    const { byId } = await run({
      rewrite: {
        request: (request) => {
          const key = request.headers['idempotency-key'];
          return key?.length === 255 ? { ...request, headers: { ...request.headers, 'idempotency-key': `${key}k` } } : request;
        },
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.key.format']);
    expect(byId.get('idempotency.key.format')?.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^an Idempotency-Key of 255 visible characters was refused/)]);
  });
});
