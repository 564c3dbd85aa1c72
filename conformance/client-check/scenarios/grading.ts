/** What the scenarios share to set up and grade: a payable order, findings with their requests, and the 429 rule. */
import { randomUUID } from 'node:crypto';
import type { Finding } from '../../engine/types/check.ts';
import type { LogSummary } from '../control-plane.ts';
import { type ClientRun, logged, type ScenarioSession, type TaskInputs } from '../scenario.ts';

/** The client's requests of `operation` over every run, oldest first. */
export function requestsOf(runs: readonly ClientRun[], operation: string): LogSummary[] {
  return runs.flatMap((run) => run.requests).filter((entry) => entry.operation === operation);
}

/** A finding with the requests that show it, and a fix sentence of its own when it knows more than its scenario's. */
export function found(message: string, expected: string, received: string, requests: readonly LogSummary[], fix?: string): Finding {
  return { message, expected, received, ...(fix === undefined ? {} : { fix }), requests: requests.map(logged) };
}

/** The finding of a payment task whose client sent no payment at all. */
export const neverPaid = (): Finding => found('The client never sent the payment', 'POST …/orders/externalid/{externalId}/payment', 'no payment request in the request log', []);

/** An order in status New (noted as `orderId`, which the one-payment grade reads) and the task inputs of a payment of 12.50 EUR for it. */
export async function payableOrder(session: ScenarioSession, externalId: string): Promise<TaskInputs> {
  const orderId = await session.control.createOrder(session.tenantId, externalId);
  session.notes.set('orderId', orderId);
  return { externalId, paymentId: randomUUID(), amount: '12.50', currency: 'EUR' };
}

/** Milliseconds of leeway when comparing log times: `atUtc` has millisecond precision. */
const LEEWAY_MS = 10;

/**
 * Findings for a 429 among `attempts` (the requests of one operation, oldest first) that was
 * abandoned, or retried sooner than `seconds` (the Retry-After the scenario's fault gives);
 * their fix sentences cite `rule`, the requirement the scenario verifies.
 */
export function retriedAfter(attempts: readonly LogSummary[], seconds: number, rule: string): Finding[] {
  const findings: Finding[] = [];
  for (const [index, entry] of attempts.entries()) {
    if (entry.status !== 429) continue;
    const next = attempts[index + 1];
    if (next === undefined) {
      findings.push(found('The client abandoned the call after a 429', `a retry after the Retry-After delay (${seconds} s)`, 'no attempt after the 429', attempts.slice(-3), `send the request again once the 429's Retry-After has passed: a 429 means not yet, never give up the call (${rule})`));
      continue;
    }
    const waited = Date.parse(next.atUtc) - Date.parse(entry.atUtc);
    if (waited < seconds * 1000 - LEEWAY_MS) {
      findings.push(found('The client retried a 429 before its Retry-After had passed', `the next attempt at least ${seconds} s (Retry-After: ${seconds}) after the 429`, `${waited} ms later`, [entry, next], `wait at least the delay a 429's Retry-After gives (seconds, or until its HTTP-date) before the next attempt (${rule})`));
    }
  }
  return findings;
}

