/**
 * The `Retry-After` of a 429 at three levels: a value HTTP defines (RFC 9110 §10.2.3:
 * delay-seconds or an HTTP-date) is the seeds' "retry after the time in the `Retry-After`
 * header"; a delay a client can honour (0 to 60 s, the per-minute quota's window) is what
 * follows from them; whole seconds of at least 1 is waybill's choice (D13, D14).
 */
import type { HttpResponse } from '../../engine/types/exchange.ts';

/** The longest delay a requests-per-minute limit can need before a request passes again. */
export const HONOURABLE_SECONDS = 60;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** Obsolete RFC 850 date: `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850_DATE = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** Obsolete asctime date: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** Milliseconds since the epoch of an HTTP-date in any of the three forms a recipient must accept, or undefined. */
export function parseHttpDate(value: string): number | undefined {
  const utc = (year: number, month: string, day: string, hours: string, minutes: string, seconds: string) => {
    const [h, m, s, d] = [hours, minutes, seconds, day.trim()].map(Number) as [number, number, number, number];
    if (d < 1 || d > 31 || h > 23 || m > 59 || s > 60) return undefined;
    return Date.UTC(year, MONTHS.indexOf(month), d, h, m, Math.min(s, 59));
  };
  let match = IMF_FIXDATE.exec(value);
  if (match !== null) return utc(Number(match[3]), match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  match = RFC850_DATE.exec(value);
  if (match !== null) {
    // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is the past century's.
    const short = Number(match[3]);
    const thisYear = new Date().getUTCFullYear();
    const year = 2000 + short > thisYear + 50 ? 1900 + short : 2000 + short;
    return utc(year, match[2]!, match[1]!, match[4]!, match[5]!, match[6]!);
  }
  match = ASCTIME_DATE.exec(value);
  if (match !== null) return utc(Number(match[6]), match[1]!, match[2]!, match[3]!, match[4]!, match[5]!);
  return undefined;
}

/** A `Retry-After` value read as RFC 9110 defines it. */
export type RetryAfter = { kind: 'seconds'; seconds: number } | { kind: 'date'; at: number };

/** The value read, or why it is not a `Retry-After` HTTP defines. */
export function readRetryAfter(value: string | undefined): RetryAfter | string {
  if (value === undefined) return 'no Retry-After header';
  const text = value.trim();
  if (/^\d+$/.test(text)) return { kind: 'seconds', seconds: Number(text) };
  const at = parseHttpDate(text);
  return at === undefined ? `Retry-After: ${value} (neither delay-seconds nor an HTTP-date)` : { kind: 'date', at };
}

/** MUST: why `value` is not a `Retry-After` a client can read (delay-seconds or an HTTP-date), or null when it is. */
export function retryAfterUnreadable(value: string | undefined): string | null {
  const read = readRetryAfter(value);
  return typeof read === 'string' ? read : null;
}

/**
 * The delay in seconds `value` asks for, an HTTP-date measured from the answer's `Date`
 * header (the server's own clock) or, without one, from `receivedAt`; undefined when unreadable.
 */
export function retryDelaySeconds(value: string | undefined, answer: { date?: string; receivedAt: number }): number | undefined {
  const read = readRetryAfter(value);
  if (typeof read === 'string') return undefined;
  if (read.kind === 'seconds') return read.seconds;
  const sent = answer.date === undefined ? undefined : parseHttpDate(answer.date.trim());
  // Without the server's Date, the receipt time at whole seconds (HTTP-dates have no fraction).
  const from = sent ?? Math.floor(answer.receivedAt / 1000) * 1000;
  return (read.at - from) / 1000;
}

/** SHOULD: why the delay of a readable `value` cannot be honoured (negative, or beyond the one-minute window), or null when it can. */
export function retryAfterDishonourable(value: string | undefined, answer: { date?: string; receivedAt: number }): string | null {
  const delay = retryDelaySeconds(value, answer);
  if (delay === undefined) return null;
  if (delay < 0) return `Retry-After: ${value} (a time ${-delay} s in the past${answer.date === undefined ? '' : ` of the answer's Date ${answer.date}`})`;
  if (delay > HONOURABLE_SECONDS) return `Retry-After: ${value} (a delay of ${delay} s)`;
  return null;
}

/** DECISION (D13, D14): why `value` is not a `Retry-After` of whole seconds ≥ 1, or null when it is. */
export function retryAfterProblem(value: string | undefined): string | null {
  if (value === undefined) return 'no Retry-After header';
  if (!/^\d+$/.test(value.trim())) return `Retry-After: ${value} (not whole seconds)`;
  if (Number(value) < 1) return `Retry-After: ${value} (below 1)`;
  return null;
}

/** When an answer was received: the server's `Date`, and the local time at its end. */
export function answerClock(response: HttpResponse): { date?: string; receivedAt: number } {
  const date = response.headers['date'];
  return { ...(date === undefined ? {} : { date }), receivedAt: Date.parse(response.exchange.startedAt) + response.durationMs };
}
