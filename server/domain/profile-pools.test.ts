import { describe, expect, it } from 'vitest';
import { pickPools, type PoolCandidate } from './profile-pools.ts';

const orders = (statuses: string[], copies: number): PoolCandidate[] =>
  statuses.flatMap((status) => Array.from({ length: copies }, (_, i) => ({ externalId: `${status}-${i}`, status, type: i % 2 === 0 ? 'Delivery' : 'Pickup' })));

describe('profile pools', () => {
  it('fills disjoint pools that fit their names and leaves the reserve and the rest out', () => {
    const pools = pickPools(orders(['New', 'Planned', 'InProgress', 'FullyDelivered'], 12), { size: 5, reserve: 2, keep: 20 });
    const all = Object.values(pools).flat();
    expect(new Set(all).size).toBe(20);
    expect(pools.cancellable.every((id) => /^(New|Planned)-/.test(id))).toBe(true);
    expect(pools.notCancellable.every((id) => /^(InProgress|FullyDelivered)-/.test(id))).toBe(true);
    expect(pools.archivable.some((id) => /^(Planned|InProgress)-/.test(id))).toBe(false);
    for (const status of ['New', 'Planned', 'InProgress', 'FullyDelivered']) expect(all).not.toContain(`${status}-0`);
  });

  it('skips orders without an external id, and throws when a pool cannot be filled', () => {
    const none = orders(['New'], 30).map((order) => ({ ...order, externalId: null }));
    expect(() => pickPools(none, { size: 1, reserve: 0, keep: 0 })).toThrow(/cancellable/);
    expect(() => pickPools(orders(['New', 'Closed'], 10), { size: 5, reserve: 0, keep: 11 })).toThrow(/fewer than 11/);
  });
});
