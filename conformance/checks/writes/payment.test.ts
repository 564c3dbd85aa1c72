/** The payment checks of the writes family against targets that break one rule of a payment each. */
import { afterEach, describe, expect, it } from 'vitest';
import { answerJson } from '../../../dev/testing/conformance/proxy.ts';
import { runChecks } from '../../../dev/testing/conformance/reference.ts';
import { accepting, behindBodyRewrite, behindProxy, closeOpened, failedChecks, jsonAnswer, recordingRepeatsAs, reference, withOrders } from '../../../dev/testing/conformance/writes-targets.ts';
import { writesChecks } from './index.ts';

afterEach(closeOpened);

describe('writes checks against broken targets: payments', () => {
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
    const target = await reference({ wrapStore: recordingRepeatsAs('payment') });
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
          attachPayment: async (tenantId, externalId, payment) => {
            const result = await real.attachPayment(tenantId, externalId, payment);
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
    // The payment entry keeps the first amount; the new one is noted beside it.
    const target = await reference({ wrapStore: recordingRepeatsAs('paymentAmended') });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect([...byId.values()].filter((result) => result.outcome !== 'pass').map((result) => result.id)).toEqual(['writes.payment.recordedOnce']);
    expect(byId.get('writes.payment.recordedOnce')?.findings.map((found) => found.received)).toEqual([expect.stringMatching(/new or changed: \[\{.*"kind":"paymentAmended".*"amount":99\.99/)]);
  });

  it('skip writes.payment.recordedOnce, never fail it, without a control plane', async () => {
    const target = await reference({ sandbox: false });
    const { byId } = await runChecks(writesChecks, target.profile);
    expect(byId.get('writes.payment.recordedOnce')).toMatchObject({ outcome: 'skip', reason: 'profile has no sandbox' });
  });
});
