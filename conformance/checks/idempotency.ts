/**
 * Idempotency-Key on the payment write: a duplicate while the first request is in flight is
 * refused with 429, a completed request is replayed (refusals too), a key reused for another
 * request or with an invalid value is refused. Keys and payment ids are fresh for every run, so
 * answers stored by an earlier run (D13 keeps them 24 h) never interfere.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { ExchangeError } from '../exchange.ts';
import { describeExchange, finding, show } from '../findings.ts';
import type { Check, CheckContext, Finding, HttpResponse, RawResponse } from '../types.ts';
import { retryAfterProblem } from './support/retry-after.ts';

const gap = '01-integration-api.md › Endpoints: "Format, lifetime and replay behaviour of the Idempotency-Key header: not shown."';

/** How long the held request waits for the duplicate's answer before it is completed anyway. */
const holdMs = 1500;
/** Lets the target read the held request's head before the duplicate arrives. */
const settleMs = 150;
/** One padding byte this often keeps the held request from looking idle to the target. */
const trickleMs = 250;
/** Whitespace before the held body's closing brace: the bytes trickled while it is held. */
const padding = 12;

/** The payment path of `externalId`. */
function paymentPath(externalId: string): string {
  return `/api/v1/integration/orders/externalid/${encodeURIComponent(externalId)}/payment`;
}

/** A key no earlier run can have used. */
function freshKey(): string {
  return `waybill-${randomUUID()}`;
}

/** A payment request body with a fresh payment id. */
function freshPayment(amount: number): { paymentId: string; amount: number; currency: string } {
  return { paymentId: randomUUID(), amount, currency: 'EUR' };
}

/** Attaches `payment` to `externalId` with the full key and `Idempotency-Key: key`. */
function pay(ctx: CheckContext, externalId: string, payment: unknown, key: string): Promise<HttpResponse> {
  return ctx.http.request({ method: 'POST', path: paymentPath(externalId), body: payment, headers: { 'Idempotency-Key': key } });
}

/** `status body` of an answer, for `received`. */
function answerText(response: HttpResponse): string {
  return `${response.status} ${show(response.json ?? response.text, 300)}`;
}

/** The field errors[0] names, if any. */
function firstField(json: unknown): unknown {
  const errors = (json as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? (errors[0] as { field?: unknown } | undefined)?.field : undefined;
}

/** A finding unless `response` is 400 api.malformed_request naming Idempotency-Key in errors[0].field. */
function keyRefusalFindings(response: HttpResponse, what: string): Finding[] {
  const type = (response.json as { type?: unknown } | undefined)?.type;
  if (response.status === 400 && type === 'api.malformed_request' && firstField(response.json) === 'Idempotency-Key') return [];
  return [finding(`${what}: ${describeExchange(response.exchange)}`, '400 api.malformed_request with errors[0].field Idempotency-Key', answerText(response), response.exchange)];
}

/** True when both answers carry the same body: equal JSON, or equal text when either is not JSON. */
function sameBody(a: HttpResponse, b: HttpResponse): boolean {
  return a.json !== undefined && b.json !== undefined ? isDeepStrictEqual(a.json, b.json) : a.text === b.text;
}

/** Findings unless `again` replays `first`: same status, same body, `Idempotent-Replayed: true`; `first` itself is not marked. */
function replayFindings(first: HttpResponse, again: HttpResponse, what: string): Finding[] {
  const findings: Finding[] = [];
  if (first.headers['idempotent-replayed'] !== undefined) {
    findings.push(finding(`the first ${what} is marked as a replay: ${describeExchange(first.exchange)}`, 'no Idempotent-Replayed header on a fresh answer', `Idempotent-Replayed: ${first.headers['idempotent-replayed']}`, first.exchange));
  }
  if (again.status !== first.status) {
    findings.push(finding(`the repeated ${what} got another status: ${describeExchange(again.exchange)}`, `${first.status}, the status of the first answer (exchange #${first.exchange.id})`, answerText(again), again.exchange));
  } else if (!sameBody(first, again)) {
    findings.push(finding(`the repeated ${what} got another body: ${describeExchange(again.exchange)}`, `the body of the first answer (exchange #${first.exchange.id}): ${show(first.json ?? first.text, 300)}`, show(again.json ?? again.text, 300), again.exchange));
  }
  if (again.headers['idempotent-replayed'] !== 'true') {
    findings.push(finding(`the repeated ${what} is not marked as a replay: ${describeExchange(again.exchange)}`, 'Idempotent-Replayed: true', again.headers['idempotent-replayed'] === undefined ? 'no Idempotent-Replayed header' : `Idempotent-Replayed: ${again.headers['idempotent-replayed']}`, again.exchange));
  }
  return findings;
}

/** A finding unless the first payment of a check succeeded (the rest of the check builds on it). */
function firstPaymentFinding(response: HttpResponse): Finding | null {
  if (response.status >= 200 && response.status < 300) return null;
  return finding(`the first payment with a fresh Idempotency-Key failed: ${describeExchange(response.exchange)}`, '200 with the order (the payment of a payable order)', answerText(response), response.exchange);
}

/** What became of a payment held half-sent and of its duplicate. */
interface HeldPayment {
  /** The answer to the duplicate sent while the first was held. */
  duplicate: HttpResponse;
  /** False when the duplicate was answered only after the held request was completed. */
  answeredWhileHeld: boolean;
  /** From sending the duplicate to its answer. */
  waitedMs: number;
  /** The held request's answer once completed, or why none came. */
  first: RawResponse | ExchangeError;
}

/**
 * Sends a payment to `externalId` with `Idempotency-Key: key` but holds back the end of its body;
 * sends the same request through `ctx.http` meanwhile; then completes the held one. A padding
 * byte is trickled now and then so the held request never looks idle to the target.
 */
async function holdAndDuplicate(ctx: CheckContext, externalId: string, key: string): Promise<HeldPayment> {
  const json = JSON.stringify(freshPayment(1.25));
  const body = `${json.slice(0, -1)}${' '.repeat(padding)}}`;
  const base = new URL(ctx.target);
  const head = [
    `POST ${base.pathname.replace(/\/+$/, '')}${paymentPath(externalId)} HTTP/1.1`,
    `Host: ${base.host}`,
    ctx.authHeader('full'),
    `Idempotency-Key: ${key}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ].join('\r\n');
  let sent = json.length;
  const session = await ctx.rawSession(`${head}\r\n\r\n${body.slice(0, sent)}`);
  const trickle = setInterval(() => {
    if (sent < body.length - 1) void session.write(body.slice(sent, (sent += 1)));
  }, trickleMs);
  try {
    await delay(settleMs);
    const sentAt = performance.now();
    const pending = ctx.http.request({ method: 'POST', path: paymentPath(externalId), rawBody: body, contentType: 'application/json', headers: { 'Idempotency-Key': key } });
    pending.catch(() => undefined);
    const hold = new AbortController();
    const early = await Promise.race([pending, delay(holdMs, undefined, { signal: hold.signal }).then(() => undefined, () => undefined)]);
    hold.abort();
    clearInterval(trickle);
    await session.write(body.slice(sent));
    const first = await session.response().catch((error: unknown) => {
      if (error instanceof ExchangeError) return error;
      throw error;
    });
    const duplicate = early ?? (await pending);
    return { duplicate, answeredWhileHeld: early !== undefined, waitedMs: Math.round(performance.now() - sentAt), first };
  } finally {
    clearInterval(trickle);
    session.close();
  }
}

/** While a payment is held half-sent, the same key with the same request is refused 429 idempotency.inFlight with Retry-After. */
export const inFlight: Check = {
  id: 'idempotency.inflight',
  family: 'idempotency',
  title: 'a request with the Idempotency-Key of a request still in flight gets 429 idempotency.inFlight with Retry-After',
  verifies: ['int.idempotency.in-flight', 'cat.idempotency.in-flight'],
  requires: ['key:full', 'orders:payable:1'],
  async run(ctx) {
    const [externalId = ''] = ctx.orders('payable');
    const { duplicate, answeredWhileHeld, waitedMs, first } = await holdAndDuplicate(ctx, externalId, freshKey());
    const findings: Finding[] = [];
    const where = describeExchange(duplicate.exchange);
    if (!answeredWhileHeld) {
      findings.push(finding(`the duplicate was answered only after the held request was completed: ${where}`, `an answer within ${holdMs} ms, while the first request is still in flight`, `${answerText(duplicate)} after ${waitedMs} ms`, duplicate.exchange));
    }
    if (duplicate.status !== 429) {
      findings.push(finding(`the same Idempotency-Key while the first request was in flight was not refused: ${where}`, '429 idempotency.inFlight with Retry-After', answerText(duplicate), duplicate.exchange));
    } else {
      const type = (duplicate.json as { type?: unknown } | undefined)?.type;
      if (type !== 'idempotency.inFlight') findings.push(finding(`the in-flight 429 carries another type: ${where}`, 'type: idempotency.inFlight', `type: ${show(type)}`, duplicate.exchange));
      const retryAfter = retryAfterProblem(duplicate.headers['retry-after']);
      if (retryAfter !== null) findings.push(finding(`the in-flight 429 does not say when to retry: ${where}`, 'Retry-After: whole seconds, at least 1', retryAfter, duplicate.exchange));
    }
    if (first instanceof ExchangeError) {
      findings.push(finding('the held request got no answer once its body was complete', 'an HTTP answer (200 with the order)', first.message, first.exchange));
    } else if (first.status < 200 || first.status > 299) {
      findings.push(finding(`the held request failed once its body was complete: ${describeExchange(first.exchange)}`, '200 with the order (the payment of a payable order)', answerText(first), first.exchange));
    }
    return findings;
  },
};

/** A completed payment sent again with the same key and request is replayed: same status, same body, Idempotent-Replayed: true. */
export const replay: Check = {
  id: 'idempotency.replay',
  family: 'idempotency',
  title: 'a completed request sent again with the same Idempotency-Key is replayed with Idempotent-Replayed: true',
  verifies: ['D13'],
  requires: ['key:full', 'orders:payable:1'],
  async run(ctx) {
    const [externalId = ''] = ctx.orders('payable');
    const key = freshKey();
    const payment = freshPayment(2.5);
    const first = await pay(ctx, externalId, payment, key);
    const failed = firstPaymentFinding(first);
    if (failed !== null) return [failed];
    const again = await pay(ctx, externalId, payment, key);
    return replayFindings(first, again, 'payment');
  },
};

/** A refused payment sent again with the same key and request gets the same refusal, replayed. */
export const replayRefusal: Check = {
  id: 'idempotency.replay.refusal',
  family: 'idempotency',
  title: 'a refused request sent again with the same Idempotency-Key gets the stored refusal, replayed',
  verifies: ['D26'],
  requires: ['key:full', 'orders:payable:1'],
  async run(ctx) {
    const [externalId = ''] = ctx.orders('payable');
    const key = freshKey();
    const payment = freshPayment(0);
    const first = await pay(ctx, externalId, payment, key);
    if (first.status < 400 || first.status > 499 || first.status === 429) {
      ctx.skip(`the payment of amount 0 was answered ${first.status}, not a 4xx refusal, so there is no refusal to replay (exchange #${first.exchange.id})`);
    }
    const again = await pay(ctx, externalId, payment, key);
    return replayFindings(first, again, 'refused payment');
  },
};

/** The key of a completed request, sent with another body or path, is refused 400 naming Idempotency-Key. */
export const reuse: Check = {
  id: 'idempotency.reuse',
  family: 'idempotency',
  title: 'an Idempotency-Key reused with another body or path gets 400 naming Idempotency-Key',
  verifies: ['D13'],
  requires: ['key:full', 'orders:payable:2'],
  async run(ctx) {
    const [externalId = '', otherId = ''] = ctx.orders('payable');
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
  requires: ['key:full', 'orders:payable:1'],
  async run(ctx) {
    const [externalId = ''] = ctx.orders('payable');
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
export const idempotencyChecks: Check[] = [inFlight, replay, replayRefusal, reuse, keyFormat];
