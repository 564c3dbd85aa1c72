/**
 * Writes, cancelling and archiving: 404 for an external id nobody holds, legal and illegal
 * cancels (the reason in the history), archiving (204, then gone for every operation and from
 * the feed; not while on a trip), and the code of a refusal for the order's state.
 */
import { CANCELLABLE_STATUSES, COLLECTION_END_STATUSES, DELIVERY_END_STATUSES, statusWords } from '../../contract/order-statuses.ts';
import { orderStatuses } from '../../../spec/load.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpRequest } from '../../engine/types/exchange.ts';
import { fullKeyTenant, onControlPlane, orderHistory } from '../support/control-plane.ts';
import { absentExternalId, expectProblem, type FeedWalk, objectOf, paths, paymentBody, received, walkFeed, writeOperations } from '../support/order-requests.ts';
import { endedBySeeds, type OrderState, poolStates, preferring, qualifyingOrders } from '../support/pool-state.ts';
import { cancellableId, expectOrder, liveId } from '../support/write-answers.ts';

/** An external id nobody holds: 404 orders.notFound on payment and archive, whose sections say so. */
export const unknownOrder: Check = {
  id: 'writes.notFound',
  family: 'writes',
  title: 'payment and archive answer 404 orders.notFound for an external id no order carries',
  verifies: ['int.payment.not-found', 'int.archive.not-found', 'cat.orders.not-found'],
  fix: 'answer a payment or archive whose external id no order of the tenant carries with 404 orders.notFound (int.payment.not-found, int.archive.not-found, cat.orders.not-found)',
  requires: ['key:full'],
  async run(ctx) {
    const externalId = absentExternalId(ctx);
    const findings: Finding[] = [];
    for (const { operation, request } of writeOperations(externalId).filter(({ operation }) => operation !== 'cancelOrder')) {
      const response = await ctx.http.request(request);
      findings.push(...expectProblem(response, { status: 404, type: 'orders.notFound' }, `${operation} on ${externalId}, which no order carries`));
    }
    return findings;
  },
};

/** A cancel of an external id nobody holds: 404 orders.notFound, as for the other writes by external id. */
export const cancelUnknownOrder: Check = {
  id: 'writes.cancel.notFound',
  family: 'writes',
  title: 'cancel answers 404 orders.notFound for an external id no order carries',
  verifies: ['int.cancel.not-found'],
  fix: 'answer a cancel whose external id no order of the tenant carries with 404, as the other writes by external id do (int.cancel.not-found)',
  requires: ['key:full'],
  async run(ctx) {
    const externalId = absentExternalId(ctx);
    const response = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance' } });
    // Only the 404: the code it carries is the catalog's rule, which writes.notFound and problems.catalog hold.
    return expectProblem(response, { status: 404 }, `cancelOrder on ${externalId}, which no order carries`);
  },
};

/** Cancel of a cancellable order (New first): 200 with the order. */
export const cancelLegal: Check = {
  id: 'writes.cancel.legal',
  family: 'writes',
  title: 'cancelling an order in New (or, failing one, InPlanning or Planned) with a reason answers 200 with the order',
  verifies: ['int.cancel.response', 'int.cancel.reason'],
  fix: 'cancel an order in New, InPlanning or Planned, with or without a reason, and answer 200 with the order as it now is (int.cancel.response, int.cancel.reason)',
  requires: ['orders:cancellable:1'],
  async run(ctx) {
    const externalId = await cancellableId(ctx);
    // No reason: the seeds make it optional (the reason's effect is writes.cancel.history's).
    const response = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId), body: {} });
    return expectOrder(ctx, response, externalId, `cancelling ${externalId}`);
  },
};

/** A reason no earlier cancel can have sent, so the history entry found is this check's. */
function uniqueReason(ctx: CheckContext): string {
  return `waybill conformance: reason ${Math.floor(ctx.random() * 2 ** 48).toString(36)}`;
}

/** True when `value` is `reason` or holds it in one of its members, at any depth. */
function holds(value: unknown, reason: string): boolean {
  if (value === reason) return true;
  if (value !== null && typeof value === 'object') return Object.values(value as Record<string, unknown>).some((member) => holds(member, reason));
  return false;
}

/** The cancellation reason is recorded in the order's history (read through the control plane). */
export const cancelHistory: Check = {
  id: 'writes.cancel.history',
  family: 'writes',
  title: "a cancel's reason is recorded in the order's history",
  verifies: ['int.cancel.history'],
  fix: "record a cancel's reason in the order's history, in the entry the cancel writes (int.cancel.history)",
  requires: ['sandbox', 'orders:cancellable:1'],
  run: onControlPlane(async (plane, ctx) => {
    const [order] = preferring(await qualifyingOrders(ctx, 'cancellable', poolStates.cancellable), CANCELLABLE_STATUSES) as [OrderState];
    const tenant = await fullKeyTenant(ctx);
    const reason = uniqueReason(ctx);
    const cancelled = await ctx.http.request({ method: 'POST', path: paths.cancel(order.externalId), body: { reason } });
    // Whether the cancel answers 200 is writes.cancel.legal's rule; a refused cancel records nothing.
    if (cancelled.status < 200 || cancelled.status > 299) return ctx.skip(`the cancel of ${order.externalId} (${order.status}) was refused: ${received(cancelled)} (see writes.cancel.legal)`);
    const { entries, last } = await orderHistory(plane, tenant, order.id, `${order.externalId} (order ${order.id})`);
    if (!entries.some((entry) => holds(entry['data'] ?? entry, reason))) {
      plane.findings.push(finding(`the history of ${order.externalId} after cancelling it with the reason ${show(reason)}: no entry holds the reason`, `an entry with the reason ${show(reason)}`, `${entries.length} entries: ${show(entries.slice(-3), 400)}`, last));
    }
  }),
};

/** Cancel: the order becomes Cancelled, and a second cancel is illegal (D11). */
export const cancelStatus: Check = {
  id: 'writes.cancel.status',
  family: 'writes',
  title: 'a cancelled order is Cancelled, and cancelling it again is 409 orders.status.illegal',
  verifies: ['D11'],
  fix: 'move a cancelled order to Cancelled, and refuse any later cancel of it with 409 orders.status.illegal (D11)',
  requires: ['orders:cancellable:1'],
  async run(ctx) {
    const externalId = await cancellableId(ctx);
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
  fix: 'take a cancel without a body, and without Content-Type, as a cancel with no reason: 200 with the order (D11)',
  requires: ['orders:cancellable:1'],
  async run(ctx) {
    const externalId = await cancellableId(ctx);
    const response = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId) });
    return response.status === 200 ? [] : [finding(`cancelling ${externalId} without a body: ${describeExchange(response.exchange)}`, '200 with the order', received(response), response.exchange)];
  },
};

/** How many notCancellable ids each cancel-refusal check takes, so that one of the statuses it needs is likely among them. */
const NOT_CANCELLABLE_IDS = 3;

/** Findings unless cancelling each of `orders` is 409 orders.status.illegal. */
async function expectIllegalCancels(ctx: CheckContext, orders: readonly OrderState[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const { externalId, type, status } of orders) {
    const response = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance: too late' } });
    findings.push(...expectProblem(response, { status: 409, type: 'orders.status.illegal' }, `cancelling ${externalId} (a ${type} that is ${status})`));
  }
  return findings;
}

/** Cancel of an order the seeds make final (its type's end status): 409 orders.status.illegal. */
export const cancelIllegal: Check = {
  id: 'writes.cancel.illegal',
  family: 'writes',
  title: "cancelling an order that has ended (its type's end status, e.g. a FullyDelivered Delivery) is 409 orders.status.illegal",
  verifies: ['int.status.illegal-move'],
  fix: "refuse to cancel an order that has reached its type's end status with 409 orders.status.illegal, changing nothing (int.status.illegal-move)",
  requires: [`orders:notCancellable:${NOT_CANCELLABLE_IDS}`],
  async run(ctx) {
    const ended = await qualifyingOrders(ctx, 'notCancellable', { describe: `an order in an end status of its type (Delivery/Rebox ${DELIVERY_END_STATUSES.join(', ')}; Pickup/Return ${COLLECTION_END_STATUSES.join(', ')})`, qualifies: endedBySeeds });
    return expectIllegalCancels(ctx, ended);
  },
};

/** The statuses of the contract a cancel is refused from though no end rule makes them final (D11): InProgress, Refused, Cancelled, Closed. */
const NOT_ENDED_OUTSIDE_CANCEL = orderStatuses.filter((status) => !CANCELLABLE_STATUSES.includes(status) && !DELIVERY_END_STATUSES.includes(status) && !COLLECTION_END_STATUSES.includes(status));

/** Cancel of an InProgress, Cancelled, Refused or Closed order: 409 orders.status.illegal (D11). */
export const cancelIllegalDecided: Check = {
  id: 'writes.cancel.illegal.decided',
  family: 'writes',
  title: 'cancelling an order that is InProgress, Cancelled, Refused or Closed (not ended by its type) is 409 orders.status.illegal',
  verifies: ['D11'],
  fix: 'cancel only from New, InPlanning or Planned: refuse a cancel from InProgress, Cancelled, Refused or Closed with 409 orders.status.illegal (D11)',
  requires: [`orders:notCancellable:${NOT_CANCELLABLE_IDS}`],
  async run(ctx) {
    const refused = await qualifyingOrders(ctx, 'notCancellable', { describe: `an order outside ${statusWords(CANCELLABLE_STATUSES, 'and')} that has not ended by its type (${NOT_ENDED_OUTSIDE_CANCEL.join(', ')})`, qualifies: (state) => !CANCELLABLE_STATUSES.includes(state.status) && !endedBySeeds(state) });
    return expectIllegalCancels(ctx, refused);
  },
};

/**
 * Cancel of an InProgress order (on a trip that has started): 409 orders.status.illegal (D11).
 * The notCancellable pool need not hold one, so the check takes its orders from the onTrip pool.
 */
export const cancelInProgress: Check = {
  id: 'writes.cancel.inProgress',
  family: 'writes',
  title: 'cancelling an InProgress order (on a started trip) is 409 orders.status.illegal',
  verifies: ['D11'],
  fix: 'refuse to cancel an InProgress order, one on a started trip, with 409 orders.status.illegal (D11)',
  requires: ['orders:onTrip:3'],
  async run(ctx) {
    const [order] = await qualifyingOrders(ctx, 'onTrip', { describe: 'an InProgress order', qualifies: (state) => state.status === 'InProgress' });
    return expectIllegalCancels(ctx, [order!]);
  },
};

/** Archiving an order on a trip (Planned or InProgress): 409 orders.status.illegal (D12). */
export const archiveOnTrip: Check = {
  id: 'writes.archive.onTrip',
  family: 'writes',
  title: 'archiving an order on a trip (Planned or InProgress) is 409 orders.status.illegal',
  verifies: ['D12'],
  fix: 'refuse to archive a Planned or InProgress order, one on a trip, with 409 orders.status.illegal (D12)',
  requires: ['orders:onTrip:1'],
  async run(ctx) {
    const [{ externalId, status }] = (await qualifyingOrders(ctx, 'onTrip', poolStates.onTrip)) as [OrderState];
    const response = await ctx.http.request({ method: 'DELETE', path: paths.archive(externalId) });
    return expectProblem(response, { status: 409, type: 'orders.status.illegal' }, `archiving ${externalId}, which is ${status} on a trip`);
  },
};

/** Statuses of an answer that refuse for a reason other than the order's state (credentials, the request's bytes, load). */
const NOT_ABOUT_STATE = new Set([401, 403, 408, 413, 415, 429]);

/**
 * Whatever a target allows, a cancel or archive it refuses for the order's state is 409
 * orders.status.illegal: tried on orders on a trip (cancel of an InProgress one, archive of each).
 */
export const stateRefusal: Check = {
  id: 'writes.status.refusal',
  family: 'writes',
  title: "a cancel or archive refused for the order's state (tried on orders on a trip) is 409 orders.status.illegal; an accepted one is not judged here",
  verifies: ['int.status.illegal-move'],
  fix: "type every refusal of a cancel or an archive for the order's status orders.status.illegal, with status 409 (int.status.illegal-move)",
  requires: ['orders:onTrip:2'],
  async run(ctx) {
    const orders = preferring(await qualifyingOrders(ctx, 'onTrip', poolStates.onTrip), ['InProgress']);
    const tries: { what: string; request: HttpRequest }[] = [];
    for (const { externalId, status } of orders) {
      if (status === 'InProgress') tries.push({ what: `cancelling ${externalId} (InProgress)`, request: { method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance: on the road' } } });
      tries.push({ what: `archiving ${externalId} (${status})`, request: { method: 'DELETE', path: paths.archive(externalId) } });
    }
    const findings: Finding[] = [];
    for (const { what, request } of tries) {
      const response = await ctx.http.request(request);
      const accepted = response.status >= 200 && response.status <= 299;
      if (accepted || response.status >= 500 || NOT_ABOUT_STATE.has(response.status)) continue;
      findings.push(...expectProblem(response, { status: 409, type: 'orders.status.illegal' }, `${what}, refused`));
    }
    return findings;
  },
};

/** Archive: 204 with no content. */
export const archiveNoContent: Check = {
  id: 'writes.archive.noContent',
  family: 'writes',
  title: 'archiving an order answers 204 with no body',
  verifies: ['int.archive.no-content'],
  fix: 'answer an archive with 204 and no body (int.archive.no-content)',
  requires: ['orders:archivable:1'],
  async run(ctx) {
    const externalId = await liveId(ctx, 'archivable');
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
  fix: 'once an order is archived, answer payment, cancel and archive on its external id with 404 orders.notFound (D12)',
  requires: ['orders:archivable:1'],
  async run(ctx) {
    const externalId = await liveId(ctx, 'archivable');
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
  fix: 'leave archived orders out of every page of the order feed from the moment they are archived (int.archive.gone-from-feed, int.orders-feed.no-archived)',
  requires: ['orders:archivable:1'],
  async run(ctx) {
    const externalId = await liveId(ctx, 'archivable');
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

/** The cancel and archive checks, in the order they run. */
export const orderWriteChecks: Check[] = [unknownOrder, cancelUnknownOrder, cancelLegal, cancelHistory, cancelStatus, cancelNoBody, cancelIllegal, cancelIllegalDecided, cancelInProgress, stateRefusal, archiveOnTrip, archiveNoContent, archiveGone, archiveFeed];
