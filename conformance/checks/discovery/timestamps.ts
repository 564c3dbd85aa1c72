/**
 * Discovery, timestamps: every time the API writes is in D20's one form, RFC 3339 in UTC with
 * exactly three fractional digits and `Z`. A value that is no date-time at all breaks the seeds
 * (discovery.responses.contract reports it) and is left out here, so that one breakage is not a
 * departure from a decision too.
 */
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, Finding } from '../../engine/types/check.ts';
import type { ExchangeRecord } from '../../engine/types/exchange.ts';
import type { Profile } from '../../engine/types/profile.ts';
import { capFindings } from '../feeds/walk.ts';
import { tripFieldNames } from '../support/trip-fields.ts';
import { counted } from '../../../cli/counted.ts';

/** D20's form: `YYYY-MM-DDTHH:mm:ss.sssZ`. */
const DECIDED_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Any RFC 3339 date-time (the seeds' `date-time`): a date, `T`, a time with any fraction, and a zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The timestamps of one answer: `[where, value]` for each member that holds one. */
function timestampsOf(exchange: ExchangeRecord, profile: Pick<Profile, 'choices'>): [string, unknown][] {
  let body: unknown;
  try {
    body = JSON.parse(exchange.response?.body ?? '');
  } catch {
    return [];
  }
  const trips = tripFieldNames(profile);
  const read = (item: unknown, names: string[], path: string): [string, unknown][] =>
    item !== null && typeof item === 'object' ? names.filter((name) => name in item).map((name) => [`${path}/${name}`, (item as Record<string, unknown>)[name]]) : [];
  const items = (page: unknown) => (page !== null && typeof page === 'object' && Array.isArray((page as { items?: unknown }).items) ? ((page as { items: unknown[] }).items) : []);
  switch (exchange.operationId) {
    case 'orderFeed':
      return items(body).flatMap((order, index) => read(order, ['createdAtUtc', 'updatedAtUtc'], `/items/${index}`));
    case 'tripFeed':
      return items(body).flatMap((trip, index) => read(trip, [trips.plannedAt, trips.updatedAt], `/items/${index}`));
    case 'attachPayment':
    case 'cancelOrder':
      return read(body, ['createdAtUtc', 'updatedAtUtc'], '');
    default:
      return [];
  }
}

/** Run-level: every timestamp of the run's 2xx order and trip answers is RFC 3339 UTC with milliseconds and `Z` (D20). */
export const timestampsDecided: Check = {
  id: 'discovery.timestamps',
  family: 'discovery',
  title: "every timestamp of the run's answers (an order's createdAtUtc and updatedAtUtc, a trip's planned and changed times) is RFC 3339 UTC with milliseconds and Z",
  verifies: ['D20'],
  fix: 'write every timestamp as RFC 3339 UTC with exactly three fractional digits and Z, as in 2026-11-20T09:30:11.482Z (D20)',
  requires: [],
  after: 'all',
  async run(ctx) {
    const answers = ctx.exchanges().filter((exchange) => exchange.channel !== 'sandbox' && exchange.response !== null && exchange.response.status >= 200 && exchange.response.status <= 299);
    const findings: Finding[] = [];
    let seen = 0;
    for (const exchange of answers) {
      const stamps = timestampsOf(exchange, ctx.profile).filter((stamp): stamp is [string, string] => typeof stamp[1] === 'string' && DATE_TIME.test(stamp[1]));
      seen += stamps.length;
      const other = stamps.filter(([, value]) => !DECIDED_FORM.test(value));
      if (other.length === 0) continue;
      const listed = other.slice(0, 3).map(([where, value]) => `${where}: ${show(value)}`).join('; ');
      findings.push(finding(`${describeExchange(exchange)}: ${counted(other.length, 'timestamp')} not in D20's form`, 'YYYY-MM-DDTHH:mm:ss.sssZ (UTC, three fractional digits, Z), e.g. 2026-11-20T09:30:11.482Z', `${listed}${other.length > 3 ? `; and ${other.length - 3} more` : ''}`, exchange));
    }
    if (seen === 0) return ctx.skip('no answer of this run carried an order or trip timestamp');
    // One finding per answer would repeat a target's single choice hundreds of times.
    return capFindings(findings);
  },
};
