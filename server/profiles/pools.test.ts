import { describe, expect, it } from 'vitest';
import { pickPools, type PoolCandidate } from './pools.ts';

const orders = (statuses: string[], copies: number): PoolCandidate[] =>
  statuses.flatMap((status) => Array.from({ length: copies }, (_, i) => ({ externalId: `${status}-${i}`, status, type: i % 2 === 0 ? 'Delivery' : 'Pickup' })));

const statusOf = (id: string) => id.replace(/-\d+$/, '');

describe('profile pools', () => {
  it('fills disjoint pools that fit their names and leaves the reserve and the rest out', () => {
    const pools = pickPools(orders(['New', 'Planned', 'InProgress', 'FullyDelivered'], 14), { size: 5, reserve: 2, keep: 20 });
    const all = Object.values(pools).flat();
    expect(all).toHaveLength(25);
    expect(new Set(all).size).toBe(25);
    expect(pools.onTrip.every((id) => ['Planned', 'InProgress'].includes(statusOf(id)))).toBe(true);
    expect(pools.cancellable.every((id) => ['New', 'Planned'].includes(statusOf(id)))).toBe(true);
    expect(pools.notCancellable.every((id) => ['InProgress', 'FullyDelivered'].includes(statusOf(id)))).toBe(true);
    expect(pools.archivable.some((id) => ['Planned', 'InProgress'].includes(statusOf(id)))).toBe(false);
    for (const status of ['New', 'Planned', 'InProgress', 'FullyDelivered']) expect(all).not.toContain(`${status}-0`);
  });

  it('mixes Planned and InProgress orders in the onTrip pool, taking them in turn', () => {
    const pools = pickPools(orders(['New', 'Planned', 'InProgress', 'FullyDelivered'], 14), { size: 5, sizes: { onTrip: 6 }, reserve: 2, keep: 0 });
    expect(pools.onTrip.map(statusOf)).toEqual(['Planned', 'InProgress', 'Planned', 'InProgress', 'Planned', 'InProgress']);
  });

  it('fills onTrip first: cancellable and notCancellable take only the Planned and InProgress orders it leaves', () => {
    const pools = pickPools(orders(['Planned', 'InProgress', 'New', 'FullyDelivered'], 6), { size: 4, sizes: { onTrip: 8 }, reserve: 0, keep: 0 });
    expect(pools.onTrip.map(statusOf).sort()).toEqual([...Array(4).fill('InProgress'), ...Array(4).fill('Planned')]);
    expect(pools.cancellable).toEqual(['Planned-4', 'Planned-5', 'New-0', 'New-1']);
    expect(pools.notCancellable).toEqual(['InProgress-4', 'InProgress-5', 'FullyDelivered-0', 'FullyDelivered-1']);
  });

  it('takes its own size per pool when sizes names one', () => {
    const pools = pickPools(orders(['New', 'Planned', 'InProgress', 'FullyDelivered'], 14), { size: 3, sizes: { onTrip: 7, payable: 1 }, reserve: 0, keep: 0 });
    expect(Object.fromEntries(Object.entries(pools).map(([pool, ids]) => [pool, ids.length]))).toEqual({
      onTrip: 7, cancellable: 3, notCancellable: 3, archivable: 3, payable: 1,
    });
  });

  it('skips orders without an external id, and throws when a pool cannot be filled', () => {
    const none = orders(['Planned'], 30).map((order) => ({ ...order, externalId: null }));
    expect(() => pickPools(none, { size: 1, reserve: 0, keep: 0 })).toThrow(/onTrip pool \(0 of 1\)/);
    expect(() => pickPools(orders(['New', 'Closed'], 10), { size: 5, reserve: 0, keep: 0 })).toThrow(/onTrip/);
    expect(() => pickPools(orders(['New', 'Planned', 'Closed'], 10), { size: 5, reserve: 0, keep: 11 })).toThrow(/fewer than 11/);
  });
});
