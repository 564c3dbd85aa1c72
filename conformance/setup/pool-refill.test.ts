/** `waybill profile refill` over the reference's control plane (D67): what it keeps, what it makes, and in which states. */
import { afterEach, describe, expect, it } from 'vitest';
import { provisionReference, type ReferenceTarget } from '../../dev/testing/conformance/reference.ts';
import type { PoolName } from '../engine/types/profile.ts';
import { POOL_STATES, readOrderStates, usablePools } from './pool-check.ts';
import { refillPools } from './pool-refill.ts';

let reference: ReferenceTarget | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

const gone = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-GONE-${i}`);

describe('refillPools', () => {
  it('keeps the usable ids, replaces the rest with orders in the state each pool promises, and leaves everything else as it was', async () => {
    reference = await provisionReference();
    const provisioned = reference.profile;
    const orders = provisioned.orders!;
    const profile = {
      ...provisioned,
      orders: { ...orders, onTrip: gone('TRIP', 6), notCancellable: [...orders.notCancellable!.slice(0, 2), ...gone('END', 6)], otherTenant: gone('OTHER', 3) },
    };
    const { profile: refilled, refills } = await refillPools(profile, 'profile.json', 10_000);
    expect(refills).toEqual([
      { pool: 'payable', kept: 30, added: 0 },
      { pool: 'cancellable', kept: 20, added: 0 },
      { pool: 'notCancellable', kept: 2, added: 6 },
      { pool: 'archivable', kept: 20, added: 0 },
      { pool: 'onTrip', kept: 0, added: 6 },
      { pool: 'otherTenant', kept: 0, added: 3 },
    ]);
    expect({ ...refilled, orders: undefined }).toEqual({ ...profile, orders: undefined });
    expect(refilled.orders!.payable).toEqual(orders.payable);
    expect(refilled.orders!.notCancellable!.slice(0, 2)).toEqual(orders.notCancellable!.slice(0, 2));

    const url = reference.server.url;
    const statesOf = async (key: 'full' | 'otherTenant') => {
      const read = await readOrderStates(url, refilled, key, 5000);
      if (read === null || 'refused' in read) throw new Error(`the ${key} feed was not read`);
      return read.states;
    };
    const states = { full: await statesOf('full'), otherTenant: await statesOf('otherTenant') };
    for (const [pool, ids] of Object.entries(refilled.orders!) as [PoolName, string[]][]) {
      const { key, qualifies } = POOL_STATES[pool];
      for (const id of ids) expect(qualifies(states[key as 'full' | 'otherTenant']!.get(id)!), `${pool} ${id}`).toBe(true);
    }
    const statusesOf = (ids: readonly string[]) => ids.map((id) => states.full!.get(id)!.status).sort();
    expect(statusesOf(refilled.orders!.onTrip!)).toEqual(['InProgress', 'InProgress', 'InProgress', 'Planned', 'Planned', 'Planned']);
    expect(statusesOf(refilled.orders!.notCancellable!.slice(2))).toEqual(['FullyDelivered', 'FullyDelivered', 'FullyDelivered', 'InProgress', 'InProgress', 'InProgress']);
    expect(refilled.orders!.otherTenant!.every((id) => states.otherTenant!.get(id)?.status === 'New')).toBe(true);
  }, 60_000);
});

describe('usablePools', () => {
  it('cuts each pool the run needs to its usable ids, in order, and reports the pools too small for the run', async () => {
    reference = await provisionReference();
    const { profile, server } = reference;
    const cancellable = profile.orders!.cancellable!;
    await fetch(`${server.url}/api/v1/integration/orders/externalid/${encodeURIComponent(cancellable[1]!)}/cancel`, { method: 'POST', headers: { 'x-api-key': profile.keys.full } });
    const withGone = { ...profile, orders: { ...profile.orders, archivable: [...gone('ARC', 2), ...profile.orders!.archivable!.slice(0, 3)] } };
    const demand = new Map([
      ['cancellable', { ids: 5, checks: 2 }],
      ['archivable', { ids: 4, checks: 4 }],
    ] as const);
    const { profile: usable, shortages } = await usablePools(server.url, withGone, demand, 5000);
    expect(usable.orders!.cancellable).toEqual([cancellable[0], ...cancellable.slice(2)]);
    expect(usable.orders!.archivable).toEqual(profile.orders!.archivable!.slice(0, 3));
    // A pool no selected check needs is left alone.
    expect(usable.orders!.payable).toBe(profile.orders!.payable);
    expect(shortages).toEqual([{ pool: 'archivable', size: 5, usable: 3, needed: 4, checks: 4 }]);
  }, 60_000);
});
