/**
 * Idempotency-Key on the writes: a duplicate while the first request is in flight is refused
 * with 429 (payment and cancel; its Retry-After judged at three levels), a completed payment,
 * cancel or archive is replayed (a 404 refusal too, but not a request refused as invalid,
 * which stores nothing), a key reused for another request or with an
 * invalid value is refused, and a key is scoped to its tenant. Keys and payment ids are fresh
 * for every run, so answers stored by an earlier run (D13 keeps them 24 h) never interfere.
 */
import { ExchangeError } from '../transport/exchange.ts';
import { describeExchange, finding, show } from '../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../engine/types/check.ts';
import type { HttpResponse, RawResponse } from '../engine/types/exchange.ts';
import { type HeldWrite, stageHeldWrite } from './support/held-write.ts';
import { answerText, firstField, freshKey, freshPayment, keyRefusalFindings, pay, paymentPath, replayFindings } from './support/idempotency-requests.ts';
import { absentExternalId, paths } from './support/order-requests.ts';
import { type OrderState, poolStates, preferring, qualifyingOrders } from './support/pool-state.ts';
import { answerClock, HONOURABLE_SECONDS, retryAfterDishonourable, retryAfterProblem, retryAfterUnreadable } from './support/retry-after.ts';

/** A finding unless the first payment of a check succeeded (the rest of the check builds on it). */
function firstPaymentFinding(response: HttpResponse): Finding | null {
  if (response.status >= 200 && response.status < 300) return null;
  return finding(`the first payment with a fresh Idempotency-Key failed: ${describeExchange(response.exchange)}`, '200 with the order (the payment of a payable order)', answerText(response), response.exchange);
}

/** The key under which the in-flight writes are shared with the checks that judge their 429s further. */
const IN_FLIGHT = 'idempotency:inflight';

/** The in-flight 429s idempotency.inflight received; the check ends as `skip` when none came (that check reports why). */
async function inFlightRefusals(ctx: CheckContext): Promise<HttpResponse[]> {
  const held = await ctx.shared<HeldWrite[][]>(IN_FLIGHT, async () => ctx.skip('idempotency.inflight did not run in this run, and its duplicates are what this check judges'));
  const refusals = held.map((attempts) => attempts.at(-1)!).flatMap((last) => (last.meeting === 'held refused' && !(last.first instanceof ExchangeError) ? [last.first] : last.duplicate.status === 429 ? [last.duplicate] : []));
  if (refusals.length === 0) ctx.skip('no duplicate was refused 429 while its first request was in flight (see idempotency.inflight)');
  return refusals;
}

/** Findings of an in-flight 429 of `what`: its type and a Retry-After a client can read. */
function refusalFindings(what: string, refusal: HttpResponse): Finding[] {
  const findings: Finding[] = [];
  const where = describeExchange(refusal.exchange);
  const type = (refusal.json as { type?: unknown } | undefined)?.type;
  if (type !== 'idempotency.inFlight') findings.push(finding(`the in-flight 429 of ${what} carries another type: ${where}`, 'type: idempotency.inFlight', `type: ${show(type)}`, refusal.exchange, "type the 429 for a key still in flight idempotency.inFlight, the catalog's code for it (cat.idempotency.in-flight)"));
  const unreadable = retryAfterUnreadable(refusal.headers['retry-after']);
  if (unreadable !== null) findings.push(finding(`the in-flight 429 of ${what} does not say when to retry: ${where}`, 'Retry-After: delay-seconds or an HTTP-date', unreadable, refusal.exchange, 'send Retry-After with the in-flight 429, as delay-seconds or an HTTP-date, so the client knows when to send it again (int.idempotency.in-flight)'));
  return findings;
}

/** `200 {…}`, or `200 {…}, replayed`, or why no answer came. */
function outcomeText(answer: HttpResponse | ExchangeError): string {
  if (answer instanceof ExchangeError) return `no answer (${answer.message})`;
  return `${answerText(answer)}${answer.headers['idempotent-replayed'] === 'true' ? ', replayed' : ''}`;
}

/**
 * Findings of the attempts at one held write and its duplicate, judged by the last: one of the
 * two refused 429 idempotency.inFlight with a readable Retry-After, whichever it was, and the
 * other answered (a payment: 200).
 */
function inFlightFindings(attempts: HeldWrite[], heldMustSucceed: boolean): Finding[] {
  const last = attempts.at(-1)!;
  const { what, duplicate, first } = last;
  const where = describeExchange(duplicate.exchange);
  const thing = what.replace(/^an? /, '');
  if (last.meeting === 'held refused') return refusalFindings(what, first as RawResponse);
  if (last.meeting === 'one after the other') {
    const settles = attempts.map((attempt) => `${attempt.settleMs} ms`).join(', ');
    return [
      finding(
        `the same Idempotency-Key while ${what} was in flight was not refused: ${where}, sent ${last.settleMs} ms after the held ${thing}'s head while its body was still coming (tried ${attempts.length} times, the duplicate sent ${settles} after the head), and the held ${thing} then got ${outcomeText(first)}`,
        '429 idempotency.inFlight with Retry-After for one of the two: a request is in flight from its head to its answer',
        `${answerText(duplicate)} (run while the other was in flight)`,
        duplicate.exchange,
      ),
    ];
  }
  const findings: Finding[] = [];
  if (!last.answeredWhileHeld) {
    findings.push(finding(`the duplicate of ${what} was answered only after the held request was completed: ${where}`, `an answer within ${last.holdMs} ms, while the first request is still in flight`, `${answerText(duplicate)} after ${last.waitedMs} ms`, duplicate.exchange));
  }
  if (duplicate.status !== 429) {
    findings.push(finding(`the same Idempotency-Key while ${what} was in flight was not refused: ${where}`, '429 idempotency.inFlight with Retry-After', answerText(duplicate), duplicate.exchange));
  } else {
    findings.push(...refusalFindings(what, duplicate));
  }
  if (first instanceof ExchangeError) {
    findings.push(finding(`the held ${thing} got no answer once its body was complete`, 'an HTTP answer', first.message, first.exchange));
  } else if (heldMustSucceed && (first.status < 200 || first.status > 299)) {
    findings.push(finding(`the held ${thing} failed once its body was complete: ${describeExchange(first.exchange)}`, '200 with the order (the payment of a live order)', answerText(first), first.exchange));
  }
  return findings;
}

/**
 * While a payment (and a cancel) is held half-sent, the same key with the same request is
 * refused 429 idempotency.inFlight with a Retry-After a client can read; which of the two is
 * refused is the target's (support/held-write.ts stages it).
 */
export const inFlight: Check = {
  id: 'idempotency.inflight',
  family: 'idempotency',
  title: 'a payment or cancel with the Idempotency-Key of a request still in flight gets 429 idempotency.inFlight with Retry-After',
  verifies: ['int.idempotency.in-flight', 'cat.idempotency.in-flight'],
  fix: 'hold an Idempotency-Key as in flight from the head of its first request to its answer, and answer the same key meanwhile with 429 idempotency.inFlight and a Retry-After (int.idempotency.in-flight, cat.idempotency.in-flight)',
  requires: ['key:full', 'orders:payable:1', 'orders:cancellable:1'],
  async run(ctx) {
    const [payable] = await qualifyingOrders(ctx, 'payable', poolStates.payable);
    const cancellable = preferring(await qualifyingOrders(ctx, 'cancellable', poolStates.cancellable), ['New'])[0];
    // Whether a cancel is legal from the order's status is not this rule; that it is answered is.
    const held = await ctx.shared(IN_FLIGHT, async () => [
      await stageHeldWrite(ctx, 'a payment', true, () => ({ path: paymentPath(payable!.externalId), json: JSON.stringify(freshPayment(1.25)), key: freshKey() })),
      await stageHeldWrite(ctx, 'a cancel', false, () => ({ path: paths.cancel(cancellable!.externalId), json: JSON.stringify({ reason: 'waybill conformance: in flight' }), key: freshKey() })),
    ]);
    return held.flatMap((attempts) => inFlightFindings(attempts, attempts[0]!.what === 'a payment'));
  },
};

/** The in-flight 429's Retry-After asks for a delay a client can honour: 0 to 60 s. */
export const inFlightRetryAfter: Check = {
  id: 'idempotency.inflight.retryAfter',
  family: 'idempotency',
  title: "the in-flight 429's Retry-After asks for a delay of 0 to 60 s",
  verifies: ['int.errors.retry-after-honourable'],
  fix: "ask in the in-flight 429's Retry-After for a delay of 0 to 60 s, about the time the first request still needs (int.errors.retry-after-honourable)",
  requires: ['key:full'],
  // Runs after idempotency.inflight, whose duplicates it judges.
  exclusive: true,
  async run(ctx) {
    return (await inFlightRefusals(ctx)).flatMap((refused) => {
      const problem = retryAfterDishonourable(refused.headers['retry-after'], answerClock(refused));
      return problem === null ? [] : [finding(`the in-flight 429 asks for a delay no request in flight needs: ${describeExchange(refused.exchange)}`, `Retry-After: a delay of 0 to ${HONOURABLE_SECONDS} s`, problem, refused.exchange)];
    });
  },
};

/** The in-flight 429's Retry-After is whole seconds, at least 1 (D13); without one there is nothing to judge (idempotency.inflight reports it). */
export const inFlightDecided: Check = {
  id: 'idempotency.inflight.decided',
  family: 'idempotency',
  title: "the in-flight 429's Retry-After is whole seconds, at least 1",
  verifies: ['D13'],
  fix: "give the in-flight 429's Retry-After in whole seconds, at least 1 (D13)",
  requires: ['key:full'],
  // Runs after idempotency.inflight, whose duplicates it judges.
  exclusive: true,
  async run(ctx) {
    const timed = (await inFlightRefusals(ctx)).filter((refused) => refused.headers['retry-after'] !== undefined);
    if (timed.length === 0) return ctx.skip('no in-flight 429 carried Retry-After, so there is no value to judge (idempotency.inflight reports the missing header)');
    return timed.flatMap((refused) => {
      const problem = retryAfterProblem(refused.headers['retry-after']);
      return problem === null ? [] : [finding(`the in-flight 429's Retry-After is not whole seconds of at least 1: ${describeExchange(refused.exchange)}`, 'Retry-After: whole seconds, at least 1', problem, refused.exchange)];
    });
  },
};

/** A completed payment sent again with the same key and request is replayed: same status, same body, Idempotent-Replayed: true. */
export const replay: Check = {
  id: 'idempotency.replay',
  family: 'idempotency',
  title: 'a completed request sent again with the same Idempotency-Key is replayed with Idempotent-Replayed: true',
  verifies: ['D13'],
  fix: "store a completed payment's answer under its Idempotency-Key for 24 h, and answer the same request again with that status and body and Idempotent-Replayed: true, executing nothing (D13)",
  requires: ['key:full', 'orders:payable:1'],
  async run(ctx) {
    const [{ externalId }] = (await qualifyingOrders(ctx, 'payable', poolStates.payable)) as [OrderState];
    const key = freshKey();
    const payment = freshPayment(2.5);
    const first = await pay(ctx, externalId, payment, key);
    const failed = firstPaymentFinding(first);
    if (failed !== null) return [failed];
    const again = await pay(ctx, externalId, payment, key);
    return replayFindings(first, again, 'payment', 'D13');
  },
};

/** A completed cancel sent again with the same key and request is replayed: the same 200, not the 409 a second cancel gets (D11). */
export const replayCancel: Check = {
  id: 'idempotency.replay.cancel',
  family: 'idempotency',
  title: 'a completed cancel sent again with the same Idempotency-Key is replayed with Idempotent-Replayed: true',
  verifies: ['D13'],
  fix: "store a completed cancel's answer under its Idempotency-Key, and answer the same cancel again with that stored 200 and Idempotent-Replayed: true, not the 409 of a second cancel (D13)",
  requires: ['key:full', 'orders:cancellable:1'],
  async run(ctx) {
    const [{ externalId }] = (await qualifyingOrders(ctx, 'cancellable', poolStates.cancellable)) as [OrderState];
    const key = freshKey();
    const cancel = { method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance: replayed' }, headers: { 'Idempotency-Key': key } };
    const first = await ctx.http.request(cancel);
    if (first.status < 200 || first.status > 299) return [finding(`the first cancel with a fresh Idempotency-Key failed: ${describeExchange(first.exchange)}`, '200 with the order (the cancel of a New, InPlanning or Planned order)', answerText(first), first.exchange)];
    return replayFindings(first, await ctx.http.request(cancel), 'cancel', 'D13');
  },
};

/** A completed archive sent again with the same key is replayed: the same 204, not the 404 a second archive gets (D12). */
export const replayArchive: Check = {
  id: 'idempotency.replay.archive',
  family: 'idempotency',
  title: 'a completed archive sent again with the same Idempotency-Key is replayed: 204 with Idempotent-Replayed: true',
  verifies: ['D13'],
  fix: "store a completed archive's 204 under its Idempotency-Key, and answer the same archive again with that 204 and Idempotent-Replayed: true, not the 404 of a second archive (D13)",
  requires: ['key:full', 'orders:archivable:1'],
  async run(ctx) {
    const [{ externalId }] = (await qualifyingOrders(ctx, 'archivable', poolStates.archivable)) as [OrderState];
    const archive = { method: 'DELETE', path: paths.archive(externalId), headers: { 'Idempotency-Key': freshKey() } };
    const first = await ctx.http.request(archive);
    if (first.status < 200 || first.status > 299) return [finding(`the first archive with a fresh Idempotency-Key failed: ${describeExchange(first.exchange)}`, '204 (the archive of an order neither Planned nor InProgress)', answerText(first), first.exchange)];
    return replayFindings(first, await ctx.http.request(archive), 'archive', 'D13');
  },
};

/** Findings unless `response` is a fresh 200 (not a replay) with the order `externalId`. */
function freshOrderFindings(response: HttpResponse, externalId: string, what: string): Finding[] {
  const where = `${what}: ${describeExchange(response.exchange)}`;
  if (response.status !== 200) return [finding(where, `200 with the order ${externalId}, executed`, answerText(response), response.exchange)];
  const findings: Finding[] = [];
  if (response.headers['idempotent-replayed'] !== undefined) findings.push(finding(`${where}: answered as a replay`, 'no Idempotent-Replayed header: the key of another tenant is another key', `Idempotent-Replayed: ${response.headers['idempotent-replayed']}`, response.exchange));
  const actual = (response.json as { externalId?: unknown } | undefined)?.externalId;
  if (actual !== externalId) findings.push(finding(`${where}: the answer is another order`, `externalId ${externalId}`, `externalId ${show(actual)}`, response.exchange));
  return findings;
}

/**
 * One Idempotency-Key value used by two tenants on their own orders is two keys (D13): both
 * payments execute, and the first tenant's repeat still replays its own answer.
 */
export const tenantScoped: Check = {
  id: 'idempotency.tenant-scoped',
  family: 'idempotency',
  title: 'the same Idempotency-Key used by two tenants on their own orders executes for both; neither gets the other\'s stored answer',
  verifies: ['D13'],
  fix: "scope stored Idempotency-Keys to the key's tenant: the same value from another tenant is another key, executed for that tenant, never answered from this tenant's store (D13)",
  // An archivable order takes the payment: D10 records one in any status, and the payable pool is the scarcest.
  requires: ['key:full', 'key:otherTenant', 'orders:archivable:1', 'orders:otherTenant:1'],
  async run(ctx) {
    const [{ externalId: own }] = (await qualifyingOrders(ctx, 'archivable', poolStates.payable)) as [OrderState];
    const [{ externalId: theirs }] = (await qualifyingOrders(ctx, 'otherTenant', { ...poolStates.payable, key: 'otherTenant' })) as [OrderState];
    const key = freshKey();
    const payment = freshPayment(5.5);
    const first = await pay(ctx, own, payment, key);
    const failed = firstPaymentFinding(first);
    if (failed !== null) return [failed];
    const other = await ctx.http.request({ method: 'POST', path: paymentPath(theirs), key: 'otherTenant', body: payment, headers: { 'Idempotency-Key': key } });
    const findings = freshOrderFindings(other, theirs, `the otherTenant key's payment on its order ${theirs} with the Idempotency-Key the full key used`);
    const again = await pay(ctx, own, payment, key);
    return [...findings, ...replayFindings(first, again, 'payment of the full key after the other tenant used its key', 'D13')];
  },
};

/**
 * A payment refused for what it names (404: no order carries the external id) sent again with
 * the same key and request gets the stored refusal, replayed: the request ran, and its verdict
 * is the key's (D26).
 */
export const replayRefusal: Check = {
  id: 'idempotency.replay.refusal',
  family: 'idempotency',
  title: 'a payment refused 404 (no order with that external id) sent again with the same Idempotency-Key gets the stored refusal, replayed',
  verifies: ['D26'],
  fix: 'store the 4xx answer of a request that ran (a 404 for an external id no order carries) under its Idempotency-Key, and replay it to the same request (D26)',
  requires: ['key:full'],
  async run(ctx) {
    const externalId = absentExternalId(ctx);
    const key = freshKey();
    const payment = freshPayment(2.5);
    const first = await pay(ctx, externalId, payment, key);
    if (first.status !== 404) {
      ctx.skip(`the payment on ${externalId}, an external id no order carries, was answered ${first.status}, not 404, so there is no refusal to replay (exchange #${first.exchange.id}; writes.notFound judges it)`);
    }
    const again = await pay(ctx, externalId, payment, key);
    return replayFindings(first, again, 'refused payment', 'D26');
  },
};

/**
 * A payment refused 400 as invalid never ran, so nothing is stored under its key (D13, as
 * Stripe does): sent again it is judged again, not replayed, and the corrected payment with
 * the same key is executed rather than refused as a reuse.
 */
export const validationUnstored: Check = {
  id: 'idempotency.validation.unstored',
  family: 'idempotency',
  title: 'a payment refused 400 as invalid is not stored under its Idempotency-Key: sent again it is not a replay, and the corrected payment with the key is executed',
  verifies: ['D13'],
  fix: 'store nothing under the Idempotency-Key of a request refused 400 as invalid: it never ran, so the same key may carry the corrected request, which is executed (D13)',
  requires: ['key:full', 'orders:payable:1'],
  async run(ctx) {
    const [{ externalId }] = (await qualifyingOrders(ctx, 'payable', poolStates.payable)) as [OrderState];
    const key = freshKey();
    const payment = freshPayment(4.25);
    const invalid = { ...payment, paymentId: 'not-a-uuid' };
    const first = await pay(ctx, externalId, invalid, key);
    if (first.status !== 400) ctx.skip(`the payment whose paymentId is not a uuid was answered ${first.status}, not 400, so nothing was refused as invalid (exchange #${first.exchange.id})`);
    const findings: Finding[] = [];
    const again = await pay(ctx, externalId, invalid, key);
    if (again.headers['idempotent-replayed'] === 'true') {
      findings.push(finding(`the invalid payment sent again was replayed from its Idempotency-Key: ${describeExchange(again.exchange)}`, 'the request judged again: 400, no Idempotent-Replayed: true', `Idempotent-Replayed: true, ${answerText(again)}`, again.exchange));
    }
    const corrected = await pay(ctx, externalId, payment, key);
    if (corrected.status < 200 || corrected.status > 299 || corrected.headers['idempotent-replayed'] === 'true') {
      const replayed = corrected.headers['idempotent-replayed'] === 'true' ? ', replayed' : '';
      findings.push(finding(`the corrected payment with the key of the invalid one was not executed: ${describeExchange(corrected.exchange)}`, '200 with the order, not a replay: the invalid request stored nothing under the key', `${answerText(corrected)}${replayed}`, corrected.exchange));
    }
    return findings;
  },
};

/** The key of a completed request, sent with another body or path, is refused 400 naming Idempotency-Key. */
export const reuse: Check = {
  id: 'idempotency.reuse',
  family: 'idempotency',
  title: 'an Idempotency-Key reused with another body or path gets 400 naming Idempotency-Key',
  verifies: ['D13'],
  fix: 'refuse an Idempotency-Key that comes back with another method, path or body than the request it stored with 400 api.malformed_request, errors[0].field Idempotency-Key (D13)',
  requires: ['key:full', 'orders:payable:2'],
  async run(ctx) {
    const live = await qualifyingOrders(ctx, 'payable', poolStates.payable);
    if (live.length < 2) ctx.skip(`needs two live orders from profile orders.payable; ${live.length} of the ids given to this check are live`);
    const [{ externalId }, { externalId: otherId }] = live as [OrderState, OrderState];
    const key = freshKey();
    const payment = freshPayment(3.75);
    const first = await pay(ctx, externalId, payment, key);
    const failed = firstPaymentFinding(first);
    if (failed !== null) return [failed];
    const otherBody = await pay(ctx, externalId, { ...freshPayment(4.5) }, key);
    const otherPath = await pay(ctx, otherId, payment, key);
    return [...keyRefusalFindings(otherBody, 'the key reused with another body was not refused'), ...keyRefusalFindings(otherPath, 'the key reused on another order was not refused')];
  },
};

/** An Idempotency-Key outside 1–255 visible ASCII characters is refused 400 naming it; one of 255 is accepted. */
export const keyFormat: Check = {
  id: 'idempotency.key.format',
  family: 'idempotency',
  title: 'an Idempotency-Key of 256 characters or with a space gets 400 naming Idempotency-Key; 255 visible characters are accepted',
  verifies: ['D13'],
  fix: 'accept an Idempotency-Key of 1 to 255 visible ASCII characters and refuse any other with 400 api.malformed_request, errors[0].field Idempotency-Key (D13)',
  requires: ['key:full', 'orders:payable:1'],
  async run(ctx) {
    const [{ externalId }] = (await qualifyingOrders(ctx, 'payable', poolStates.payable)) as [OrderState];
    const findings: Finding[] = [];
    for (const [label, key] of [
      ['256 characters', freshKey().padEnd(256, 'k')],
      ['a space', `${freshKey()} x`],
    ] as const) {
      findings.push(...keyRefusalFindings(await pay(ctx, externalId, freshPayment(1), key), `an Idempotency-Key with ${label} was not refused`));
    }
    const longest = await pay(ctx, externalId, freshPayment(1), freshKey().padEnd(255, 'k'));
    if (longest.status === 400 && firstField(longest.json) === 'Idempotency-Key') {
      findings.push(finding(`an Idempotency-Key of 255 visible characters was refused: ${describeExchange(longest.exchange)}`, 'the payment handled (200), the key accepted', answerText(longest), longest.exchange));
    }
    return findings;
  },
};

/** The idempotency family. */
export const idempotencyChecks: Check[] = [inFlight, inFlightRetryAfter, inFlightDecided, replay, replayCancel, replayArchive, replayRefusal, validationUnstored, reuse, keyFormat, tenantScoped];
