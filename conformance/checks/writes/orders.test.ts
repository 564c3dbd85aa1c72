/** The cancel, archive and not-found checks of the writes family against targets that break one rule each. */
import { afterEach, describe, expect, it } from 'vitest';
import { answerJson } from '../../../dev/testing/conformance/proxy.ts';
import { runChecks } from '../../../dev/testing/conformance/reference.ts';
import { archivingOnTrip, behindProxy, closeOpened, externalIdOf, failedChecks, jsonAnswer, poolIds, reference, statusOf, withOrders } from '../../../dev/testing/conformance/writes-targets.ts';
import { writesChecks } from './index.ts';

afterEach(closeOpened);

describe('writes checks against broken targets: cancels, archives, unknown orders', () => {
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
      wrapStore: withOrders((real) => ({ cancel: async (tenantId, externalId, reason) => (cancellable.has(externalId) ? { ok: false, reason: 'illegal', status: 'New' } : real.cancel(tenantId, externalId, reason)) })),
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
        cancel: async (tenantId, externalId, reason) => {
          const result = await real.cancel(tenantId, externalId, reason);
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
    const { byId } = await runChecks(writesChecks, await archivingOnTrip(await reference()));
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
    const { byId } = await runChecks(writesChecks, await archivingOnTrip(await reference()));
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
      wrapStore: withOrders((real) => ({ archive: async (tenantId, externalId) => (pools.has(externalId) ? { ok: true, orderJson: '' } : real.archive(tenantId, externalId)) })),
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
