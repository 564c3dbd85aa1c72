/**
 * Writes: attaching a payment (success, every validation rule, a repeated paymentId),
 * cancelling (legal and illegal moves), archiving (204, then gone for every operation and from
 * the feed), and 404 for an external id nobody holds. Each check writes only the pool ids the
 * runner gave it.
 */
import { validateSchema } from '../../spec/load.ts';
import { describeExchange, finding, show } from '../findings.ts';
import type { Check, CheckContext, Finding, HttpResponse } from '../types.ts';
import { onControlPlane } from './support/control-plane.ts';
import { absentExternalId, expectProblem, type FeedWalk, objectOf, paths, paymentBody, received, walkFeed, writeOperations } from './support/order-requests.ts';

/** Findings unless `response` is 200 with an Order whose externalId is `externalId`. */
function expectOrder(response: HttpResponse, externalId: string, what: string): Finding[] {
  const where = `${what}: ${describeExchange(response.exchange)}`;
  if (response.status !== 200) return [finding(where, `200 with the order ${externalId}`, received(response), response.exchange)];
  const errors = validateSchema('Order', response.json);
  if (errors.length > 0) {
    const text = errors.map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`).join('; ');
    return [finding(`${where}: the body is not an Order`, 'an Order (id, externalId, shortId, status, …)', `${text} in ${show(response.json)}`, response.exchange)];
  }
  const actual = objectOf(response)?.['externalId'];
  return actual === externalId ? [] : [finding(`${where}: the answer is another order`, `externalId ${externalId}`, `externalId ${show(actual)}`, response.exchange)];
}

/** Findings for each payment body of `cases` on `externalId` not answered 400 `type` naming `field`. */
async function expectRefusedPayments(ctx: CheckContext, externalId: string, cases: [string, Record<string, unknown>][], expected: { type?: string; field: string }): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [described, body] of cases) {
    const response = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body });
    findings.push(...expectProblem(response, { status: 400, ...expected }, `a payment with ${described}`));
  }
  return findings;
}

/** The only pool id a check asked for. */
function onlyId(ctx: CheckContext, pool: Parameters<CheckContext['orders']>[0]): string {
  return ctx.orders(pool)[0]!;
}

/** A valid payment: 200 with the order. */
export const paymentSuccess: Check = {
  id: 'writes.payment.success',
  family: 'writes',
  title: 'a valid payment answers 200 with the order it was recorded on',
  verifies: ['int.payment.response'],
  requires: ['orders:payable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'payable');
    const response = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body: paymentBody() });
    return expectOrder(response, externalId, `a valid payment on ${externalId}`);
  },
};

/** amount 0 and −1: 400 payments.amount.invalid on amount. */
export const amountNotPositive: Check = {
  id: 'writes.payment.amount.notPositive',
  family: 'writes',
  title: 'an amount of 0 or −1 is refused 400 payments.amount.invalid, field amount',
  verifies: ['int.payment.amount-invalid', 'cat.validation-errors'],
  requires: ['orders:payable:1'],
  run: (ctx) =>
    expectRefusedPayments(ctx, onlyId(ctx, 'payable'), [['amount 0', paymentBody({ amount: 0 })], ['amount -1', paymentBody({ amount: -1 })]], { type: 'payments.amount.invalid', field: 'amount' }),
};

/** amount "12", null, true: 400 payments.amount.invalid on amount (D28). */
export const amountNotNumber: Check = {
  id: 'writes.payment.amount.notNumber',
  family: 'writes',
  title: 'an amount that is not a number ("12", null, true) is refused 400 payments.amount.invalid, field amount',
  verifies: ['D28'],
  requires: ['orders:payable:1'],
  run: (ctx) =>
    expectRefusedPayments(
      ctx,
      onlyId(ctx, 'payable'),
      [['amount "12" (a string)', paymentBody({ amount: '12' })], ['amount null', paymentBody({ amount: null })], ['amount true', paymentBody({ amount: true })]],
      { type: 'payments.amount.invalid', field: 'amount' },
    ),
};

/** currency eur, EU, EURO: 400 payments.currency.invalid on currency. */
export const currencyInvalid: Check = {
  id: 'writes.payment.currency.invalid',
  family: 'writes',
  title: 'a currency that is not three uppercase letters (eur, EU, EURO) is refused 400 payments.currency.invalid, field currency',
  verifies: ['int.payment.currency-invalid', 'cat.validation-errors'],
  requires: ['orders:payable:1'],
  run: (ctx) =>
    expectRefusedPayments(
      ctx,
      onlyId(ctx, 'payable'),
      [['currency "eur" (lower case)', paymentBody({ currency: 'eur' })], ['currency "EU" (two letters)', paymentBody({ currency: 'EU' })], ['currency "EURO" (four letters)', paymentBody({ currency: 'EURO' })]],
      { type: 'payments.currency.invalid', field: 'currency' },
    ),
};

/** currency ABC (three uppercase letters, not ISO 4217): 400 payments.currency.invalid on currency. */
export const currencyNotIso: Check = {
  id: 'writes.payment.currency.notIso',
  family: 'writes',
  title: 'a currency that is not an ISO 4217 code (ABC) is refused 400 payments.currency.invalid, field currency',
  verifies: ['int.payment.currency'],
  requires: ['orders:payable:1'],
  run: (ctx) => expectRefusedPayments(ctx, onlyId(ctx, 'payable'), [['currency "ABC" (not ISO 4217)', paymentBody({ currency: 'ABC' })]], { type: 'payments.currency.invalid', field: 'currency' }),
};

/** Each required member missing: 400 naming it. */
export const paymentRequired: Check = {
  id: 'writes.payment.required',
  family: 'writes',
  title: 'a payment without paymentId, amount or currency is refused 400 naming the missing field',
  verifies: ['int.payment.body', 'cat.validation-errors'],
  requires: ['orders:payable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'payable');
    const findings: Finding[] = [];
    for (const field of ['paymentId', 'amount', 'currency']) {
      findings.push(...(await expectRefusedPayments(ctx, externalId, [[`no ${field}`, paymentBody({ [field]: undefined })]], { field })));
    }
    return findings;
  },
};

/** paymentId not a UUID: 400 naming it. */
export const paymentIdNotUuid: Check = {
  id: 'writes.payment.paymentId.format',
  family: 'writes',
  title: 'a paymentId that is not a UUID is refused 400, field paymentId',
  verifies: ['int.payment.paymentId-format'],
  requires: ['orders:payable:1'],
  run: (ctx) => expectRefusedPayments(ctx, onlyId(ctx, 'payable'), [['paymentId "not-a-uuid"', paymentBody({ paymentId: 'not-a-uuid' })]], { field: 'paymentId' }),
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
  requires: ['orders:payable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'payable');
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

/** The most history pages read for one order. */
const HISTORY_PAGES = 20;

/**
 * A repeated paymentId with another amount leaves one payment entry in the order's history,
 * with the first amount (D10); the history is read through the control plane, of the tenant
 * whoami names.
 */
export const paymentRecordedOnce: Check = {
  id: 'writes.payment.recordedOnce',
  family: 'writes',
  title: "a repeated paymentId with another amount is recorded once in the order's history, with the first amount",
  verifies: ['D10'],
  requires: ['sandbox', 'orders:payable:1'],
  run: onControlPlane(async (plane, ctx) => {
    const externalId = onlyId(ctx, 'payable');
    const whoami = await ctx.http.request({ method: 'GET', path: paths.whoami });
    const tenantId = objectOf(whoami)?.['tenantId'];
    if (whoami.status !== 200 || typeof tenantId !== 'string' || tenantId === '') {
      return plane.stop(finding(`whoami with the full key (needed by this check for the tenant's id): ${describeExchange(whoami.exchange)}`, '200 with tenantId', received(whoami), whoami.exchange));
    }
    const body = paymentBody();
    const first = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body });
    const orderId = objectOf(first)?.['id'];
    if (first.status !== 200 || typeof orderId !== 'string' || orderId === '') {
      return plane.stop(finding(`the first payment on ${externalId} (needed by this check): ${describeExchange(first.exchange)}`, '200 with the order (and its id)', received(first), first.exchange));
    }
    const repeat = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body: { ...body, amount: 99.99 } });
    // Whether a repeat answers 200 is writes.payment.repeat's rule; a refused repeat records nothing to count.
    if (repeat.status < 200 || repeat.status > 299) return ctx.skip(`the repeated payment on ${externalId} was refused: ${received(repeat)} (see writes.payment.repeat)`);

    const historyPath = `/tenants/${encodeURIComponent(tenantId)}/orders/${encodeURIComponent(orderId)}/history`;
    const entries: Record<string, unknown>[] = [];
    let after: string | undefined;
    let last = first.exchange;
    for (let page = 0; page < HISTORY_PAGES; page += 1) {
      const response = await plane.client.request({ method: 'GET', path: historyPath, query: { limit: 100, after } });
      last = response.exchange;
      const items = objectOf(response)?.['items'];
      const next = objectOf(response)?.['nextCursor'];
      if (response.status !== 200 || !Array.isArray(items)) {
        return plane.stop(finding(`reading the history of ${externalId} (order ${orderId}) through the control plane (needed by this check): ${describeExchange(response.exchange)}`, '200 with items and nextCursor', received(response), response.exchange));
      }
      for (const item of items) if (item !== null && typeof item === 'object') entries.push(item as Record<string, unknown>);
      if (typeof next !== 'string' || next === '') break;
      after = next;
    }
    const payments = entries.filter((entry) => {
      const data = entry['data'];
      return entry['kind'] === 'payment' && data !== null && typeof data === 'object' && (data as Record<string, unknown>)['paymentId'] === body['paymentId'];
    });
    const where = `the history of ${externalId} after paying ${show(body['amount'])} and then ${show(99.99)} with the paymentId ${String(body['paymentId'])}`;
    if (payments.length !== 1) {
      plane.findings.push(finding(`${where}: ${payments.length === 0 ? 'no payment entry' : `${payments.length} payment entries`}`, `exactly one payment entry with paymentId ${String(body['paymentId'])}`, payments.length === 0 ? `none among ${entries.length} entries` : show(payments), last));
      return;
    }
    const amount = (payments[0]!['data'] as Record<string, unknown>)['amount'];
    if (amount !== body['amount']) plane.findings.push(finding(`${where}: the payment does not keep the first amount`, `amount ${show(body['amount'])}`, `amount ${show(amount)}`, last));
  }),
};

/** An external id nobody holds: 404 orders.notFound on every write. */
export const unknownOrder: Check = {
  id: 'writes.notFound',
  family: 'writes',
  title: 'payment, cancel and archive answer 404 orders.notFound for an external id no order carries',
  verifies: ['int.payment.not-found', 'int.archive.not-found', 'cat.orders.not-found'],
  requires: ['key:full'],
  async run(ctx) {
    const externalId = absentExternalId(ctx);
    const findings: Finding[] = [];
    for (const { operation, request } of writeOperations(externalId)) {
      const response = await ctx.http.request(request);
      findings.push(...expectProblem(response, { status: 404, type: 'orders.notFound' }, `${operation} on ${externalId}, which no order carries`));
    }
    return findings;
  },
};

/** Cancel of a cancellable order: 200 with the order. */
export const cancelLegal: Check = {
  id: 'writes.cancel.legal',
  family: 'writes',
  title: 'cancelling a cancellable order answers 200 with the order',
  verifies: ['int.cancel.response', 'int.cancel.reason'],
  requires: ['orders:cancellable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'cancellable');
    const response = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance: customer withdrew' } });
    return expectOrder(response, externalId, `cancelling ${externalId}`);
  },
};

/** Cancel: the order becomes Cancelled, and a second cancel is illegal (D11). */
export const cancelStatus: Check = {
  id: 'writes.cancel.status',
  family: 'writes',
  title: 'a cancelled order is Cancelled, and cancelling it again is 409 orders.status.illegal',
  verifies: ['D11'],
  requires: ['orders:cancellable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'cancellable');
    const first = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance: duplicate order' } });
    if (first.status !== 200) return [finding(`cancelling ${externalId}: ${describeExchange(first.exchange)}`, '200 with status Cancelled', received(first), first.exchange)];
    const findings: Finding[] = [];
    const status = objectOf(first)?.['status'];
    if (status !== 'Cancelled') findings.push(finding(`cancelling ${externalId}: ${describeExchange(first.exchange)}: the order is not Cancelled`, 'status Cancelled', `status ${show(status)}`, first.exchange));
    const again = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance: again' } });
    findings.push(...expectProblem(again, { status: 409, type: 'orders.status.illegal' }, `cancelling ${externalId} a second time`));
    return findings;
  },
};

/** Cancel without any body: 200 (D11). */
export const cancelNoBody: Check = {
  id: 'writes.cancel.noBody',
  family: 'writes',
  title: 'a cancel without a body (and without Content-Type) answers 200',
  verifies: ['D11'],
  requires: ['orders:cancellable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'cancellable');
    const response = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId) });
    return response.status === 200 ? [] : [finding(`cancelling ${externalId} without a body: ${describeExchange(response.exchange)}`, '200 with the order', received(response), response.exchange)];
  },
};

/** Cancel of an order that cannot be cancelled: 409 orders.status.illegal. */
export const cancelIllegal: Check = {
  id: 'writes.cancel.illegal',
  family: 'writes',
  title: 'cancelling an order whose status does not allow it is 409 orders.status.illegal',
  verifies: ['int.status.illegal-move'],
  requires: ['orders:notCancellable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'notCancellable');
    const response = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance: too late' } });
    return expectProblem(response, { status: 409, type: 'orders.status.illegal' }, `cancelling ${externalId}, which cannot be cancelled`);
  },
};

/** Archive: 204 with no content. */
export const archiveNoContent: Check = {
  id: 'writes.archive.noContent',
  family: 'writes',
  title: 'archiving an order answers 204 with no body',
  verifies: ['int.archive.no-content'],
  requires: ['orders:archivable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'archivable');
    const response = await ctx.http.request({ method: 'DELETE', path: paths.archive(externalId) });
    if (response.status !== 204) return [finding(`archiving ${externalId}: ${describeExchange(response.exchange)}`, '204', received(response), response.exchange)];
    return response.text === '' ? [] : [finding(`archiving ${externalId}: ${describeExchange(response.exchange)}: a 204 with a body`, 'no body', show(response.text), response.exchange)];
  },
};

/** After archiving, payment, cancel and archive answer 404 orders.notFound (D12). */
export const archiveGone: Check = {
  id: 'writes.archive.gone',
  family: 'writes',
  title: 'after archiving, payment, cancel and archive on that external id answer 404 orders.notFound',
  verifies: ['D12'],
  requires: ['orders:archivable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'archivable');
    const archived = await ctx.http.request({ method: 'DELETE', path: paths.archive(externalId) });
    // Whether the archive itself answers 204 is writes.archive.noContent's rule.
    if (archived.status < 200 || archived.status > 299) return ctx.skip(`the order ${externalId} could not be archived: ${received(archived)} (see writes.archive.noContent)`);
    const findings: Finding[] = [];
    for (const { operation, request } of writeOperations(externalId)) {
      const response = await ctx.http.request(request);
      findings.push(...expectProblem(response, { status: 404, type: 'orders.notFound' }, `${operation} on the archived order ${externalId}`));
    }
    return findings;
  },
};

/** One millisecond before `stamp`, or undefined when it is not a date-time. */
function justBefore(stamp: unknown): string | undefined {
  const time = typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN;
  return Number.isNaN(time) ? undefined : new Date(time - 1).toISOString();
}

/** After archiving, the order feed no longer serves the order. */
export const archiveFeed: Check = {
  id: 'writes.archive.feed',
  family: 'writes',
  title: 'an archived order is no longer served by the order feed',
  verifies: ['int.archive.gone-from-feed', 'int.orders-feed.no-archived'],
  requires: ['orders:archivable:1'],
  async run(ctx) {
    const externalId = onlyId(ctx, 'archivable');
    // A payment moves the order to the feed's tail (D10), so a short walk from just before its stamp finds it.
    const paid = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body: paymentBody() });
    const tail = paid.status === 200 ? justBefore(objectOf(paid)?.['updatedAtUtc']) : undefined;
    const holds = (walk: FeedWalk) => walk.items.some((item) => item['externalId'] === externalId);
    let since = tail;
    let before = await walkFeed(ctx, { path: paths.orderFeed, key: 'full', ...(since === undefined ? {} : { since }) });
    if ('items' in before && !holds(before) && since !== undefined) {
      since = undefined;
      before = await walkFeed(ctx, { path: paths.orderFeed, key: 'full' });
    }
    if (!('items' in before)) return [before];
    if (!holds(before)) return ctx.skip(`the live order ${externalId} was not found in the order feed${before.complete ? '' : ' within 50 pages'}, so its absence after archiving would prove nothing`);
    const archived = await ctx.http.request({ method: 'DELETE', path: paths.archive(externalId) });
    if (archived.status < 200 || archived.status > 299) return ctx.skip(`the order ${externalId} could not be archived: ${received(archived)} (see writes.archive.noContent)`);
    const after = await walkFeed(ctx, { path: paths.orderFeed, key: 'full', ...(since === undefined ? {} : { since }) });
    if (!('items' in after)) return [after];
    const served = after.items.find((item) => item['externalId'] === externalId);
    if (served === undefined) return [];
    return [finding(`the order feed still serves the archived order ${externalId}`, `no item with externalId ${externalId}${since === undefined ? '' : ` in the feed from ${since}`}`, show(served), after.exchangeOf(served))];
  },
};

/** The writes family, in the order it runs. */
export const writesChecks: Check[] = [
  paymentSuccess,
  amountNotPositive,
  amountNotNumber,
  currencyInvalid,
  currencyNotIso,
  paymentRequired,
  paymentIdNotUuid,
  paymentRepeat,
  paymentRecordedOnce,
  unknownOrder,
  cancelLegal,
  cancelStatus,
  cancelNoBody,
  cancelIllegal,
  archiveNoContent,
  archiveGone,
  archiveFeed,
];
