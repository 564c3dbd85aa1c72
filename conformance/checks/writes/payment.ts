/**
 * Writes, attaching a payment: success, every validation rule, wrongly typed fields and a
 * repeated paymentId. Each check writes only the pool ids the runner gave it, read from the
 * order feed first.
 */
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpResponse } from '../../engine/types/exchange.ts';
import { fullKeyTenant, onControlPlane, orderHistory } from '../support/control-plane.ts';
import { expectProblem, objectOf, paths, paymentBody, received } from '../support/order-requests.ts';
import { expectOrder, liveId } from '../support/write-answers.ts';

/** The fields the entries of a problem's `errors` name. */
function namedFields(response: HttpResponse): unknown[] {
  const errors = objectOf(response)?.['errors'];
  return Array.isArray(errors) ? errors.map((entry: unknown) => (entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>)['field'] : undefined)) : [];
}

/**
 * Findings for each payment body of `cases` on `externalId` not answered 400 with `type` (when
 * given) and naming `field`: in errors[0] when `first` (D28's order), else in any entry (the
 * seeds: `errors` "maps each field to its reason"). No `field`: any 400.
 */
async function expectRefusedPayments(ctx: CheckContext, externalId: string, cases: [string, Record<string, unknown>][], expected: { type?: string; field?: string; first?: boolean }): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [described, body] of cases) {
    const response = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body });
    const what = `a payment with ${described}`;
    if (expected.first || expected.field === undefined) {
      findings.push(...expectProblem(response, { status: 400, ...(expected.type === undefined ? {} : { type: expected.type }), ...(expected.field === undefined ? {} : { field: expected.field }) }, what));
      continue;
    }
    const refused = expectProblem(response, { status: 400, ...(expected.type === undefined ? {} : { type: expected.type }) }, what);
    if (refused.length > 0) findings.push(...refused);
    else if (!namedFields(response).includes(expected.field)) {
      findings.push(finding(`${what}: ${describeExchange(response.exchange)}: the problem does not name the field`, `an errors entry with field ${expected.field}`, `errors: ${show(objectOf(response)?.['errors'])}`, response.exchange));
    }
  }
  return findings;
}

/** A valid payment: 200 with the order. */
export const paymentSuccess: Check = {
  id: 'writes.payment.success',
  family: 'writes',
  title: 'a valid payment answers 200 with the order it was recorded on',
  verifies: ['int.payment.response'],
  fix: 'record a valid payment on the order and answer 200 with that order (int.payment.response)',
  requires: ['orders:payable:1'],
  async run(ctx) {
    const externalId = await liveId(ctx, 'payable');
    const response = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body: paymentBody() });
    return expectOrder(ctx, response, externalId, `a valid payment on ${externalId}`);
  },
};

/** amount 0 and −1: 400 payments.amount.invalid on amount. */
export const amountNotPositive: Check = {
  id: 'writes.payment.amount.notPositive',
  family: 'writes',
  title: 'an amount of 0 or −1 is refused 400 payments.amount.invalid, field amount',
  verifies: ['int.payment.amount-invalid', 'cat.validation-errors'],
  fix: 'refuse an amount of 0 or less with 400 payments.amount.invalid, naming amount in errors (int.payment.amount-invalid, cat.validation-errors)',
  requires: ['orders:payable:1'],
  run: async (ctx) =>
    expectRefusedPayments(ctx, await liveId(ctx, 'payable'), [['amount 0', paymentBody({ amount: 0 })], ['amount -1', paymentBody({ amount: -1 })]], { type: 'payments.amount.invalid', field: 'amount' }),
};

/** amount "12", null, true: 400 payments.amount.invalid on amount (D28). */
export const amountNotNumber: Check = {
  id: 'writes.payment.amount.notNumber',
  family: 'writes',
  title: 'an amount that is not a number ("12", null, true) is refused 400 payments.amount.invalid, field amount',
  verifies: ['D28'],
  fix: 'refuse an amount that is not a number (a string, null, true) with 400 payments.amount.invalid naming amount in errors[0], as for any other reason amount fails (D28)',
  requires: ['orders:payable:1'],
  run: async (ctx) =>
    expectRefusedPayments(
      ctx,
      await liveId(ctx, 'payable'),
      [['amount "12" (a string)', paymentBody({ amount: '12' })], ['amount null', paymentBody({ amount: null })], ['amount true', paymentBody({ amount: true })]],
      { type: 'payments.amount.invalid', field: 'amount', first: true },
    ),
};

/** currency eur, EU, EURO: 400 payments.currency.invalid on currency. */
export const currencyInvalid: Check = {
  id: 'writes.payment.currency.invalid',
  family: 'writes',
  title: 'a currency that is not three uppercase letters (eur, EU, EURO) is refused 400 payments.currency.invalid, field currency',
  verifies: ['int.payment.currency-invalid', 'cat.validation-errors'],
  fix: 'refuse a currency that is not three uppercase letters with 400 payments.currency.invalid, naming currency in errors (int.payment.currency-invalid, cat.validation-errors)',
  requires: ['orders:payable:1'],
  run: async (ctx) =>
    expectRefusedPayments(
      ctx,
      await liveId(ctx, 'payable'),
      [['currency "eur" (lower case)', paymentBody({ currency: 'eur' })], ['currency "EU" (two letters)', paymentBody({ currency: 'EU' })], ['currency "EURO" (four letters)', paymentBody({ currency: 'EURO' })]],
      { type: 'payments.currency.invalid', field: 'currency' },
    ),
};

/** currency ABC (three uppercase letters, not ISO 4217): 400 payments.currency.invalid on currency; currency 123 (not a string): 400. */
export const currencyNotIso: Check = {
  id: 'writes.payment.currency.notIso',
  family: 'writes',
  title: 'a currency that is not an ISO 4217 code (ABC) is refused 400 payments.currency.invalid, field currency; one that is not a string (123) is refused 400',
  verifies: ['int.payment.currency', 'cat.validation-errors'],
  fix: 'accept as currency only a three-letter ISO 4217 code, refusing any other value with 400 payments.currency.invalid naming currency (int.payment.currency, cat.validation-errors)',
  requires: ['orders:payable:1'],
  async run(ctx) {
    const externalId = await liveId(ctx, 'payable');
    return [
      ...(await expectRefusedPayments(ctx, externalId, [['currency "ABC" (not ISO 4217)', paymentBody({ currency: 'ABC' })]], { type: 'payments.currency.invalid', field: 'currency' })),
      ...(await expectRefusedPayments(ctx, externalId, [['currency 123 (a number)', paymentBody({ currency: 123 })]], {})),
    ];
  },
};

/** amount "12", true, null, [12]: refused 400, with any code; a target that coerces "12" to 12 fails. */
export const amountType: Check = {
  id: 'writes.payment.amount.type',
  family: 'writes',
  title: 'an amount that is not a JSON number ("12", true, null, [12]) is refused 400',
  verifies: ['int.payment.amount'],
  fix: 'refuse with 400 an amount that is not a JSON number, never coercing "12" or true into one (int.payment.amount)',
  requires: ['orders:payable:1'],
  run: async (ctx) =>
    expectRefusedPayments(
      ctx,
      await liveId(ctx, 'payable'),
      [['amount "12" (a string)', paymentBody({ amount: '12' })], ['amount true', paymentBody({ amount: true })], ['amount null', paymentBody({ amount: null })], ['amount [12] (an array)', paymentBody({ amount: [12] })]],
      {},
    ),
};

/** Each required member missing: 400 with an errors entry naming it (the catalog's field errors; its place in errors is D28's); paymentId 123 or null: 400. */
export const paymentRequired: Check = {
  id: 'writes.payment.required',
  family: 'writes',
  title: 'a payment without paymentId, amount or currency is refused 400 naming the missing field; a paymentId that is a number or null is refused 400',
  verifies: ['int.payment.body', 'int.payment.paymentId', 'cat.validation-errors'],
  fix: 'refuse a payment missing paymentId, amount or currency with 400 naming the missing member in errors, and a paymentId that is not a string with 400 (int.payment.body, int.payment.paymentId, cat.validation-errors)',
  requires: ['orders:payable:1'],
  async run(ctx) {
    const externalId = await liveId(ctx, 'payable');
    const findings: Finding[] = [];
    for (const field of ['paymentId', 'amount', 'currency']) {
      findings.push(...(await expectRefusedPayments(ctx, externalId, [[`no ${field}`, paymentBody({ [field]: undefined })]], { field })));
    }
    findings.push(...(await expectRefusedPayments(ctx, externalId, [['paymentId 123 (a number)', paymentBody({ paymentId: 123 })], ['paymentId null', paymentBody({ paymentId: null })]], {})));
    return findings;
  },
};

/** paymentId not a UUID: 400 with an errors entry naming it. */
export const paymentIdNotUuid: Check = {
  id: 'writes.payment.paymentId.format',
  family: 'writes',
  title: 'a paymentId that is not a UUID is refused 400, field paymentId',
  verifies: ['int.payment.paymentId-format'],
  fix: 'refuse a paymentId that is not a UUID with 400 naming paymentId (int.payment.paymentId-format)',
  requires: ['orders:payable:1'],
  // Only the 400: naming the field in `errors` is the catalog's rule, which the MUST checks hold.
  run: async (ctx) => expectRefusedPayments(ctx, await liveId(ctx, 'payable'), [['paymentId "not-a-uuid"', paymentBody({ paymentId: 'not-a-uuid' })]], {}),
};

/** JSON text with object keys sorted, so two answers compare by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The same paymentId again (and again with another amount): 200 with the first answer (D10). */
export const paymentRepeat: Check = {
  id: 'writes.payment.repeat',
  family: 'writes',
  title: 'a repeated paymentId answers 200 with the same order as the first time, recorded once',
  verifies: ['D10'],
  fix: 'answer a paymentId already recorded on the order with 200 and the order as the first answer gave it, recording nothing again, whatever amount comes with it (D10)',
  requires: ['orders:payable:1'],
  async run(ctx) {
    const externalId = await liveId(ctx, 'payable');
    const body = paymentBody();
    const first = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body });
    if (first.status !== 200) return [finding(`the first payment on ${externalId}: ${describeExchange(first.exchange)}`, '200', received(first), first.exchange)];
    const repeats: [string, Record<string, unknown>][] = [
      ['the same payment again', body],
      ['the same paymentId with another amount', { ...body, amount: 99.99 }],
    ];
    const findings: Finding[] = [];
    for (const [described, repeat] of repeats) {
      const response = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body: repeat });
      if (response.status !== 200) findings.push(finding(`${described} on ${externalId}: ${describeExchange(response.exchange)}`, '200', received(response), response.exchange));
      else if (canonical(response.json) !== canonical(first.json)) {
        findings.push(finding(`${described} on ${externalId}: the order differs from the first answer (the payment was recorded again)`, show(first.json), show(response.json), response.exchange));
      }
    }
    return findings;
  },
};

/**
 * A repeated paymentId with another amount records nothing new (D10): the order's history is the
 * same after the repeat as before it, with one payment entry for the paymentId, of the first
 * amount. The history is read through the control plane, of the tenant whoami names.
 */
export const paymentRecordedOnce: Check = {
  id: 'writes.payment.recordedOnce',
  family: 'writes',
  title: "a repeated paymentId with another amount records nothing new in the order's history: one payment entry, the first amount",
  verifies: ['D10'],
  fix: 'record a paymentId once per order: a repeat, whatever its amount, adds nothing to the history and keeps the first amount (D10)',
  requires: ['sandbox', 'orders:payable:1'],
  run: onControlPlane(async (plane, ctx) => {
    const externalId = await liveId(ctx, 'payable');
    const tenant = await fullKeyTenant(ctx);
    const body = paymentBody();
    const first = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body });
    const orderId = objectOf(first)?.['id'];
    if (first.status !== 200 || typeof orderId !== 'string' || orderId === '') {
      return plane.stop(finding(`the first payment on ${externalId} (needed by this check): ${describeExchange(first.exchange)}`, '200 with the order (and its id)', received(first), first.exchange));
    }
    const what = `${externalId} (order ${orderId})`;
    const before = await orderHistory(plane, tenant, orderId, what);
    const repeat = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body: { ...body, amount: 99.99 } });
    // Whether a repeat answers 200 is writes.payment.repeat's rule; a refused repeat records nothing to count.
    if (repeat.status < 200 || repeat.status > 299) return ctx.skip(`the repeated payment on ${externalId} was refused: ${received(repeat)} (see writes.payment.repeat)`);

    const { entries, last } = await orderHistory(plane, tenant, orderId, what);
    const where = `the history of ${externalId} after paying ${show(body['amount'])} and then ${show(99.99)} with the paymentId ${String(body['paymentId'])}`;
    const known = new Set(before.entries.map((entry) => JSON.stringify(entry)));
    const added = entries.filter((entry) => !known.has(JSON.stringify(entry)));
    if (added.length > 0 || entries.length !== before.entries.length) {
      plane.findings.push(finding(`${where}: the repeat changed the history (a repeat records nothing new)`, `the ${before.entries.length} entries it held before the repeat, unchanged`, `${entries.length} entries, new or changed: ${show(added, 400)}`, last));
    }
    const payments = entries.filter((entry) => {
      const data = entry['data'];
      return entry['kind'] === 'payment' && data !== null && typeof data === 'object' && (data as Record<string, unknown>)['paymentId'] === body['paymentId'];
    });
    if (payments.length !== 1) {
      plane.findings.push(finding(`${where}: ${payments.length === 0 ? 'no payment entry' : `${payments.length} payment entries`}`, `exactly one payment entry with paymentId ${String(body['paymentId'])}`, payments.length === 0 ? `none among ${entries.length} entries` : show(payments), last));
      return;
    }
    const amount = (payments[0]!['data'] as Record<string, unknown>)['amount'];
    if (amount !== body['amount']) plane.findings.push(finding(`${where}: the payment does not keep the first amount`, `amount ${show(body['amount'])}`, `amount ${show(amount)}`, last));
  }),
};

/** The payment checks, in the order they run. */
export const paymentChecks: Check[] = [paymentSuccess, amountNotPositive, amountNotNumber, currencyInvalid, currencyNotIso, amountType, paymentRequired, paymentIdNotUuid, paymentRepeat, paymentRecordedOnce];
