/**
 * Requests the seeds fix no answer for: one whose `Expect` names an expectation other than
 * `100-continue`. D60 answers it 417 `about:blank` before any operation runs, a status the seeds
 * do not list; http.expect.unmet judges those answers, the seeds' run-level checks leave them out.
 */
import type { ExchangeRecord } from '../../engine/types/exchange.ts';

/** True when `exchange`'s request asked for an expectation other than 100-continue (D60). */
export function asksUnmetExpectation(exchange: ExchangeRecord): boolean {
  const expect = exchange.request.headers['expect'];
  return expect !== undefined && expect.trim().toLowerCase() !== '100-continue';
}
