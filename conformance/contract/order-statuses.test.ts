/** The status subsets the suite's rules name: each one a part of the contract's list, and each named by the sentence of its rule. */
import { describe, expect, it } from 'vitest';
import { orderStatuses, orderTypes, requirements } from '../../spec/load.ts';
import { CANCELLABLE_STATUSES, COLLECTION_END_STATUSES, DELIVERY_END_STATUSES, END_STATUSES_BY_TYPE, ON_TRIP_STATUSES, statusWords } from './order-statuses.ts';

/** Each subset, its size as its rule gives it, the register entry whose sentence names its statuses, and the word that sentence joins them with. */
const subsets = [
  ['delivery ends', DELIVERY_END_STATUSES, 3, 'int.status.delivery-ends', 'or'],
  ['collection ends', COLLECTION_END_STATUSES, 3, 'int.status.pickup-ends', 'or'],
  ['cancellable', CANCELLABLE_STATUSES, 3, 'D11', 'and'],
  ['on a trip', ON_TRIP_STATUSES, 2, 'D12', 'and'],
] as const;

describe('the order status subsets of the suite', () => {
  it.each(subsets)('%s: statuses of the contract, each named by the sentence of its rule', (_name, subset, size, requirement, conjunction) => {
    // A status the contract renamed or dropped would fall out of the subset: its size says so.
    expect(subset).toHaveLength(size);
    for (const status of subset) expect(orderStatuses).toContain(status);
    const quote = requirements.get(requirement)!.quote;
    expect(quote).toContain(statusWords(subset, conjunction));
  });

  it('gives every order type of the contract its end statuses, Rebox those of a delivery (rule 3)', () => {
    expect(Object.keys(END_STATUSES_BY_TYPE).sort()).toEqual([...orderTypes].sort());
    expect(END_STATUSES_BY_TYPE.Rebox).toBe(DELIVERY_END_STATUSES);
    expect(requirements.get('int.status.rebox')!.quote).toContain('uses the delivery end values');
  });

  it('says a list as a sentence does', () => {
    expect(statusWords(['New', 'InPlanning', 'Planned'])).toBe('New, InPlanning or Planned');
    expect(statusWords(['Planned', 'InProgress'], 'and')).toBe('Planned and InProgress');
    expect(statusWords(['New'])).toBe('New');
  });
});
