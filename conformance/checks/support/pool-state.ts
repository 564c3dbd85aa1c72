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
import type { KeyName, PoolName } from '../../engine/types/profile.ts';

/** What the order feed says of one order. */
export interface OrderState {
  id: string;
  externalId: string;
  status: string;
  type: string;
  /** When the order last changed, as the feed said (a string, whatever its form). */
  updatedAtUtc: string;
}

/** The order feed's path, as the contract gives it. */
export const ORDER_FEED_PATH = operations.get('orderFeed')!.path;
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
 * are absent, as the seeds require), read page by page with `readPage`, 100 a page. The first
 * answer that is not a page ends the read, returned as `refused`.
 */
export async function orderStatesFrom(readPage: OrderFeedReader): Promise<{ states: Map<string, OrderState> } | { refused: FeedAnswer }> {
  const states = new Map<string, OrderState>();
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await readPage({ limit: 100, ...(cursor === null ? {} : { cursor }) });
    const body = answer.json as { items?: unknown; nextCursor?: unknown } | null | undefined;
    if (answer.status !== 200 || body === null || body === undefined || !Array.isArray(body.items)) return { refused: answer };
    const items: unknown[] = body.items;
    for (const raw of items) {
      const item = (raw ?? {}) as Partial<Record<keyof OrderState, unknown>>;
      if (typeof item.externalId === 'string' && typeof item.id === 'string') {
        states.set(item.externalId, { id: item.id, externalId: item.externalId, status: String(item.status), type: String(item.type), updatedAtUtc: String(item.updatedAtUtc) });
      }
    }
    cursor = typeof body.nextCursor === 'string' && items.length > 0 ? body.nextCursor : null;
    if (cursor === null) break;
  }
  return { states };
}

/**
 * The live orders of `key`'s tenant by external id, read through `ctx.http` (recorded). Throws
 * when the feed cannot be read: a check that needs it then ends in `error` only if the feed
 * itself is broken, which the feed checks report.
 */
export function orderStates(ctx: CheckContext, key: KeyName = 'full'): Promise<ReadonlyMap<string, OrderState>> {
  return ctx.shared(`pool-state:orders:${key}`, async () => {
    const read = await orderStatesFrom(async (query) => {
      const { status, json, text } = await ctx.http.request({ method: 'GET', path: ORDER_FEED_PATH, key, query });
      return { status, json, text };
    });
    if ('refused' in read) throw new Error(`reading the order feed to verify pool states: ${read.refused.status} ${read.refused.text.slice(0, 200)}`);
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
  wanted: { describe: string; qualifies: (state: OrderState) => boolean; key?: KeyName },
): Promise<OrderState[]> {
  const ids = ctx.orders(pool);
  const states = await orderStates(ctx, wanted.key ?? 'full');
  const qualifying = ids.map((id) => states.get(id)).filter((state): state is OrderState => state !== undefined && wanted.qualifies(state));
  if (qualifying.length === 0) {
    const held = ids.map((id) => `${id}: ${states.get(id)?.status ?? 'not in the feed'}`).join(', ');
    ctx.skip(`needs ${wanted.describe} from profile orders.${pool}; none of its ids given to this check qualifies (${held})`);
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
  payable: { describe: 'a live order (D10: any status)', qualifies: () => true },
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
