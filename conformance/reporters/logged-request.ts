/** What every reporter prints the same way for a client-check: the tool's name and a request of the client's log. */
import type { LoggedRequest } from '../engine/types/exchange.ts';
import type { SuiteName } from '../engine/types/report.ts';

/** `waybill conformance` or `waybill client-check`: the tool a report comes from, as its title names it. */
export function toolName(suite: SuiteName | undefined): string {
  return suite === 'waybill-client-check' ? 'waybill client-check' : 'waybill conformance';
}

/**
 * `#12 08:27:23.322Z POST /api/v1/integration/… → 429 api.rate_limited (req_x, Idempotency-Key pay-1, fault: status before (rule))`:
 * one request of the client, as the sandbox's request log shows it.
 */
export function loggedRequestLine(request: LoggedRequest): string {
  const notes = [
    request.requestId,
    ...(request.idempotencyKey === null ? [] : [`Idempotency-Key ${request.idempotencyKey}`]),
    ...(request.replayed ? ['replayed'] : []),
    ...(request.fault === null ? [] : [`fault: ${request.fault}`]),
  ];
  const problem = request.problemType === null ? '' : ` ${request.problemType}`;
  // The log keeps status 0 for a call whose answer never left (a reset, an empty close).
  const answer = request.status === 0 ? 'no answer' : `${request.status}${problem}`;
  return `#${request.entryId} ${request.atUtc} ${request.method} ${request.path} → ${answer} (${notes.join(', ')})`;
}
