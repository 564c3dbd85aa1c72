/**
 * Two writes with one Idempotency-Key in flight at once, staged so that no order of events the
 * seeds allow is graded as a failure: the first request is held half-sent (its head and most of
 * its body written, a padding byte trickled now and then so it never looks idle), and the
 * duplicate is sent complete while it is held. Either may take the key: the duplicate answered
 * 429 `idempotency.inFlight` is the usual order; the held request refused 429 once the
 * duplicate took the key first (a target that takes the key in a database round trip slower
 * than the head's arrival) is the same rule kept with the roles swapped. When neither was
 * refused, the target saw the two one after the other, which a busy machine can cause: the
 * staging is repeated with the duplicate sent later (`SETTLE_MS`), and only a target that runs
 * the duplicate 3 s after the held request's head arrived, its body still coming, is held to
 * have missed the request in flight (the register's reading of int.idempotency.in-flight).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { ExchangeError } from '../../transport/exchange.ts';
import type { CheckContext } from '../../engine/types/check.ts';
import type { HttpResponse, RawResponse } from '../../engine/types/exchange.ts';

/** How long after the held request's head the duplicate is sent, attempt by attempt. */
export const SETTLE_MS = [150, 1000, 3000] as const;
/** One padding byte this often keeps the held request from looking idle to the target. */
const TRICKLE_MS = 250;

/** What became of a write held half-sent and of its duplicate. */
export interface HeldWrite {
  /** `a payment`, `a cancel`. */
  what: string;
  /** How long after the held request's head the duplicate was sent. */
  settleMs: number;
  /** The answer to the duplicate sent while the first was held. */
  duplicate: HttpResponse;
  /** False when the duplicate was answered only after the held request was completed. */
  answeredWhileHeld: boolean;
  /** The longest the held request waited for the duplicate's answer. */
  holdMs: number;
  /** From sending the duplicate to its answer. */
  waitedMs: number;
  /** The held request's answer once completed, or why none came. */
  first: RawResponse | ExchangeError;
  /** How the two met at the target. */
  meeting: Meeting;
}

/** How the two requests of a held write met at the target. */
export type Meeting =
  /** The duplicate was refused in flight: the usual order. */
  | 'duplicate refused'
  /** The duplicate took the key first and the held request was refused in flight: the roles swapped. */
  | 'held refused'
  /** Neither was refused and the duplicate ran while the other was held: the target saw them one after the other. */
  | 'one after the other'
  /** Anything else (no answer, the duplicate answered only after the held request was completed, another refusal): graded as it stands. */
  | 'other';

/** True when `response` is the answer of a request the target ran: not refused in flight, not a replay, no 5xx. `succeeds` narrows it to 2xx (a payment of a live order must succeed; a cancel may be refused 409 by the order's status). */
function ran(response: HttpResponse, succeeds: boolean): boolean {
  if (response.status === 429 || response.status >= 500 || response.headers['idempotent-replayed'] !== undefined) return false;
  return !succeeds || (response.status >= 200 && response.status < 300);
}

/** How the two requests of `held` met (see `Meeting`); `succeeds`: the write must succeed when it runs. */
export function meetingOf(held: Omit<HeldWrite, 'meeting'>, succeeds: boolean): Meeting {
  const first = held.first instanceof ExchangeError ? undefined : held.first;
  if (held.duplicate.status === 429 && first?.status !== 429) return 'duplicate refused';
  if (first?.status === 429 && ran(held.duplicate, succeeds)) return 'held refused';
  if (held.answeredWhileHeld && ran(held.duplicate, succeeds) && first !== undefined && first.status !== 429) return 'one after the other';
  return 'other';
}

/**
 * Sends a POST of `json` to `path` with `Idempotency-Key: key`, holding back the end of its
 * body; `settleMs` later sends the same request through `ctx.http`; completes the held one once
 * the duplicate is answered, or after most of the run's request timeout.
 */
export async function holdAndDuplicate(ctx: CheckContext, what: string, path: string, json: string, key: string, settleMs: number, succeeds: boolean): Promise<HeldWrite> {
  const holdMs = Math.max(1500, Math.round(ctx.timeoutMs * 0.6));
  // Enough padding to trickle through the settle and the longest hold, and a byte to spare.
  const padding = Math.ceil((settleMs + holdMs) / TRICKLE_MS) + 2;
  const body = `${json.slice(0, -1)}${' '.repeat(padding)}}`;
  const base = new URL(ctx.target);
  const head = [
    `POST ${base.pathname.replace(/\/+$/, '')}${path} HTTP/1.1`,
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
  }, TRICKLE_MS);
  try {
    await delay(settleMs);
    const sentAt = performance.now();
    const pending = ctx.http.request({ method: 'POST', path, rawBody: body, contentType: 'application/json', headers: { 'Idempotency-Key': key } });
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
    const held = { what, settleMs, duplicate, answeredWhileHeld: early !== undefined, holdMs, waitedMs: Math.round(performance.now() - sentAt), first };
    return { ...held, meeting: meetingOf(held, succeeds) };
  } finally {
    clearInterval(trickle);
    session.close();
  }
}

/**
 * Stages a held write (`fresh` makes its path, body and key anew for each attempt) until the
 * two requests met in flight or the last of `SETTLE_MS` was tried; the attempts in order, the
 * last deciding. `succeeds`: the write must succeed when it runs (a payment of a live order).
 */
export async function stageHeldWrite(ctx: CheckContext, what: string, succeeds: boolean, fresh: () => { path: string; json: string; key: string }): Promise<HeldWrite[]> {
  const attempts: HeldWrite[] = [];
  for (const settleMs of SETTLE_MS) {
    const { path, json, key } = fresh();
    const held = await holdAndDuplicate(ctx, what, path, json, key, settleMs, succeeds);
    attempts.push(held);
    if (held.meeting !== 'one after the other') break;
  }
  return attempts;
}
