import { createHash } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../server/store/index.ts';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type ProxyRewrite } from '../../dev/testing/conformance/proxy.ts';
import { type ReferenceTarget, runAgainstBroken, runChecks, startReference } from '../../dev/testing/conformance/reference.ts';
import type { CheckResult } from '../engine/types/report.ts';
import { idempotencyChecks } from './idempotency.ts';

const ids = idempotencyChecks.map((check) => check.id);

let reference: ReferenceTarget | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

/** Runs the family against the reference (with `wrapStore`), or against a proxy in front of it that applies `rewrite`. */
function run(options: { wrapStore?: (store: SqliteStore) => SqliteStore; rewrite?: AnswerRewrite | ProxyRewrite } = {}) {
  return runAgainstBroken(idempotencyChecks, options);
}

/** The ids of the checks that ended `outcome`. */
function withOutcome(byId: Map<string, CheckResult>, outcome: CheckResult['outcome']): string[] {
  return [...byId.values()].filter((result) => result.outcome === outcome).map((result) => result.id);
}

/** A store whose idempotency functions are replaced by `override`. */
function wrapIdempotency(override: (original: SqliteStore['idempotency']) => Partial<SqliteStore['idempotency']>) {
  return (store: SqliteStore): SqliteStore => ({ ...store, idempotency: { ...store.idempotency, ...override(store.idempotency) } });
}

/** A store whose payments and cancels take `ms` longer, so that a write stays in flight that long. */
function slowWrites(ms: number) {
  return (store: SqliteStore): SqliteStore => ({
    ...store,
    orders: {
      ...store.orders,
      attachPayment: async (...args: Parameters<SqliteStore['orders']['attachPayment']>) => (await delay(ms), store.orders.attachPayment(...args)),
      cancel: async (...args: Parameters<SqliteStore['orders']['cancel']>) => (await delay(ms), store.orders.cancel(...args)),
    },
  });
}

/**
 * A byte proxy in front of `target` that passes on a connection whose first request is a POST
 * with its body still incomplete (a held write) `lateMs` late, and notes the status of the
 * answers such connections get.
 */
async function startLateHeldProxy(target: string, lateMs: number) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const statuses: number[] = [];
  const server = createServer((client) => {
    const upstream = connect({ host: hostname, port: Number(port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.once('data', (first: Buffer) => {
      const text = first.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      const held = text.startsWith('POST ') && end >= 0 && first.length - end - 4 < length;
      client.pause();
      setTimeout(() => {
        upstream.write(first);
        client.pipe(upstream);
        client.resume();
      }, held ? lateMs : 0);
      if (held) upstream.once('data', (answer: Buffer) => statuses.push(Number(answer.toString('latin1').slice(9, 12))));
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heldAnswers: () => [...statuses],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** True when the answer is a 429 idempotency.inFlight. */
const isInFlight = (answer: ProxiedAnswer) => answer.status === 429 && (answerJson(answer) as { type?: string } | undefined)?.type === 'idempotency.inFlight';

describe('idempotency checks against the reference', () => {
  it('pass', async () => {
    const { byId, report } = await run();
    expect([...byId.values()].map((result) => [result.id, result.outcome, result.findings])).toEqual(ids.map((id) => [id, 'pass', []]));
    // The held request and its duplicate are both on record.
    const inflight = report.results.find((result) => result.id === 'idempotency.inflight');
    // Two held writes and their duplicates (and the feed read that verifies the pools, when it ran first).
    expect(report.exchangeCount).toBeGreaterThanOrEqual(4);
    expect(inflight?.findings).toEqual([]);
    expect([...byId.values()].filter((result) => result.level !== 'DECISION').map((result) => [result.id, result.level])).toEqual([
      ['idempotency.inflight', 'MUST'],
      ['idempotency.inflight.retryAfter', 'SHOULD'],
    ]);
  });

  it('skip without a payable pool, rather than pass; the 404 refusal needs no order', async () => {
    reference = await startReference();
    const { byId } = await runChecks(idempotencyChecks, { ...reference.profile, orders: {} });
    expect(withOutcome(byId, 'skip')).toEqual(ids.filter((id) => id !== 'idempotency.replay.refusal'));
    expect(withOutcome(byId, 'pass')).toEqual(['idempotency.replay.refusal']);
  });
});

describe('idempotency checks against broken targets', () => {
  it('fail inflight alone when the in-flight 429 lacks Retry-After; the D13 check, with no value to judge, skips', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (!isInFlight(answer)) return answer;
        const { ['retry-after']: _dropped, ...headers } = answer.headers;
        return { ...answer, headers };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight']);
    expect(byId.get('idempotency.inflight')?.findings.map((f) => [f.expected, f.received])).toEqual([
      ['Retry-After: delay-seconds or an HTTP-date', 'no Retry-After header'],
      ['Retry-After: delay-seconds or an HTTP-date', 'no Retry-After header'],
    ]);
    expect(byId.get('idempotency.inflight.decided')).toMatchObject({ outcome: 'skip', reason: expect.stringContaining('no in-flight 429 carried Retry-After') });
  });

  it('fail inflight (the type) and the D13 check (Retry-After: 0) when the in-flight 429 says Retry-After: 0 and another type', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (!isInFlight(answer)) return answer;
        const body = Buffer.from(JSON.stringify({ ...(answerJson(answer) as object), type: 'api.rate_limited' }));
        return { ...answer, headers: { ...answer.headers, 'retry-after': '0' }, body };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight', 'idempotency.inflight.decided']);
    expect(byId.get('idempotency.inflight')?.findings.map((f) => f.received)).toEqual(['type: api.rate_limited', 'type: api.rate_limited']);
    expect(byId.get('idempotency.inflight.decided')?.findings.map((f) => f.received)).toEqual(['Retry-After: 0 (below 1)', 'Retry-After: 0 (below 1)']);
  });

  it('fail only the D13 check when the in-flight Retry-After is an HTTP-date', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (!isInFlight(answer)) return answer;
        const now = Date.now();
        return { ...answer, headers: { ...answer.headers, date: new Date(now).toUTCString(), 'retry-after': new Date(now + 2000).toUTCString() } };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight.decided']);
    expect(byId.get('idempotency.inflight.decided')?.findings.map((f) => f.received)).toEqual([expect.stringMatching(/ GMT \(not whole seconds\)$/), expect.stringMatching(/ GMT \(not whole seconds\)$/)]);
  });

  it('fail only the SHOULD check when the in-flight Retry-After asks for an hour', async () => {
    const { byId } = await run({ rewrite: (answer) => (isInFlight(answer) ? { ...answer, headers: { ...answer.headers, 'retry-after': '3600' } } : answer) });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight.retryAfter']);
    expect(byId.get('idempotency.inflight.retryAfter')?.findings.map((f) => f.received)).toEqual(['Retry-After: 3600 (a delay of 3600 s)', 'Retry-After: 3600 (a delay of 3600 s)']);
  });

  it('fail inflight alone when the duplicate is made to wait for the first and then answered 200', async () => {
    const { byId } = await run({
      rewrite: async (answer, _request, resend) => {
        let current = answer;
        // Waits as long as Retry-After says and asks again, until the first is done.
        for (let attempt = 0; attempt < 30 && isInFlight(current); attempt += 1) {
          await delay(Number(current.headers['retry-after'] ?? 1) * 1000);
          current = await resend();
        }
        return current;
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight']);
    expect(withOutcome(byId, 'skip')).toEqual(['idempotency.inflight.retryAfter', 'idempotency.inflight.decided']);
    const findings = byId.get('idempotency.inflight')?.findings ?? [];
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^the duplicate of a payment was answered only after the held request was completed: POST .*\/payment → 200/),
      expect.stringMatching(/^the same Idempotency-Key while a payment was in flight was not refused/),
      expect.stringMatching(/^the duplicate of a cancel was answered only after the held request was completed: POST .*\/cancel → 200/),
      expect.stringMatching(/^the same Idempotency-Key while a cancel was in flight was not refused/),
    ]);
    expect(findings[1]?.exchange?.response?.status).toBe(200);
  });

  it('fail inflight alone when the target has no in-flight guard (the duplicate runs), after trying later duplicates', async () => {
    // Without the guard the duplicate runs under a key of its own; the held request then runs too.
    const { byId } = await run({
      rewrite: async (answer, request, resend) => (isInFlight(answer) ? resend({ headers: { ...request.headers, 'idempotency-key': `${request.headers['idempotency-key']}-unguarded` } }) : answer),
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.inflight']);
    const findings = byId.get('idempotency.inflight')?.findings ?? [];
    expect(findings.map((f) => f.expected)).toEqual(Array(2).fill('429 idempotency.inFlight with Retry-After for one of the two: a request is in flight from its head to its answer'));
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^the same Idempotency-Key while a payment was in flight was not refused: POST .*\/payment → 200 .*, sent 3000 ms after the held payment's head .*\(tried 3 times, the duplicate sent 150 ms, 1000 ms, 3000 ms after the head\), and the held payment then got 200 /),
      // The first attempt's duplicate cancelled the order; the later ones are refused 409 by its status, and still ran.
      expect.stringMatching(/^the same Idempotency-Key while a cancel was in flight was not refused: POST .*\/cancel → 409 .*tried 3 times/),
    ]);
  });

  it('pass inflight when the duplicate takes the key first and the held request is refused in flight (the roles swapped)', async () => {
    // The held request reaches the reference 400 ms late, while its duplicate's write is slowed to 1 s.
    reference = await startReference({ wrapStore: slowWrites(1000) });
    const late = await startLateHeldProxy(reference.profile.target!, 400);
    try {
      const { byId } = await runChecks(idempotencyChecks.filter((check) => check.id.startsWith('idempotency.inflight')), { ...reference.profile, target: late.url });
      expect([...byId.values()].map((result) => [result.id, result.outcome, result.findings])).toEqual([
        ['idempotency.inflight', 'pass', []],
        ['idempotency.inflight.retryAfter', 'pass', []],
        ['idempotency.inflight.decided', 'pass', []],
      ]);
      // The refusals judged are the held requests' own.
      expect(late.heldAnswers()).toEqual([429, 429]);
    } finally {
      await late.close();
    }
  });

  it('pass inflight when the first duplicate reaches the target before the held request, by trying a later one', async () => {
    // The held request reaches the reference 400 ms late: the 150 ms duplicate runs first (and the held one is replayed), the 1 s one is refused.
    reference = await startReference();
    const late = await startLateHeldProxy(reference.profile.target!, 400);
    try {
      const { byId } = await runChecks(idempotencyChecks.filter((check) => check.id.startsWith('idempotency.inflight')), { ...reference.profile, target: late.url });
      expect([...byId.values()].map((result) => [result.id, result.outcome])).toEqual([
        ['idempotency.inflight', 'pass'],
        ['idempotency.inflight.retryAfter', 'pass'],
        ['idempotency.inflight.decided', 'pass'],
      ]);
      // Two attempts for each write: the held request replayed, then run after its duplicate's 429 (a cancel of the order the first attempt cancelled: 409).
      expect(late.heldAnswers()).toEqual([200, 200, 200, 409]);
    } finally {
      await late.close();
    }
  });

  it('fail every check that looks at a replayed 200 when it comes back with another body', async () => {
    const { byId } = await run({
      rewrite: (answer) => {
        if (answer.headers['idempotent-replayed'] !== 'true' || answer.status !== 200) return answer;
        return { ...answer, body: Buffer.from(JSON.stringify({ ...(answerJson(answer) as object), updatedAtUtc: '2030-01-01T00:00:00.000Z' })) };
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.replay', 'idempotency.replay.cancel', 'idempotency.tenant-scoped']);
    expect(byId.get('idempotency.replay')?.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^the repeated payment got another body: POST .*\/payment → 200/)]);
    expect(byId.get('idempotency.replay.cancel')?.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^the repeated cancel got another body: POST .*\/cancel → 200/)]);
  });

  it('fail every replay check, reuse and tenant-scoped when the store never finds a stored answer', async () => {
    const { byId } = await run({ wrapStore: wrapIdempotency(() => ({ find: async () => undefined })) });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.replay', 'idempotency.replay.cancel', 'idempotency.replay.archive', 'idempotency.replay.refusal', 'idempotency.reuse', 'idempotency.tenant-scoped']);
    // Executed again: the second archive of the same order is the 404 of an archived one (D12).
    expect(byId.get('idempotency.replay.archive')?.findings.map((f) => f.expected)).toEqual(['204, the status of the first answer (exchange #' + String(byId.get('idempotency.replay.archive')?.findings[0]?.expected.match(/#(\d+)/)?.[1]) + ')', 'Idempotent-Replayed: true']);
    expect(byId.get('idempotency.replay')?.findings.map((f) => f.received)).toEqual(['no Idempotent-Replayed header']);
    expect(byId.get('idempotency.reuse')?.findings.map((f) => f.received)).toEqual([expect.stringMatching(/^200 /), expect.stringMatching(/^200 /)]);
  });

  it('fail tenant-scoped alone when one key value is one key for every tenant', async () => {
    // Every tenant's keys are stored and looked up under the first tenant that used one.
    let first: string | undefined;
    const { byId } = await run({
      wrapStore: wrapIdempotency((original) => ({
        find: (tenantId, key) => original.find((first ??= tenantId), key),
        save: (tenantId, key, answer) => original.save((first ??= tenantId), key, answer),
      })),
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.tenant-scoped']);
    expect(byId.get('idempotency.tenant-scoped')?.findings.map((f) => [f.message.replace(/OTHER-\d+/, 'OTHER-n').split(':')[0], f.received.slice(0, 3)])).toEqual([
      ["the otherTenant key's payment on its order OTHER-n with the Idempotency-Key the full key used", '400'],
    ]);
  });

  it('fail tenant-scoped alone when the other tenant\'s request is answered as a replay', async () => {
    const { byId } = await run({
      rewrite: (answer, request) =>
        request.headers['idempotency-key'] !== undefined && answer.status === 200 && request.url.startsWith('/api/v1/integration/orders/externalid/OTHER-') ? { ...answer, headers: { ...answer.headers, 'idempotent-replayed': 'true' } } : answer,
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.tenant-scoped']);
    expect(byId.get('idempotency.tenant-scoped')?.findings.map((f) => f.received)).toEqual(['Idempotent-Replayed: true']);
  });

  it('fail replay.refusal alone when only successes are stored', async () => {
    const { byId } = await run({ wrapStore: wrapIdempotency((original) => ({ save: async (tenantId, key, answer) => (answer.status < 300 ? original.save(tenantId, key, answer) : undefined) })) });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.replay.refusal']);
    expect(byId.get('idempotency.replay.refusal')?.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^the repeated refused payment got another body: POST .*\/payment → 404/),
      expect.stringMatching(/^the repeated refused payment is not marked as a replay/),
    ]);
  });

  it('fail validation.unstored alone when a request refused as invalid is stored under its key and replayed', async () => {
    // In front of the reference: the first answer to a key, when a 400 about the body, is kept and answered again for that key.
    const stored = new Map<string, ProxiedAnswer>();
    const { byId } = await run({
      rewrite: (answer, request) => {
        const key = request.headers['idempotency-key'];
        if (key === undefined) return answer;
        const earlier = stored.get(key);
        if (earlier !== undefined) return { ...earlier, headers: { ...earlier.headers, 'idempotent-replayed': 'true' } };
        const field = (answerJson(answer) as { errors?: { field?: string }[] } | undefined)?.errors?.[0]?.field;
        if (answer.status === 400 && field !== 'Idempotency-Key') stored.set(key, answer);
        return answer;
      },
    });
    expect(withOutcome(byId, 'fail')).toEqual(['idempotency.validation.unstored']);
    expect(byId.get('idempotency.validation.unstored')?.findings.map((f) => f.message.split(':')[0])).toEqual([
      'the invalid payment sent again was replayed from its Idempotency-Key',
      'the corrected payment with the key of the invalid one was not executed',
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
