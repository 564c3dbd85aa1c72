/**
 * How deeply a request body may nest (D58): 64 levels of arrays and objects are read, one level
 * more is 400 api.malformed_request naming the member that nests too deep. The bodies are valid
 * payments and cancels with one member no body of the contract defines, nested in it; they are
 * sent for a live order of the check's own that cannot be cancelled, so that no 404 can come
 * first, a target that reads past the limit changes no status (a cancel is refused 409, a payment
 * is recorded in any status, D10), and a depth refused before anything is read changes nothing.
 */
import { describeExchange, finding } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import { expectProblem, paths, paymentBody, received } from '../support/order-requests.ts';
import { qualifyingOrders } from '../support/pool-state.ts';

/** D58's limit; `{}` is one level, `{"lines":[{}]}` three. */
const MAX_DEPTH = 64;
/** The member the bodies nest; no body of the contract defines it, so a target that reads it ignores it (D19). */
const MEMBER = 'waybillNesting';

/** JSON text of `body` with MEMBER added, so that the whole body nests `levels` levels deep in arrays or in objects. */
function nestedBody(body: Record<string, unknown>, levels: number, kind: 'arrays' | 'objects'): string {
  const inner = levels - 1;
  const value = kind === 'arrays' ? `${'['.repeat(inner)}${']'.repeat(inner)}` : `${'{"a":'.repeat(inner - 1)}{}${'}'.repeat(inner - 1)}`;
  return `${JSON.stringify(body).slice(0, -1)},"${MEMBER}":${value}}`;
}

/** The check's live order that cannot be cancelled, or a skip saying what its ids held. */
async function liveOrder(ctx: CheckContext): Promise<string> {
  const [order] = await qualifyingOrders(ctx, 'notCancellable', { describe: 'a live order', qualifies: () => true });
  return order!.externalId;
}

/** A body 64 levels deep is read; 65 levels are 400 api.malformed_request naming the member (D58). */
export const bodyDepth: Check = {
  id: 'http.body.depth',
  family: 'http',
  title: 'a payment or cancel body nesting arrays and objects 65 levels deep is refused 400 api.malformed_request naming the member; 64 levels are read',
  verifies: ['D58'],
  fix: 'read a body nested up to 64 levels deep and refuse a deeper one with 400 api.malformed_request naming the member where it goes too deep (D58)',
  requires: ['orders:notCancellable:1'],
  async run(ctx) {
    const externalId = await liveOrder(ctx);
    // Valid JSON, which any proxy in front of the target passes on as deep as it came: not verbatim.
    const send = (path: string, text: string) => ctx.http.request({ method: 'POST', path, rawBody: text, contentType: 'application/json' });
    const findings: Finding[] = [];
    const over = MAX_DEPTH + 1;
    for (const [operation, path, body, kind] of [
      ['payment', paths.payment(externalId), paymentBody(), 'arrays'],
      ['cancel', paths.cancel(externalId), { reason: 'waybill conformance: nested too deep' }, 'objects'],
    ] as const) {
      const response = await send(path, nestedBody(body, over, kind));
      findings.push(...expectProblem(response, { status: 400, type: 'api.malformed_request', field: MEMBER }, `a ${operation} of ${externalId} whose ${MEMBER} nests ${kind} to ${over} levels in all`));
    }
    // At the limit the body is read; the order cannot be cancelled, so 409 is what comes then (D11).
    for (const kind of ['arrays', 'objects'] as const) {
      const response = await send(paths.cancel(externalId), nestedBody({ reason: 'waybill conformance: nested to the limit' }, MAX_DEPTH, kind));
      if (response.status === 400) {
        findings.push(finding(`a cancel of ${externalId} whose ${MEMBER} nests ${kind} to ${MAX_DEPTH} levels in all: ${describeExchange(response.exchange)}`, `read (any answer but 400; 409 orders.status.illegal here, as the order cannot be cancelled)`, received(response), response.exchange));
      }
    }
    return findings;
  },
};
