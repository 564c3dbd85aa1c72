/**
 * A request without a body (D90): no Transfer-Encoding and `Content-Length: 0`, with a
 * `Content-Type` as clients send one anyway (axios: application/x-www-form-urlencoded). It is a
 * request without a body, whatever the type: a cancel is read as one without a reason, a payment
 * is refused for its missing body, never 415. Both are sent for a live order of the check's own
 * that cannot be cancelled, so that no 404 can come first and nothing changes: the cancel is
 * refused 409 for the order's state, and a payment without a body records nothing.
 */
import { describeExchange, finding } from '../../engine/findings.ts';
import type { Check, Finding } from '../../engine/types/check.ts';
import { expectProblem, paths, received } from '../support/order-requests.ts';
import { qualifyingOrders } from '../support/pool-state.ts';

/** The types a bodyless request is sent with: axios's default for a POST without data, and one more. */
const TYPES = ['application/x-www-form-urlencoded', 'text/plain'];

/** A bodyless cancel is not refused 415; a bodyless payment is 400 api.malformed_request (D90). */
export const bodylessRequest: Check = {
  id: 'http.body.none',
  family: 'http',
  title: 'a cancel or payment with Content-Length: 0 is one without a body whatever its Content-Type: the cancel is not refused 415, the payment is refused 400 api.malformed_request',
  verifies: ['D90'],
  fix: 'take a request with Content-Length: 0 as one without a body, whatever its Content-Type: a cancel goes through, a payment is refused 400 api.malformed_request (D90)',
  requires: ['orders:notCancellable:1'],
  async run(ctx) {
    const [order] = await qualifyingOrders(ctx, 'notCancellable', { describe: 'a live order', qualifies: () => true });
    const externalId = order!.externalId;
    const findings: Finding[] = [];
    for (const contentType of TYPES) {
      const cancel = await ctx.http.request({ method: 'POST', path: paths.cancel(externalId), rawBody: '', contentType, verbatim: true });
      if (cancel.status === 415) {
        findings.push(finding(`a cancel of the live order ${externalId} without a body, sent as ${contentType}: ${describeExchange(cancel.exchange)}`, 'read as a cancel without a reason (the reference answers 409 orders.status.illegal for this order), not 415', received(cancel), cancel.exchange));
      }
      const payment = await ctx.http.request({ method: 'POST', path: paths.payment(externalId), rawBody: '', contentType, verbatim: true });
      findings.push(...expectProblem(payment, { status: 400, type: 'api.malformed_request' }, `a payment of the live order ${externalId} without a body, sent as ${contentType}`));
    }
    return findings;
  },
};
