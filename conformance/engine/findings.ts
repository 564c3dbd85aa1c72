/** Small helpers checks use to write findings that read "Expected: … / Received: …". */
import type { Finding } from './types/check.ts';
import type { ExchangeRecord } from './types/exchange.ts';

/**
 * A finding; attach the exchange that shows it whenever there is one, and a `fix` sentence when
 * this finding knows more than its check's (which one header, which status), citing as it does.
 */
export function finding(message: string, expected: string, received: string, exchange?: ExchangeRecord, fix?: string): Finding {
  return { message, expected, received, ...(fix === undefined ? {} : { fix }), ...(exchange === undefined ? {} : { exchange }) };
}

/** A value as short text for `received`: strings as they are, anything else as JSON, cut at `limit` characters. */
export function show(value: unknown, limit = 400): string {
  const text = typeof value === 'string' ? value : value === undefined ? '(nothing)' : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
}

/** `GET /api/v1/integration/whoami → 200 (exchange #3)`: which exchange a finding is about. */
export function describeExchange(exchange: ExchangeRecord): string {
  const url = new URL(exchange.request.url);
  const answer = exchange.response === null ? 'no answer' : String(exchange.response.status);
  return `${exchange.request.method} ${url.pathname}${url.search} → ${answer} (exchange #${exchange.id})`;
}
