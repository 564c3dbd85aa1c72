/**
 * What the idempotency checks share: a payment with an Idempotency-Key, keys and payment ids
 * no earlier run used, and the findings of a replay and of a refused key.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpResponse } from '../../engine/types/exchange.ts';

/** The payment path of `externalId`. */
export function paymentPath(externalId: string): string {
  return `/api/v1/integration/orders/externalid/${encodeURIComponent(externalId)}/payment`;
}

/** A key no earlier run can have used. */
export function freshKey(): string {
  return `waybill-${randomUUID()}`;
}

/** A payment request body with a fresh payment id. */
export function freshPayment(amount: number): { paymentId: string; amount: number; currency: string } {
  return { paymentId: randomUUID(), amount, currency: 'EUR' };
}

/** Attaches `payment` to `externalId` with the full key and `Idempotency-Key: key`. */
export function pay(ctx: CheckContext, externalId: string, payment: unknown, key: string): Promise<HttpResponse> {
  return ctx.http.request({ method: 'POST', path: paymentPath(externalId), body: payment, headers: { 'Idempotency-Key': key } });
}

/** `status body` of an answer, for `received`. */
export function answerText(response: HttpResponse): string {
  return `${response.status} ${show(response.json ?? response.text, 300)}`;
}

/** The field errors[0] names, if any. */
export function firstField(json: unknown): unknown {
  const errors = (json as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors[0] as { field?: unknown } | undefined)?.field : undefined;
}

/** A finding unless `response` is 400 api.malformed_request naming Idempotency-Key in errors[0].field. */
export function keyRefusalFindings(response: HttpResponse, what: string): Finding[] {
  const type = (response.json as { type?: unknown } | undefined)?.type;
  if (response.status === 400 && type === 'api.malformed_request' && firstField(response.json) === 'Idempotency-Key') return [];
  return [finding(`${what}: ${describeExchange(response.exchange)}`, '400 api.malformed_request with errors[0].field Idempotency-Key', answerText(response), response.exchange)];
}

/** True when both answers carry the same body: equal JSON, or equal text when either is not JSON. */
export function sameBody(a: HttpResponse, b: HttpResponse): boolean {
  return a.json !== undefined && b.json !== undefined ? isDeepStrictEqual(a.json, b.json) : a.text === b.text;
}

/**
 * Findings unless `again` replays `first`: same status, same body, `Idempotent-Replayed: true`;
 * `first` itself is not marked. Their fix sentences cite `rule`, the decision the check verifies.
 */
export function replayFindings(first: HttpResponse, again: HttpResponse, what: string, rule: string): Finding[] {
  const findings: Finding[] = [];
  if (first.headers['idempotent-replayed'] !== undefined) {
    const fix = `send Idempotent-Replayed only on an answer replayed from the store, never on the first answer to a key (${rule})`;
    findings.push(finding(`the first ${what} is marked as a replay: ${describeExchange(first.exchange)}`, 'no Idempotent-Replayed header on a fresh answer', `Idempotent-Replayed: ${first.headers['idempotent-replayed']}`, first.exchange, fix));
  }
  if (again.status !== first.status) {
    const fix = `store the answer of a completed request under its Idempotency-Key, and answer a repeat with that stored status and body without executing it again (${rule})`;
    findings.push(finding(`the repeated ${what} got another status: ${describeExchange(again.exchange)}`, `${first.status}, the status of the first answer (exchange #${first.exchange.id})`, answerText(again), again.exchange, fix));
  } else if (!sameBody(first, again)) {
    const fix = `answer a repeat with the body stored for its Idempotency-Key, as the first answer gave it, not with the resource as it is now (${rule})`;
    findings.push(finding(`the repeated ${what} got another body: ${describeExchange(again.exchange)}`, `the body of the first answer (exchange #${first.exchange.id}): ${show(first.json ?? first.text, 300)}`, show(again.json ?? again.text, 300), again.exchange, fix));
  }
  if (again.headers['idempotent-replayed'] !== 'true') {
    const fix = `mark an answer replayed from the store with Idempotent-Replayed: true (${rule})`;
    findings.push(finding(`the repeated ${what} is not marked as a replay: ${describeExchange(again.exchange)}`, 'Idempotent-Replayed: true', again.headers['idempotent-replayed'] === undefined ? 'no Idempotent-Replayed header' : `Idempotent-Replayed: ${again.headers['idempotent-replayed']}`, again.exchange, fix));
  }
  return findings;
}
