/** The tenant's test clock in the control plane (D52): read it, freeze, offset or release it, advance it. */
import { parse as parseDuration } from 'tinyduration';
import type { components } from '../../spec/sandbox-types.ts';
import { refuse } from '../domain/refusal.ts';
import { aboutBlank } from '../http/problem.ts';
import { AdvanceRefused, ClockBackwards, type ClockMode } from './store.ts';
import type { Store } from '../store/index.ts';
import { bodyOf, type Handler, paramsOf, sendJson } from '../control-plane/respond.ts';

/** The longest advance (D52). */
export const MAX_ADVANCE_MS = 366 * 24 * 60 * 60 * 1000;

const DURATION_HINT = 'by must be an ISO 8601 duration of days, hours, minutes and seconds, such as PT25H.';

/** The length of an ISO 8601 duration in ms; refuses, naming `by`, what is not a forward move of fixed length. */
export function durationMs(text: string): number {
  let parts: ReturnType<typeof parseDuration>;
  try {
    parts = parseDuration(text);
  } catch {
    return refuse('api.malformed_request', DURATION_HINT, 'by', text);
  }
  if (parts.negative) refuse('api.malformed_request', 'by must not be negative: the clock only moves forward (D52).', 'by', text);
  if (parts.years !== undefined || parts.months !== undefined) {
    refuse('api.malformed_request', 'by must not use years or months, whose length depends on the date; use days (P30D).', 'by', text);
  }
  const { weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0 } = parts;
  const ms = Math.round((((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60_000 + seconds * 1000);
  if (ms > MAX_ADVANCE_MS) refuse('api.malformed_request', 'by must be at most P366D.', 'by', text);
  return ms;
}

/** Runs `move`, answering a backwards move 409 `about:blank` (D52). */
async function forwardOnly<T>(move: () => Promise<T>): Promise<T> {
  try {
    return await move();
  } catch (error) {
    if (error instanceof ClockBackwards) throw aboutBlank(409, error.message);
    throw error;
  }
}

// requirement: D52
/** Handlers of the clock operations. */
export function makeClockHandlers(store: Store): Record<string, Handler> {
  const { clocks } = store;
  const tenantOf = (res: Parameters<Handler>[1]) => paramsOf(res)['tenantId']!;
  return {
    getClock(_req, res) {
      sendJson(res, 200, clocks.view(tenantOf(res)));
    },
    async setClock(_req, res) {
      const { mode, atUtc } = bodyOf<components['schemas']['ClockSetting']>(res);
      if (mode === 'system' && atUtc !== undefined) {
        refuse('api.malformed_request', 'atUtc does not go with mode system: the wall clock reads what it reads.', 'atUtc', atUtc);
      }
      sendJson(res, 200, await forwardOnly(() => clocks.set(tenantOf(res), mode, atUtc === undefined ? undefined : Date.parse(atUtc))));
    },
    async advanceClock(_req, res) {
      const { by } = bodyOf<components['schemas']['ClockAdvance']>(res);
      const ms = durationMs(by);
      try {
        sendJson(res, 200, await clocks.advance(tenantOf(res), ms));
      } catch (error) {
        if (error instanceof AdvanceRefused) refuse('api.malformed_request', error.message, 'by', by);
        throw error;
      }
    },
  };
}
