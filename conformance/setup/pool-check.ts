/**
 * Before the run, the profile's pools are read as the checks would read them (pool-state.ts):
 * each id's state from the order feed, keeping the ids still in the state their pool promises.
 * A profile used by an earlier run (cancelled, archived, taken off a trip) then runs on the ids
 * it has left, and one that cannot fill the selected checks says so once, before anything
 * runs, instead of as a skip per check (D67). A feed whose items break the contract (a status
 * by number, a missing member) or that answers no page tells nothing of the profile: its pools
 * are left as they are and the run goes on, so that the checks report the target's defect as
 * the failure it is, never as a profile used up.
 */
import { UsageError } from '../../cli/errors.ts';
import { type FeedAnswer, type FeedStates, ORDER_FEED_PATH, type OrderState, orderStatesFrom, poolStates } from '../checks/support/pool-state.ts';
import type { KeyName, PoolName, Profile } from '../engine/types/profile.ts';
import { send } from './http.ts';

/** The state each pool's ids must hold, and whose feed shows them: the checks' own predicates. */
export const POOL_STATES: Record<PoolName, { describe: string; qualifies: (state: OrderState) => boolean; key: KeyName }> = {
  payable: { ...poolStates.payable, key: 'full' },
  cancellable: { ...poolStates.cancellable, key: 'full' },
  // What a target refuses to cancel is its own (profile.schema.json), so only "live" is read here.
  notCancellable: { describe: 'a live order', qualifies: () => true, key: 'full' },
  archivable: { ...poolStates.archivable, key: 'full' },
  onTrip: { ...poolStates.onTrip, key: 'full' },
  otherTenant: { ...poolStates.payable, key: 'otherTenant' },
};

/**
 * The live orders of `key`'s tenant by external id, read before the run (unrecorded) with the
 * checks' own reader, and how its items break the contract; the answer that ended the read when
 * it was no page of orders; null when the profile has no such key.
 */
export async function readOrderStates(target: string, profile: Profile, key: KeyName, timeoutMs: number): Promise<FeedStates | { refused: FeedAnswer } | null> {
  const entry = profile.keys[key];
  const secret = typeof entry === 'string' ? entry : entry?.key;
  if (secret === undefined) return null;
  const auth = profile.auth ?? { header: 'X-Api-Key', prefix: '' };
  const read = await orderStatesFrom(async ({ limit, cursor }) => {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor === undefined ? {} : { cursor }) });
    const { status, json, text } = await send(`${target}${ORDER_FEED_PATH}?${query}`, { headers: { [auth.header]: `${auth.prefix ?? ''}${secret}` } }, timeoutMs, `reading the order feed of the ${key} key at ${target}`);
    return { status, json, text };
  }, profile);
  return read;
}

/** A pool that cannot give the selected checks the ids they ask for. */
export interface PoolShortage {
  pool: PoolName;
  size: number;
  usable: number;
  needed: number;
  checks: number;
}

/** An order feed read before the run whose answer or items break the contract, in one line. */
export interface FeedDefect {
  key: KeyName;
  what: string;
}

/**
 * The profile with each pool the run needs cut to the ids still in their pool's state (in
 * the file's order), and the pools that are then too small for `demand`. A feed that cannot be
 * read, or whose items break the contract, leaves its pools as they are (`defects` says which):
 * the checks that read it report why.
 */
export async function usablePools(
  target: string,
  profile: Profile,
  demand: ReadonlyMap<PoolName, { ids: number; checks: number }>,
  timeoutMs: number,
): Promise<{ profile: Profile; shortages: PoolShortage[]; defects: FeedDefect[] }> {
  const feeds = new Map<KeyName, ReturnType<typeof readOrderStates>>();
  const statesOf = (key: KeyName) => {
    if (!feeds.has(key)) feeds.set(key, readOrderStates(target, profile, key, timeoutMs));
    return feeds.get(key)!;
  };
  const orders: Partial<Record<PoolName, string[]>> = { ...profile.orders };
  const shortages: PoolShortage[] = [];
  const defects = new Map<KeyName, FeedDefect>();
  for (const [pool, wanted] of demand) {
    const ids = profile.orders?.[pool];
    const { key, qualifies } = POOL_STATES[pool];
    if (ids === undefined || profile.keys[key] === undefined) continue;
    const read = await statesOf(key);
    if (read === null) continue;
    if ('refused' in read) {
      const { status, text } = read.refused;
      defects.set(key, { key, what: `answered ${status} ${JSON.stringify(text.slice(0, 80))}${text.length > 80 ? '…' : ''}, not a page of orders` });
      continue;
    }
    if (read.breaches.length > 0) {
      const more = read.breaches.length > 2 ? ` (${read.breaches.length} items in all)` : '';
      defects.set(key, { key, what: `has items that break the contract: ${read.breaches.slice(0, 2).join('; ')}${more}` });
      continue;
    }
    const usable = ids.filter((id) => {
      const state = read.states.get(id);
      return state !== undefined && qualifies(state);
    });
    orders[pool] = usable;
    if (usable.length < wanted.ids) shortages.push({ pool, size: ids.length, usable: usable.length, needed: wanted.ids, checks: wanted.checks });
  }
  return { profile: profile.orders === undefined ? profile : { ...profile, orders }, shortages, defects: [...defects.values()] };
}

/** The warning line of a feed defect found before the run: the pools it feeds are not checked, and the checks report it. */
export function defectWarning({ key, what }: FeedDefect): string {
  return `warning: the order feed of the ${key} key ${what}; the profile's pools it holds are not checked before the run, and the checks report the feed`;
}

/** The one message of a profile whose pools cannot fill the run, with what to do about it. */
export function shortageError(source: string, shortages: readonly PoolShortage[], refillable: boolean): UsageError {
  const pools = shortages.map(({ pool, size, usable, needed, checks }) => `orders.${pool}: ${usable} of its ${size} ids still name ${POOL_STATES[pool].describe}, ${checks === 1 ? 'its check needs' : `its ${checks} checks need`} ${needed}`);
  const remedy = refillable ? `refill them with \`waybill profile refill ${source}\`` : 'give fresh external ids in those pools';
  return new UsageError(`${source}: its pools cannot fill this run (used by earlier runs?): ${pools.join('; ')}; ${remedy}, or leave those checks out with --skip`);
}
