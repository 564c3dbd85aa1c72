/**
 * Hands out order external ids from the profile's pools so that no two checks ever get the
 * same id (an order one check archives must not be another check's payable order).
 */
import type { PoolName, Profile } from './types/profile.ts';

/** Allocates ids from the named pools of one profile. */
export interface PoolAllocator {
  /** How many ids of `pool` are still free. */
  available(pool: PoolName): number;
  /** Takes `count` free ids of `pool`; throws when fewer are free (ask `available` first). */
  take(pool: PoolName, count: number): string[];
}

/** A fresh allocator over the profile's pools; an id listed in two pools is still given out once. */
export function createPoolAllocator(profile: Profile): PoolAllocator {
  const taken = new Set<string>();
  const free = (pool: PoolName) => (profile.orders?.[pool] ?? []).filter((id) => !taken.has(id));
  return {
    available: (pool) => free(pool).length,
    take(pool, count) {
      const ids = free(pool).slice(0, count);
      if (ids.length < count) throw new Error(`pool orders.${pool} has ${ids.length} free ids, ${count} asked`);
      for (const id of ids) taken.add(id);
      return ids;
    },
  };
}
