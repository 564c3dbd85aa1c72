/**
 * The answers HTTP gives on its own and the seeds never address: 417, RFC 9110 §10.1.1's answer
 * to an `Expect` the server cannot meet, which stock HTTP servers (Node, nginx) send before any
 * endpoint runs and the reference sends as D60 decides. The seeds' statuses say what an endpoint
 * answers for its own rules; they do not forbid the protocol's, so a 417 is no departure from
 * them: the seed view of the contract takes it, and the seeds' problem rule ties no catalog type
 * to it. http.expect.unmet (D60) judges those answers. The one place that says so.
 */

/** The statuses of HTTP's own answers, as the contract writes a status. */
export const PROTOCOL_STATUSES: readonly string[] = ['417'];

/** True when `status` is one of HTTP's own answers, which the seeds leave to the protocol. */
export function isProtocolStatus(status: number | string): boolean {
  return PROTOCOL_STATUSES.includes(String(status));
}
