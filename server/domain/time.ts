/** Time as the API writes it: RFC 3339 UTC with milliseconds and `Z` (D20). */

// requirement: D20
/** The API's text of an instant given in ms since the epoch. */
export function utc(ms: number): string {
  return new Date(ms).toISOString();
}

// requirement: int.orders-feed.since
// requirement: D4
/**
 * The inclusive lower bound of a `since` value (D4) in the API's text form, or null when
 * the value is not a date-time. Sub-millisecond digits round up, so that an item stamped
 * in the same millisecond but before `since` is not returned.
 */
export function sinceBound(since: string): string | null {
  const ms = Date.parse(since);
  if (Number.isNaN(ms)) return null;
  const fraction = /\.(\d+)/.exec(since)?.[1] ?? '';
  const roundUp = /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  return utc(ms + roundUp);
}

/** A clock: ms since the epoch. Injected so that tests can move time. */
export type Clock = () => number;

/** The clock of each tenant (D52): ms since the epoch as the tenant `tenantId` sees it. */
export type TenantClock = (tenantId: string) => number;

/** The wall clock. */
export const systemClock: Clock = () => Date.now();
