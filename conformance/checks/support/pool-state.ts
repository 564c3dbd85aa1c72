/**
 * Profile pools are verified, not trusted: before a check relies on an order being in some
 * state, it reads that state from the order feed and keeps only the ids that qualify. The feed
 * is read once per run and key (`ctx.shared`); a check reads it before its first write, and no
 * other check writes its pool ids, so what it reads of its own ids is current. The pool check
 * before the run (setup/pool-check.ts) reads the feed with the same reader, `orderStatesFrom`.
 */
import { operations } from '../../../spec/load.ts';
import { CANCELLABLE_STATUSES, END_STATUSES_BY_TYPE, ON_TRIP_STATUSES, statusWords } from '../../contract/order-statuses.ts';
import type { CheckContext } from '../../engine/types/check.ts';
import type { KeyName, PoolName, Profile } from '../../engine/types/profile.ts';
import { seedContractErrors } from './response-contract.ts';

/** What the order feed says of one order. */
export interface OrderState {
  id: string;
  externalId: string;
  status: string;
  type: string;
  /** When the order last changed, as the feed said (a string, whatever its form). */
  updatedAtUtc: string;
  /** How the feed item's `status` breaks what the seeds fix (`/status must be string`), when it does: its state is then unknown. */
  breach?: string;
}

/** The order feed read as pool states: the live orders by external id, and how its items break the contract, if they do. */
export interface FeedStates {
  states: Map<string, OrderState>;
  /** Each item whose status breaks what the seeds fix, as `EXT-1: /status must be string` (`item 3 of page 1` when it has no external id); empty when none does. */
  breaches: string[];
}

/** The order feed's path, as the contract gives it. */
export const ORDER_FEED_PATH = operations.get('orderFeed')!.path;
/** A departure from the seeds' Order in `status`, which every pool's state is read from: it alone makes a state unknown (an id or type out of shape is still read as given). */
const READ_MEMBERS = /^\/status\b|required property 'status'/;
/** The most pages read for a snapshot: 100 items each, far above any profile's feed. */
const MAX_PAGES = 100;

/** An answer of the order feed, as whoever reads it got it. */
export interface FeedAnswer {
  status: number;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  text: string;
}

/** Reads one page of the order feed with `query`. */
export type OrderFeedReader = (query: { limit: number; cursor?: string }) => Promise<FeedAnswer>;

/**
 * The live orders of a tenant by external id, as its order feed reports them (archived orders
 * are absent, as the seeds require), read page by page with `readPage`, 100 a page. The member
 * every pool's state is read from, `status`, is held to what the seeds fix for an Order (read
 * with `profile`'s choices): an item whose status breaks it is kept with its `breach`
 * (when it has an external id) and listed in `breaches`, so that a target's defect is never
 * read as an order in some state. The first answer that is not a
 * page ends the read, returned as `refused`.
 */
export async function orderStatesFrom(readPage: OrderFeedReader, profile: Pick<Profile, 'choices'>): Promise<FeedStates | { refused: FeedAnswer }> {
  const states = new Map<string, OrderState>();
  const breaches: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await readPage({ limit: 100, ...(cursor === null ? {} : { cursor }) });
    const body = answer.json as { items?: unknown; nextCursor?: unknown } | null | undefined;
    if (answer.status !== 200 || body === null || typeof body !== 'object' || !Array.isArray(body.items)) return { refused: answer };
    const items: unknown[] = body.items;
    for (const [index, raw] of items.entries()) {
      const item = (raw ?? {}) as Partial<Record<keyof OrderState, unknown>>;
      const errors = seedContractErrors('Order', raw, profile).filter((error) => READ_MEMBERS.test(error));
      const keyed = typeof item.externalId === 'string' && typeof item.id === 'string';
      const breach = errors.length > 0 ? errors.slice(0, 3).join('; ') : undefined;
      if (breach !== undefined) breaches.push(`${keyed ? String(item.externalId) : `item ${index + 1} of page ${page + 1}`}: ${breach}`);
      if (keyed) {
        states.set(item.externalId as string, { id: item.id as string, externalId: item.externalId as string, status: String(item.status), type: String(item.type), updatedAtUtc: String(item.updatedAtUtc), ...(breach === undefined ? {} : { breach }) });
      }
    }
    cursor = typeof body.nextCursor === 'string' && items.length > 0 ? body.nextCursor : null;
    if (cursor === null) break;
  }
  return { states, breaches };
}

/** `status body` of an answer of the order feed that is no page, for a reason. */
function answerText(answer: FeedAnswer): string {
  return `${answer.status} ${JSON.stringify(answer.text.slice(0, 120))}${answer.text.length > 120 ? '…' : ''}`;
}

/**
 * The live orders of `key`'s tenant by external id, read through `ctx.http` (recorded). When the
 * feed answers something that is no page of orders, the check asking ends as `skip`, quoting
 * it: the answer is the target's to explain, and discovery.responses.contract and the feed
 * checks, which read the same feed, report it.
 */
export function orderStates(ctx: CheckContext, key: KeyName = 'full'): Promise<ReadonlyMap<string, OrderState>> {
  return ctx.shared(`pool-state:orders:${key}`, async () => {
    const read = await orderStatesFrom(async (query) => {
      const { status, json, text } = await ctx.http.request({ method: 'GET', path: ORDER_FEED_PATH, key, query });
      return { status, json, text };
    }, ctx.profile);
    if ('refused' in read) {
      ctx.skip(`the order feed of the ${key} key answered ${answerText(read.refused)}, not a page of orders, so the states of the profile's orders cannot be read (discovery.responses.contract judges that answer)`);
    }
    return read.states;
  });
}

/**
 * The ids of `pool` given to this check whose current state `qualifies`, read from the feed of
 * `key` (the other tenant's key for its pool). When none qualifies the check ends as `skip`,
 * saying what it needed and what the ids held.
 */
export async function qualifyingOrders(
  ctx: CheckContext,
  pool: PoolName,
  wanted: { describe: string; qualifies: (state: OrderState) => boolean; key?: KeyName; anyState?: boolean },
): Promise<OrderState[]> {
  const ids = ctx.orders(pool);
  const states = await orderStates(ctx, wanted.key ?? 'full');
  // An item that breaks the contract is in no state a check can rely on, unless the pool asks for none.
  const qualifying = ids.map((id) => states.get(id)).filter((state): state is OrderState => state !== undefined && (state.breach === undefined || wanted.anyState === true) && wanted.qualifies(state));
  if (qualifying.length === 0) {
    const held = ids.map((id) => {
      const state = states.get(id);
      if (state?.breach !== undefined) return `${id}: the feed's item breaks the contract (${state.breach})`;
      return `${id}: ${state?.status ?? 'not in the feed'}`;
    });
    const judged = ids.some((id) => states.get(id)?.breach !== undefined) ? '; discovery.responses.contract judges the feed\'s items' : '';
    ctx.skip(`needs ${wanted.describe} from profile orders.${pool}; none of its ids given to this check qualifies (${held.join(', ')})${judged}`);
  }
  return qualifying;
}

/** True when the seeds make the order final: it is in an end status of its type. */
export function endedBySeeds(state: OrderState): boolean {
  return (END_STATUSES_BY_TYPE as Readonly<Record<string, readonly string[] | undefined>>)[state.type]?.includes(state.status) ?? false;
}

/** What a check wants of a pool's ids, for `qualifyingOrders`. */
export type Wanted = Parameters<typeof qualifyingOrders>[2];

/** The state each profile pool promises, as `qualifyingOrders` reads it. */
export const poolStates = {
  /** D10: a payment is recorded in any status of a live order. */
  payable: { describe: 'a live order (D10: any status)', qualifies: () => true, anyState: true },
  /** D11: New, InPlanning or Planned. */
  cancellable: { describe: `an order in ${statusWords(CANCELLABLE_STATUSES)} (D11)`, qualifies: (state: OrderState) => CANCELLABLE_STATUSES.includes(state.status) },
  /** D12: any status but Planned and InProgress. */
  archivable: { describe: `an order neither ${ON_TRIP_STATUSES.join(' nor ')} (D12)`, qualifies: (state: OrderState) => !ON_TRIP_STATUSES.includes(state.status) },
  /** On a trip: Planned or InProgress. */
  onTrip: { describe: `an order on a trip (${statusWords(ON_TRIP_STATUSES)})`, qualifies: (state: OrderState) => ON_TRIP_STATUSES.includes(state.status) },
} satisfies Record<string, Wanted>;

/** `states` with those in `preferred` statuses first (in that order), the rest after, each group in pool order. */
export function preferring(states: readonly OrderState[], preferred: readonly string[]): OrderState[] {
  const rank = (state: OrderState) => {
    const index = preferred.indexOf(state.status);
    return index === -1 ? preferred.length : index;
  };
  return states.map((state, index) => ({ state, index })).sort((a, b) => rank(a.state) - rank(b.state) || a.index - b.index).map(({ state }) => state);
}
