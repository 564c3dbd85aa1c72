import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../server/store/index.ts';
import { TINY_DATASET_STATUSES } from '../../../server/testing.ts';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type ProxiedRequest, startProxy } from '../../../dev/testing/conformance/proxy.ts';
import { runChecks, startReference, type ReferenceTarget } from '../../../dev/testing/conformance/reference.ts';
import type { Profile } from '../../engine/types/profile.ts';
import { writesChecks } from './index.ts';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!();
});

/** The reference with its control plane in the profile (writes.payment.recordedOnce reads the history there). */
async function reference(options: Parameters<typeof startReference>[0] = {}): Promise<ReferenceTarget> {
  const target = await startReference({ sandbox: true, ...options });
  open.push(target.close);
  return target;
}

/** The profile of `target`, pointed at a proxy in front of it that rewrites answers. */
async function behindProxy(target: ReferenceTarget, rewrite: AnswerRewrite): Promise<Profile> {
  const proxy = await startProxy(target.server.url, rewrite);
  open.push(proxy.close);
  return { ...target.profile, target: proxy.url };
}

/** tinyDataset cycles statuses by index (EXT-i has STATUS_AT[i % 9]), as dev/testing/conformance/reference.ts builds it. */
const STATUS_AT: readonly string[] = TINY_DATASET_STATUSES;

/** The status the reference's dataset gave the order `EXT-i`, or undefined for other ids. */
function statusOf(externalId: string | undefined): string | undefined {
  const match = /^EXT-(\d+)$/.exec(externalId ?? '');
  return match === null ? undefined : STATUS_AT[Number(match[1]) % 9];
}

/**
 * The profile of `target`, pointed at a proxy that rewrites every JSON request body with
 * `transform` before forwarding it: a target that reads bodies more loosely than it should.
 */
async function behindBodyRewrite(target: ReferenceTarget, transform: (body: Record<string, unknown>) => Record<string, unknown>): Promise<Profile> {
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        let body: Buffer | string = Buffer.concat(chunks);
        try {
          const json = JSON.parse(body.toString('utf8')) as unknown;
          if (json !== null && typeof json === 'object' && !Array.isArray(json)) body = JSON.stringify(transform(json as Record<string, unknown>));
        } catch {
          // Not JSON: forwarded as it came.
        }
        const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name)).map(([name, value]) => [name, String(value)]));
        const method = incoming.method ?? 'GET';
        const answer = await fetch(`${target.server.url}${incoming.url ?? '/'}`, { method, headers, ...(method === 'GET' || method === 'HEAD' || chunks.length === 0 ? {} : { body }) });
        const bytes = Buffer.from(await answer.arrayBuffer());
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'connection', 'transfer-encoding', 'keep-alive'].includes(name)) out[name] = value;
        });
        outgoing.writeHead(answer.status, answer.status === 204 ? out : { ...out, 'content-length': String(bytes.length) });
        outgoing.end(bytes);
      })().catch(() => outgoing.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { ...target.profile, target: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs the writes family; returns the ids of the failed checks, and fails the test on any error or skip. */
async function failedChecks(profile: Profile): Promise<string[]> {
  const { report } = await runChecks(writesChecks, profile);
  expect(report.results.filter((result) => result.outcome === 'error' || result.outcome === 'skip').map((result) => [result.id, result.reason ?? result.error?.message])).toEqual([]);
  return report.results.filter((result) => result.outcome === 'fail').map((result) => result.id);
}

/** The external id a write's path names, or undefined for other paths. */
function externalIdOf(request: ProxiedRequest): string | undefined {
  const match = /^\/api\/v1\/integration\/orders\/externalid\/([^/?]+)/.exec(request.url);
  return match === null ? undefined : decodeURIComponent(match[1]!);
}

/** Every external id of the profile's pools. */
function poolIds(profile: Profile): Set<string> {
  return new Set(Object.values(profile.orders ?? {}).flat());
}

/** A JSON answer written by a proxy. */
function jsonAnswer(status: number, body: unknown, contentType = status < 300 ? 'application/json' : 'application/problem+json'): ProxiedAnswer {
  return { status, headers: { 'content-type': contentType, 'x-request-id': 'req_proxy' }, body: Buffer.from(JSON.stringify(body)) };
}

/** A proxy rewrite that turns the 400 whose first field error matches into a 200: a target that does not validate that case. */
function accepting(matches: (fieldError: { field?: unknown; value?: unknown }) => boolean): AnswerRewrite {
  return (answer) => {
    const errors = (answerJson(answer) as { errors?: { field?: unknown; value?: unknown }[] } | undefined)?.errors;
    return answer.status === 400 && errors?.[0] !== undefined && matches(errors[0]) ? jsonAnswer(200, {}) : answer;
  };
}

/** Replacements for the order writes of the store (plain functions, not transactions). */
type OrderWrites = { [K in 'attachPayment' | 'cancel' | 'archive']?: (...args: Parameters<Store['orders'][K]>) => ReturnType<Store['orders'][K]> };

/** A store whose order writes are replaced by `orders(real)`. */
function withOrders(orders: (real: Store['orders']) => OrderWrites) {
  return (store: Store): Store => ({ ...store, orders: { ...store.orders, ...orders(store.orders) } as Store['orders'] });
}

describe('writes checks against the reference', () => {
  it('pass, every one', async () => {
    const target = await reference();
    const { report } = await runChecks(writesChecks, target.profile);
    expect(report.results.map((result) => [result.id, result.outcome, result.reason ?? result.findings[0]?.message])).toEqual(writesChecks.map((check) => [check.id, 'pass', undefined]));
  });

  it('skip the checks whose pool is missing', async () => {
    const target = await reference();
    const { byId } = await runChecks(writesChecks, { ...target.profile, orders: {} });
    expect([...byId.values()].filter((result) => result.outcome !== 'skip').map((result) => result.id)).toEqual(['writes.notFound', 'writes.cancel.notFound']);
    expect(byId.get('writes.cancel.illegal')?.reason).toBe('profile has no orders.notCancellable');
  });
});

describe('writes checks against broken targets', () => {
  it('fail writes.payment.success when the answer is another order', async () => {
    const target = await reference();
    const profile = await behindProxy(target, (answer, request) =>
      answer.status === 200 && request.url.endsWith('/payment') ? jsonAnswer(200, { ...(answerJson(answer) as object), externalId: 'SOMEONE-ELSE' }) : answer,
    );
    const { byId } = await runChecks(writesChecks, profile);
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['writes.payment.success']);
    expect(byId.get('writes.payment.success')?.findings[0]).toMatchObject({ expected: expect.stringMatching(/^externalId EXT-\d+$/), received: 'externalId SOMEONE-ELSE' });
  });

  it.each([
    [['writes.payment.amount.notPositive'], 'an amount of 0 or -1', accepting(({ value }) => value === '0' || value === '-1')],
    [['writes.payment.amount.notNumber', 'writes.payment.amount.type'], 'the amount "12"', accepting(({ field, value }) => field === 'amount' && value === '12')],
    [['writes.payment.currency.invalid'], 'the currency eur', accepting(({ value }) => value === 'eur')],
    [['writes.payment.currency.notIso'], 'the currency ABC', accepting(({ value }) => value === 'ABC')],
    [['writes.payment.currency.notIso'], 'the currency 123', accepting(({ field, value }) => field === 'currency' && value === '123')],
    [['writes.payment.required'], 'the paymentId 123', accepting(({ field, value }) => field === 'paymentId' && value === '123')],
    [['writes.payment.required'], 'a payment without paymentId', accepting(({ field, value }) => field === 'paymentId' && value === null)],
    [['writes.payment.paymentId.format'], 'the paymentId not-a-uuid', accepting(({ value }) => value === 'not-a-uuid')],
  ])('fail %j when %s is accepted', async (ids, _case, rewrite) => {
    const target = await reference();
    expect(await failedChecks(await behindProxy(target, rewrite))).toEqual(ids);
  });

  it('fail writes.payment.amount.type and the D28 check .notNumber when a target coerces the amount "12" to 12', async () => {
    const target = await reference();
    const profile = await behindBodyRewrite(target, (body) => (body['amount'] === '12' ? { ...body, amount: 12 } : body));
    const { byId } = await runChecks(writesChecks, profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.outcome, result.level])).toEqual([
      ['writes.payment.amount.notNumber', 'fail', 'DECISION'],
      ['writes.payment.amount.type', 'fail', 'MUST'],
    ]);
    expect(byId.get('writes.payment.amount.type')?.findings.map((found) => [found.message.split(':')[0], found.expected, found.received.slice(0, 4)])).toEqual([['a payment with amount "12" (a string)', '400', '200 ']]);
  });

  it('fail writes.payment.amount.type alone when a target reads the amount [12] as 12', async () => {
    const target = await reference();
    const profile = await behindBodyRewrite(target, (body) => (Array.isArray(body['amount']) ? { ...body, amount: (body['amount'] as unknown[])[0] } : body));
    expect(await failedChecks(profile)).toEqual(['writes.payment.amount.type']);
  });

  it('fail writes.payment.amount.notPositive when the refusal carries another code and no field', async () => {
    const target = await reference();
    const profile = await behindProxy(target, (answer) => {
      const body = answerJson(answer) as { type?: string; errors?: { value?: unknown }[] } | undefined;
      return body?.type === 'payments.amount.invalid' && body.errors?.[0]?.value === '0' ? jsonAnswer(400, { type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: null }) : answer;
    });
    const { byId } = await runChecks(writesChecks, profile);
    expect(byId.get('writes.payment.amount.notPositive')?.findings.map((found) => [found.expected, found.received])).toEqual([['type payments.amount.invalid', 'type api.malformed_request']]);
  });

  it('fail writes.payment.repeat and .recordedOnce when a repeated paymentId is recorded again', async () => {
    let serial = 0;
    const target = await reference({
      wrapStore: withOrders((real) => ({
        attachPayment: (tenantId, externalId, payment) => real.attachPayment(tenantId, externalId, { ...payment, paymentId: `${payment.paymentId.slice(0, 24)}${String((serial += 1)).padStart(12, '0')}` }),
      })),
    });
    const { byId } = await runChecks(writesChecks, target.profile);
    // Every payment goes into the history under an id of the store's own, so none carries the paymentId sent.
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['writes.payment.repeat', 'writes.payment.recordedOnce']);
    expect(byId.get('writes.payment.recordedOnce')?.findings.map((found) => found.received)).toEqual([expect.stringMatching(/^\d+ entries, new or changed: \[\{.*"kind":"payment"/), expect.stringMatching(/^none among \d+ entries$/)]);
    expect(byId.get('writes.payment.repeat')?.findings.map((found) => found.message)).toEqual([
      expect.stringMatching(/^the same payment again on EXT-\d+: the order differs from the first answer/),
      expect.stringMatching(/^the same paymentId with another amount on EXT-\d+: the order differs/),
    ]);
  });

  it('fail writes.payment.recordedOnce when a repeated paymentId is recorded in the history again', async () => {
    const paid = new Set<string>();
    const target = await reference({
      wrapStore: (store) =>
        withOrders((real) => ({
          attachPayment: (tenantId, externalId, payment) => {
            const result = real.attachPayment(tenantId, externalId, payment);
            const key = `${tenantId} ${externalId} ${payment.paymentId}`;
            // The order and its answer stay as they were; only the history gains the repeat.
            if (result.ok && paid.has(key)) store.history.record((JSON.parse(result.orderJson) as { id: string }).id, new Date().toISOString(), 'payment', payment);
            paid.add(key);
            return result;
          },
        }))(store),
    });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => result.id)).toEqual(['writes.payment.recordedOnce']);
    const found = byId.get('writes.payment.recordedOnce')?.findings ?? [];
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ message: expect.stringMatching(/: the repeat changed the history \(a repeat records nothing new\)$/), received: expect.stringContaining('"amount":99.99') });
    expect(found[1]).toMatchObject({ message: expect.stringMatching(/^the history of EXT-\d+ after paying 12\.5 and then 99\.99 with the paymentId \S+: 2 payment entries$/), expected: expect.stringMatching(/^exactly one payment entry with paymentId /) });
    expect(found[1]?.received).toContain('"amount":99.99');
    expect(found[1]?.exchange?.channel).toBe('sandbox');
  });

  it('fail writes.payment.recordedOnce when a repeat with another amount overwrites the first', async () => {
    const target = await reference({
      wrapStore: (store) => {
        const rewrite = store.db.prepare("UPDATE order_history SET data = json_set(data, '$.amount', ?) WHERE kind = 'payment' AND json_extract(data, '$.paymentId') = ?");
        return withOrders((real) => ({
          attachPayment: (tenantId, externalId, payment) => {
            const result = real.attachPayment(tenantId, externalId, payment);
            if (result.ok) rewrite.run(payment.amount, payment.paymentId);
            return result;
          },
        }))(store);
      },
    });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => result.id)).toEqual(['writes.payment.recordedOnce']);
    expect(byId.get('writes.payment.recordedOnce')?.findings.map((found) => [found.expected, found.received])).toEqual([
      [expect.stringMatching(/^the \d+ entries it held before the repeat, unchanged$/), expect.stringContaining('"amount":99.99')],
      ['amount 12.5', 'amount 99.99'],
    ]);
  });

  it('fail writes.payment.recordedOnce when a repeat with another amount is kept as an amendment, an entry of another kind', async () => {
    const paid = new Set<string>();
    const target = await reference({
      wrapStore: (store) =>
        withOrders((real) => ({
          attachPayment: (tenantId, externalId, payment) => {
            const result = real.attachPayment(tenantId, externalId, payment);
            const key = `${tenantId} ${externalId} ${payment.paymentId}`;
            // The payment entry keeps the first amount; the new one is noted beside it.
            if (result.ok && paid.has(key)) store.history.record((JSON.parse(result.orderJson) as { id: string }).id, new Date().toISOString(), 'paymentAmended', payment);
            paid.add(key);
            return result;
          },
        }))(store),
    });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => result.id)).toEqual(['writes.payment.recordedOnce']);
    expect(byId.get('writes.payment.recordedOnce')?.findings.map((found) => found.received)).toEqual([expect.stringMatching(/new or changed: \[\{.*"kind":"paymentAmended".*"amount":99\.99/)]);
  });

  it('skip writes.payment.recordedOnce, never fail it, without a control plane', async () => {
    const target = await reference({ sandbox: false });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect(byId.get('writes.payment.recordedOnce')).toMatchObject({ outcome: 'skip', reason: 'profile has no sandbox' });
  });

  it('fail writes.notFound when an unknown external id is answered 410', async () => {
    const target = await reference();
    const pools = poolIds(target.profile);
    const profile = await behindProxy(target, (answer, request) => {
      const externalId = externalIdOf(request);
      return answer.status === 404 && externalId !== undefined && !pools.has(externalId) ? jsonAnswer(410, { type: 'about:blank', title: 'Gone', status: 410, detail: null, instance: null }) : answer;
    });
    expect(await failedChecks(profile)).toEqual(['writes.notFound', 'writes.cancel.notFound']);
  });

  it('fail writes.cancel.notFound alone when only a cancel of an unknown external id is answered 410', async () => {
    const target = await reference();
    const pools = poolIds(target.profile);
    const profile = await behindProxy(target, (answer, request) => {
      const externalId = externalIdOf(request);
      return answer.status === 404 && request.url.endsWith('/cancel') && externalId !== undefined && !pools.has(externalId) ? jsonAnswer(410, { type: 'about:blank', title: 'Gone', status: 410, detail: null, instance: null }) : answer;
    });
    const { byId } = await runChecks(writesChecks, profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.level])).toEqual([['writes.cancel.notFound', 'SHOULD']]);
  });

  it('fail writes.cancel.history alone when the cancel records no reason', async () => {
    const target = await reference({ wrapStore: withOrders((real) => ({ cancel: (tenantId, externalId) => real.cancel(tenantId, externalId, null) })) });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.outcome])).toEqual([['writes.cancel.history', 'fail']]);
    expect(byId.get('writes.cancel.history')?.findings.map((found) => [found.expected, found.exchange?.channel])).toEqual([[expect.stringMatching(/^an entry with the reason waybill conformance: reason \w+$/), 'sandbox']]);
  });

  it('skip writes.cancel.history, never fail it, without a control plane', async () => {
    const target = await reference({ sandbox: false });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect(byId.get('writes.cancel.history')).toMatchObject({ outcome: 'skip', reason: 'profile has no sandbox' });
  });

  it('fail writes.cancel.legal when the answer is another order', async () => {
    const target = await reference();
    const profile = await behindProxy(target, (answer, request) =>
      answer.status === 200 && request.url.endsWith('/cancel') ? jsonAnswer(200, { ...(answerJson(answer) as object), externalId: 'SOMEONE-ELSE' }) : answer,
    );
    expect(await failedChecks(profile)).toEqual(['writes.cancel.legal']);
  });

  it('fail writes.cancel.legal, .status and .noBody when no cancel is allowed', async () => {
    let cancellable = new Set<string>();
    const target = await reference({
      wrapStore: withOrders((real) => ({ cancel: (tenantId, externalId, reason) => (cancellable.has(externalId) ? { ok: false, reason: 'illegal', status: 'New' } : real.cancel(tenantId, externalId, reason)) })),
    });
    cancellable = new Set(target.profile.orders!.cancellable);
    const { byId } = await runChecks(writesChecks, target.profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.outcome])).toEqual([
      ['writes.cancel.legal', 'fail'],
      ['writes.cancel.history', 'skip'],
      ['writes.cancel.status', 'fail'],
      ['writes.cancel.noBody', 'fail'],
      // The decided checks that cancel an order first: one has no cancelled order to pay, the other sees its cancel refused.
      ['writes.payment.anyStatus', 'skip'],
      ['writes.body.unknownFields', 'fail'],
    ]);
  });

  it('fail writes.cancel.status when a cancelled order takes another status', async () => {
    const target = await reference({
      wrapStore: withOrders((real) => ({
        cancel: (tenantId, externalId, reason) => {
          const result = real.cancel(tenantId, externalId, reason);
          return result.ok ? { ...result, orderJson: result.orderJson.replace('"status":"Cancelled"', '"status":"CancelRequested"') } : result;
        },
      })),
    });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['writes.cancel.status']);
    expect(byId.get('writes.cancel.status')?.findings.map((found) => [found.expected, found.received])).toEqual([['status Cancelled', 'status CancelRequested']]);
  });

  it('fail writes.cancel.noBody when a cancel without a body is refused', async () => {
    const target = await reference();
    const profile = await behindProxy(target, (answer, request) =>
      request.url.endsWith('/cancel') && request.headers['content-type'] === undefined ? jsonAnswer(415, { type: 'api.malformed_request', title: 'Unsupported Media Type', status: 415, detail: null }) : answer,
    );
    expect(await failedChecks(profile)).toEqual(['writes.cancel.noBody']);
  });

  it('fail writes.cancel.illegal alone when the cancel of an ended order is answered 422', async () => {
    const target = await reference();
    const profile = await behindProxy(target, (answer, request) =>
      answer.status === 409 && ['FullyDelivered', 'Returned'].includes(statusOf(externalIdOf(request)) ?? '') ? jsonAnswer(422, { type: 'orders.status.illegal', title: 'Unprocessable', status: 422, detail: null }) : answer,
    );
    expect(await failedChecks(profile)).toEqual(['writes.cancel.illegal']);
  });

  it('fail writes.cancel.illegal.decided alone when an InProgress, Cancelled, Refused or Closed order is cancelled', async () => {
    const target = await reference();
    const notCancellable = new Set(target.profile.orders!.notCancellable);
    const profile = await behindProxy(target, (answer, request) => {
      const externalId = externalIdOf(request) ?? '';
      const decided = ['InProgress', 'Cancelled', 'Refused', 'Closed'].includes(statusOf(externalId) ?? '');
      return answer.status === 409 && request.url.endsWith('/cancel') && notCancellable.has(externalId) && decided ? jsonAnswer(200, { externalId, status: 'Cancelled' }) : answer;
    });
    const { byId } = await runChecks(writesChecks, profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.level])).toEqual([['writes.cancel.illegal.decided', 'DECISION']]);
    expect(byId.get('writes.cancel.illegal.decided')?.findings.map((found) => found.message.replace(/EXT-\d+/, 'EXT-n').split(':')[0])).toEqual(['cancelling EXT-n (a Delivery that is Refused)', 'cancelling EXT-n (a Delivery that is Closed)']);
  });

  it('fail writes.archive.onTrip alone when an order on a trip is archived', async () => {
    const target = await reference();
    const onTrip = new Set(target.profile.orders!.onTrip);
    const profile = await behindProxy(target, (answer, request) =>
      answer.status === 409 && request.method === 'DELETE' && onTrip.has(externalIdOf(request) ?? '') ? { status: 204, headers: { 'x-request-id': 'req_proxy' }, body: Buffer.alloc(0) } : answer,
    );
    const { byId } = await runChecks(writesChecks, profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.level])).toEqual([['writes.archive.onTrip', 'DECISION']]);
  });

  it('fail writes.status.refusal alone when an order on a trip is refused a cancel with another code', async () => {
    const target = await reference();
    const onTrip = new Set(target.profile.orders!.onTrip);
    const profile = await behindProxy(target, (answer, request) =>
      answer.status === 409 && request.url.endsWith('/cancel') && onTrip.has(externalIdOf(request) ?? '') ? jsonAnswer(409, { type: 'orders.lines.immutable', title: 'Conflict', status: 409, detail: null, instance: null }) : answer,
    );
    const { byId } = await runChecks(writesChecks, profile);
    // D11 names the code too, so its InProgress check fails with it, at DECISION level.
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => [result.id, result.level])).toEqual([['writes.cancel.inProgress', 'DECISION'], ['writes.status.refusal', 'MUST']]);
    expect(byId.get('writes.status.refusal')?.findings.map((found) => [found.expected, found.received])).toEqual([['type orders.status.illegal', 'type orders.lines.immutable']]);
  });

  it('pass writes.status.refusal, and fail only the D12 check, when a target archives orders on a trip', async () => {
    const target = await reference();
    const onTrip = new Set(target.profile.orders!.onTrip);
    const profile = await behindProxy(target, (answer, request) =>
      answer.status === 409 && request.method === 'DELETE' && onTrip.has(externalIdOf(request) ?? '') ? { status: 204, headers: { 'x-request-id': 'req_proxy' }, body: Buffer.alloc(0) } : answer,
    );
    const { byId } = await runChecks(writesChecks, profile);
    expect(byId.get('writes.status.refusal')?.outcome).toBe('pass');
    expect(byId.get('writes.archive.onTrip')?.outcome).toBe('fail');
  });

  it('skip writes.cancel.illegal, never fail it, when the notCancellable ids given to it have not ended', async () => {
    const target = await reference();
    const notCancellable = target.profile.orders!.notCancellable!.filter((id) => ['InProgress', 'Refused', 'Closed', 'Cancelled'].includes(statusOf(id) ?? ''));
    const { byId } = await runChecks(writesChecks, { ...target.profile, orders: { ...target.profile.orders, notCancellable } });
    expect(byId.get('writes.cancel.illegal')).toMatchObject({ outcome: 'skip', reason: expect.stringMatching(/^needs an order in an end status of its type .* from profile orders\.notCancellable; none of its ids given to this check qualifies \(EXT-\d+: InProgress, /) });
  });

  it('fail writes.archive.noContent when an archive answers 200 with a body', async () => {
    const target = await reference();
    const profile = await behindProxy(target, (answer) => (answer.status === 204 ? jsonAnswer(200, {}) : answer));
    expect(await failedChecks(profile)).toEqual(['writes.archive.noContent']);
  });

  it('fail writes.archive.gone when archiving an archived order answers 204 again', async () => {
    const target = await reference();
    const pools = poolIds(target.profile);
    const profile = await behindProxy(target, (answer, request) =>
      request.method === 'DELETE' && answer.status === 404 && pools.has(externalIdOf(request) ?? '') ? { status: 204, headers: { 'x-request-id': 'req_proxy' }, body: Buffer.alloc(0) } : answer,
    );
    const { byId } = await runChecks(writesChecks, profile);
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['writes.archive.gone']);
    expect(byId.get('writes.archive.gone')?.findings).toHaveLength(1);
  });

  it('fail writes.archive.gone and .feed when archiving leaves the order live', async () => {
    let pools = new Set<string>();
    const target = await reference({
      wrapStore: withOrders((real) => ({ archive: (tenantId, externalId) => (pools.has(externalId) ? { ok: true, orderJson: '' } : real.archive(tenantId, externalId)) })),
    });
    pools = poolIds(target.profile);
    expect(await failedChecks(target.profile)).toEqual(['writes.archive.onTrip', 'writes.archive.gone', 'writes.archive.feed']);
  });

  it('fail writes.archive.feed when the feed still serves archived orders', async () => {
    const target = await reference();
    const lastSeen = new Map<string, unknown>();
    const archived = new Set<string>();
    const profile = await behindProxy(target, (answer, request) => {
      const externalId = externalIdOf(request);
      if (externalId !== undefined && answer.status === 200) lastSeen.set(externalId, answerJson(answer));
      if (externalId !== undefined && request.method === 'DELETE' && answer.status === 204) archived.add(externalId);
      const page = answerJson(answer) as { items: unknown[]; nextCursor: string | null } | undefined;
      if (!request.url.startsWith('/api/v1/integration/orders?') || answer.status !== 200 || page?.nextCursor !== null) return answer;
      return jsonAnswer(200, { ...page, items: [...page.items, ...[...archived].map((id) => lastSeen.get(id)).filter(Boolean)] });
    });
    const { byId } = await runChecks(writesChecks, profile);
    expect([...byId.values()].filter((result) => result.outcome === 'fail').map((result) => result.id)).toEqual(['writes.archive.feed']);
    expect(byId.get('writes.archive.feed')?.findings[0]?.message).toMatch(/^the order feed still serves the archived order EXT-\d+$/);
  });
});
