/**
 * Turns a check's preconditions (`requires`) into either the resources it gets (pool ids) or the reason it is
 * skipped, naming the profile field that is missing. Runs before any check starts, so a
 * shortage is always a `skip`, never a `fail`.
 */
import type { PoolAllocator } from './pools.ts';
import type { Precondition } from './types/check.ts';
import type { KeyName, PoolName, Profile } from './types/profile.ts';

const keyNames: readonly KeyName[] = ['full', 'ordersRead', 'tripsRead', 'noScopes', 'otherTenant', 'revoked', 'rateLimited', 'suspendedTenant'];
const poolNames: readonly PoolName[] = ['payable', 'cancellable', 'notCancellable', 'archivable', 'onTrip', 'otherTenant'];
const feedFields = ['minOrders', 'minTrips'] as const;

/** What a check gets, or why it cannot run. */
export type Plan = { pools: Map<PoolName, string[]> } | { skip: string };

type Parsed =
  | { kind: 'key'; key: KeyName }
  | { kind: 'pool'; pool: PoolName; count: number }
  | { kind: 'sandbox' }
  | { kind: 'trips' }
  | { kind: 'feeds'; field: (typeof feedFields)[number] };

/** Parses one precondition; throws on a string the suite does not know (a bug in the check). */
export function parsePrecondition(precondition: string): Parsed {
  const [kind, name, count, ...rest] = precondition.split(':');
  if (rest.length === 0) {
    if (kind === 'key' && count === undefined && keyNames.includes(name as KeyName)) return { kind, key: name as KeyName };
    if (kind === 'orders' && poolNames.includes(name as PoolName) && count !== undefined && /^[1-9]\d*$/.test(count)) {
      return { kind: 'pool', pool: name as PoolName, count: Number(count) };
    }
    if (kind === 'sandbox' && name === undefined) return { kind };
    if (kind === 'trips' && name === 'otherTenant' && count === undefined) return { kind };
    if (kind === 'feeds' && count === undefined && feedFields.includes(name as (typeof feedFields)[number])) {
      return { kind, field: name as (typeof feedFields)[number] };
    }
  }
  throw new Error(`unknown precondition '${precondition}'`);
}

/** Why `precondition` is not met by `profile` (naming the field), or null when it is (pools aside). */
function missing(requirement: Parsed, profile: Profile): string | null {
  switch (requirement.kind) {
    case 'key':
      return profile.keys[requirement.key] === undefined ? `profile has no keys.${requirement.key}` : null;
    case 'sandbox':
      return profile.sandbox === undefined ? 'profile has no sandbox' : null;
    case 'trips':
      return (profile.trips?.otherTenant ?? []).length === 0 ? 'profile has no trips.otherTenant' : null;
    case 'feeds':
      return profile.feeds?.[requirement.field] === undefined ? `profile has no feeds.${requirement.field}` : null;
    case 'pool':
      return profile.orders?.[requirement.pool] === undefined ? `profile has no orders.${requirement.pool}` : null;
  }
}

/** What `profile` lacks for `checks` (pools' sizes aside): each missing field, as `profile has no keys.revoked`, with the ids of the checks that need it. */
export function unmetPreconditions(checks: readonly { id: string; requires: readonly Precondition[] }[], profile: Profile): Map<string, string[]> {
  const unmet = new Map<string, string[]>();
  for (const check of checks) {
    for (const reason of new Set(check.requires.map(parsePrecondition).map((requirement) => missing(requirement, profile)))) {
      if (reason !== null) unmet.set(reason, [...(unmet.get(reason) ?? []), check.id]);
    }
  }
  return unmet;
}

/** Meets every precondition of a check at once, taking its pool ids, or names the first one unmet. */
export function planPreconditions(requires: readonly Precondition[], profile: Profile, allocator: PoolAllocator): Plan {
  const parsed = requires.map(parsePrecondition);
  for (const requirement of parsed) {
    const reason = missing(requirement, profile);
    if (reason !== null) return { skip: reason };
  }
  const wanted = new Map<PoolName, number>();
  for (const requirement of parsed) {
    if (requirement.kind === 'pool') wanted.set(requirement.pool, (wanted.get(requirement.pool) ?? 0) + requirement.count);
  }
  for (const [pool, count] of wanted) {
    const free = allocator.available(pool);
    if (free < count) {
      const size = profile.orders?.[pool]?.length ?? 0;
      return { skip: `needs ${count} ids from profile orders.${pool}; ${free} of its ${size} are left after the checks before it` };
    }
  }
  return { pools: new Map([...wanted].map(([pool, count]) => [pool, allocator.take(pool, count)])) };
}

/** How many ids of each pool `checks` ask for together, and how many of the checks ask for each. */
export function poolDemand(checks: readonly { requires: readonly Precondition[] }[]): Map<PoolName, { ids: number; checks: number }> {
  const demand = new Map<PoolName, { ids: number; checks: number }>();
  for (const check of checks) {
    const asked = new Set<PoolName>();
    for (const requirement of check.requires.map(parsePrecondition)) {
      if (requirement.kind !== 'pool') continue;
      const entry = demand.get(requirement.pool) ?? { ids: 0, checks: 0 };
      entry.ids += requirement.count;
      if (!asked.has(requirement.pool)) entry.checks += 1;
      asked.add(requirement.pool);
      demand.set(requirement.pool, entry);
    }
  }
  return demand;
}
