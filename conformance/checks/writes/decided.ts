/**
 * Writes, the decided rules no seed sentence states: a payment is recorded in any status of a
 * live order (D10), a paymentId is unique per order, not per tenant (D29), and body members the
 * contract does not define are ignored while a defined one of the wrong type is refused (D19).
 * Each check writes only the pool ids the runner gave it, read from the order feed first; the
 * orders they pay or cancel are New, InPlanning or Planned ones, which no reading of the seeds
 * refuses a payment, but for the ended order D10's check pays on purpose.
 */
import { CANCELLABLE_STATUSES, statusWords } from '../../contract/order-statuses.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpResponse } from '../../engine/types/exchange.ts';
import { expectProblem, objectOf, paths, paymentBody, received } from '../support/order-requests.ts';
import { type OrderState, poolStates, preferring, qualifyingOrders } from '../support/pool-state.ts';

/**
 * A finding unless `response` is 200: what the decisions here decide is that the write is
 * accepted; that its body is an Order is the seeds' rule, which the MUST checks hold.
 */
function expectAccepted(response: HttpResponse, what: string): Finding[] {
  return response.status === 200 ? [] : [finding(`${what}: ${describeExchange(response.exchange)}`, '200 with the order', received(response), response.exchange)];
}

/** The pool's cancellable ids of this check, New first. */
async function openOrders(ctx: CheckContext): Promise<OrderState[]> {
  return preferring(await qualifyingOrders(ctx, 'cancellable', poolStates.cancellable), CANCELLABLE_STATUSES);
}

/** Two of the pool's cancellable ids of this check, New first; the check skips when only one qualifies. */
async function twoOpenOrders(ctx: CheckContext): Promise<[OrderState, OrderState]> {
  const [first, second] = (await openOrders(ctx)) as [OrderState, OrderState | undefined];
  if (second === undefined) return ctx.skip(`needs two orders in ${statusWords(CANCELLABLE_STATUSES)} from profile orders.cancellable; one qualified (${first.externalId})`);
  return [first, second];
}

/** A payment of a cancelled order and of an ended one: 200 with the order (D10: any status of a live order). */
export const paymentAnyStatus: Check = {
  id: 'writes.payment.anyStatus',
  family: 'writes',
  title: 'a payment of an order just cancelled, and of an order that has ended (e.g. FullyDelivered), answers 200 with the order',
  verifies: ['D10'],
  fix: 'record a payment on a live order in any status, Cancelled and ended ones too, and answer 200 with the order (D10)',
  requires: ['orders:cancellable:1', 'orders:notCancellable:1'],
  async run(ctx) {
    const [open] = (await openOrders(ctx)) as [OrderState];
    const [ended] = (await qualifyingOrders(ctx, 'notCancellable', { describe: `a live order outside ${statusWords(CANCELLABLE_STATUSES, 'and')}`, qualifies: () => true })) as [OrderState];
    const cancelled = await ctx.http.request({ method: 'POST', path: paths.cancel(open.externalId), body: { reason: 'waybill conformance: paid after cancelling' } });
    // Whether the cancel answers 200 is writes.cancel.legal's rule; without it there is no cancelled order to pay.
    if (cancelled.status < 200 || cancelled.status > 299) return ctx.skip(`the cancel of ${open.externalId} (${open.status}) was refused: ${received(cancelled)} (see writes.cancel.legal)`);
    const status = objectOf(cancelled)?.['status'];
    const findings: Finding[] = [];
    for (const [externalId, described] of [[open.externalId, `${show(status)} after its cancel`], [ended.externalId, ended.status]] as const) {
      const response = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), body: paymentBody() });
      findings.push(...expectAccepted(response, `a payment of ${externalId}, which is ${described}`));
    }
    return findings;
  },
};

/** When `stamp` is a date-time, its instant in ms; else NaN. */
const instant = (stamp: unknown) => (typeof stamp === 'string' ? Date.parse(stamp) : Number.NaN);

/**
 * The paymentId of one order's payment, sent for another order: 200, recorded there as a payment
 * of its own (D29), so that order's updatedAtUtc moves as a recorded payment moves it (D10).
 */
export const paymentOtherOrder: Check = {
  id: 'writes.payment.otherOrder',
  family: 'writes',
  title: "a paymentId already recorded on one order, sent for another, answers 200 and is recorded on that order too (its updatedAtUtc moves)",
  verifies: ['D29'],
  fix: 'key payments by order and paymentId: the same paymentId on another order is a payment of that order, recorded and moving its updatedAtUtc (D29)',
  requires: ['orders:cancellable:2'],
  async run(ctx) {
    const [first, second] = await twoOpenOrders(ctx);
    const body = paymentBody();
    const paid = await ctx.http.request({ method: 'POST', path: paths.payment(first.externalId), body });
    // Whether a payment answers 200 is writes.payment.success's rule; this check needs one recorded to repeat its id.
    if (paid.status !== 200) return ctx.skip(`the payment of ${first.externalId} was refused: ${received(paid)} (see writes.payment.success)`);
    const again = await ctx.http.request({ method: 'POST', path: paths.payment(second.externalId), body: { ...body, amount: 7.25 } });
    const what = `the paymentId ${String(body['paymentId'])} of ${first.externalId}'s payment, sent for ${second.externalId}`;
    const findings = expectAccepted(again, what);
    if (findings.length > 0) return findings;
    const before = instant(second.updatedAtUtc);
    const after = instant(objectOf(again)?.['updatedAtUtc']);
    // An Order without a readable updatedAtUtc breaks the seeds (discovery.responses.contract); it cannot show a recorded payment.
    if (Number.isNaN(before) || Number.isNaN(after)) return ctx.skip(`no readable updatedAtUtc on ${second.externalId} before (${second.updatedAtUtc}) or after (${show(objectOf(again)?.['updatedAtUtc'])}) the payment, to show whether it was recorded`);
    if (!(after > before)) {
      findings.push(finding(`${what}: ${describeExchange(again.exchange)}: not recorded on ${second.externalId} (its updatedAtUtc did not move)`, `updatedAtUtc after ${second.updatedAtUtc}, the order's before the payment (D10: a recorded payment moves it)`, `updatedAtUtc ${show(objectOf(again)?.['updatedAtUtc'])}`, again.exchange));
    }
    return findings;
  },
};

/** Unknown body members are ignored on payment and cancel; a defined member of the wrong type is refused naming it (D19). */
export const unknownBodyFields: Check = {
  id: 'writes.body.unknownFields',
  family: 'writes',
  title: 'a payment and a cancel with members the contract does not define answer 200; a cancel whose reason is a number is refused 400 api.malformed_request naming reason',
  verifies: ['D19'],
  fix: 'ignore body members the contract does not define, and refuse a defined member of the wrong type with 400 api.malformed_request naming it (D19)',
  requires: ['orders:cancellable:2'],
  async run(ctx) {
    const [payable, cancellable] = await twoOpenOrders(ctx);
    const extra = { note: 'waybill conformance: a member the contract does not define', metadata: { source: 'waybill', attempt: 1 } };
    const findings: Finding[] = [];
    const payment = await ctx.http.request({ method: 'POST', path: paths.payment(payable.externalId), body: { ...paymentBody(), ...extra } });
    findings.push(...expectAccepted(payment, `a payment of ${payable.externalId} with the extra members note and metadata`));
    const typed = await ctx.http.request({ method: 'POST', path: paths.cancel(cancellable.externalId), body: { reason: 12 } });
    findings.push(...expectProblem(typed, { status: 400, type: 'api.malformed_request', field: 'reason' }, `a cancel of ${cancellable.externalId} whose reason is the number 12`));
    const cancel = await ctx.http.request({ method: 'POST', path: paths.cancel(cancellable.externalId), body: { reason: 'waybill conformance', ...extra } });
    findings.push(...expectAccepted(cancel, `a cancel of ${cancellable.externalId} with the extra members note and metadata`));
    return findings;
  },
};

/** The decided write checks, in the order they run. */
export const decidedWriteChecks: Check[] = [paymentAnyStatus, paymentOtherOrder, unknownBodyFields];
