/** The curl line that replays a logged request (D48): the key as `$WAYBILL_KEY`, every other value shell-quoted. */
import { shellQuote } from '../../cli/shell-quote.ts';
import type { LogRow } from './store.ts';


/** A curl command replaying `row` against `baseUrl` (the server's origin), for `sh`. */
export function curlLine(row: Pick<LogRow, 'method' | 'target' | 'idempotency_key' | 'request_content_type' | 'request_body'>, baseUrl: string): string {
  const parts = ['curl', '-sS'];
  if (row.method !== 'GET') parts.push('-X', row.method);
  // Double quotes, so that the shell expands the variable; the key itself is never stored.
  parts.push('-H', '"X-Api-Key: $WAYBILL_KEY"');
  if (row.request_content_type !== null) parts.push('-H', shellQuote(`Content-Type: ${row.request_content_type}`));
  if (row.idempotency_key !== null) parts.push('-H', shellQuote(`Idempotency-Key: ${row.idempotency_key}`));
  if (row.request_body !== null) parts.push('--data-binary', shellQuote(row.request_body));
  parts.push(shellQuote(`${baseUrl}${row.target}`));
  return parts.join(' ');
}
