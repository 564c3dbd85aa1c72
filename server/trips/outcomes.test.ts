import { describe, expect, it } from 'vitest';
import { checkLineOutcomes, endStatus, failedOutcomes, type StopLineSpec, vocabularyOf } from './outcomes.ts';
import { Refusal } from '../domain/refusal.ts';

const refusalOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof Refusal) return { code: error.code, field: error.field?.name };
    throw error;
  }
  return null;
};

const two: StopLineSpec[] = [{ line: 0, quantity: 2, role: 'Delivery' }];
const rebox: StopLineSpec[] = [{ line: 0, quantity: 1, role: 'Delivery' }, { line: 1, quantity: 1, role: 'PickUp' }];

describe('line outcomes (trips.outcomes.*)', () => {
  it('takes delivery quantities for delivery lines and collection quantities otherwise', () => {
    expect(vocabularyOf('Delivery', 'Delivery')).toBe('delivery');
    expect(vocabularyOf('Rebox', 'PickUp')).toBe('collection');
    expect(vocabularyOf('Pickup', 'Delivery')).toBe('collection');
    expect(vocabularyOf('Return', 'Delivery')).toBe('collection');
  });

  it.each([
    ['no outcomes', undefined, 'trips.outcomes.lineMismatch', 'lines'],
    ['a missing line', [], 'trips.outcomes.lineMismatch', 'lines'],
    ['an unknown line', [{ line: 0, delivered: 2 }, { line: 3, delivered: 1 }], 'trips.outcomes.lineMismatch', 'lines[1].line'],
    ['a line twice', [{ line: 0, delivered: 2 }, { line: 0, delivered: 2 }], 'trips.outcomes.lineMismatch', 'lines[1].line'],
    ['mixed vocabularies', [{ line: 0, delivered: 2, collected: 0 }], 'trips.outcomes.wrongVocabulary', 'lines[0]'],
    ['the other vocabulary', [{ line: 0, collected: 2 }], 'trips.outcomes.wrongVocabulary', 'lines[0]'],
    ['a short sum', [{ line: 0, delivered: 1 }], 'trips.outcomes.invariantViolation', 'lines[0]'],
    ['a long sum', [{ line: 0, delivered: 2, lost: 1, reasonCode: 'x' }], 'trips.outcomes.invariantViolation', 'lines[0]'],
    ['rejected above returned', [{ line: 0, delivered: 1, returned: 1, rejected: 2, reasonCode: 'x' }], 'trips.outcomes.invariantViolation', 'lines[0]'],
    ['a return without reason', [{ line: 0, delivered: 1, returned: 1 }], 'trips.outcomes.reasonRequired', 'lines[0].reasonCode'],
    ['a loss without reason', [{ line: 0, delivered: 1, lost: 1 }], 'trips.outcomes.reasonRequired', 'lines[0].reasonCode'],
  ])('refuses %s', (_what, inputs, code, field) => {
    expect(refusalOf(() => checkLineOutcomes('Delivery', two, inputs))).toEqual({ code, field });
  });

  it('refuses a shortfall of collection without reason, and takes it with one', () => {
    expect(refusalOf(() => checkLineOutcomes('Pickup', two, [{ line: 0, collected: 1, notCollected: 1 }]))).toEqual({ code: 'trips.outcomes.reasonRequired', field: 'lines[0].reasonCode' });
    expect(checkLineOutcomes('Pickup', two, [{ line: 0, collected: 1, notCollected: 1, reasonCode: 'x' }])).toEqual([{ line: 0, collected: 1, notCollected: 1, reasonCode: 'x' }]);
  });
});

describe('end status by order type (seed Order statuses)', () => {
  const outcome = (type: 'Delivery' | 'Pickup' | 'Return' | 'Rebox', lines: StopLineSpec[], inputs: Parameters<typeof checkLineOutcomes>[2]) =>
    endStatus(type, lines, checkLineOutcomes(type, lines, inputs));

  it.each([
    ['Delivery', two, [{ line: 0, delivered: 2 }], 'FullyDelivered'],
    ['Delivery', two, [{ line: 0, delivered: 1, lost: 1, reasonCode: 'x' }], 'PartiallyDelivered'],
    ['Delivery', two, [{ line: 0, returned: 2, reasonCode: 'x' }], 'Returned'],
    ['Pickup', two, [{ line: 0, collected: 2 }], 'Collected'],
    ['Return', two, [{ line: 0, collected: 1, notCollected: 1, reasonCode: 'x' }], 'PartiallyCollected'],
    ['Return', two, [{ line: 0, notCollected: 2, reasonCode: 'x' }], 'NotCollected'],
    ['Rebox', rebox, [{ line: 0, delivered: 1 }, { line: 1, collected: 1 }], 'FullyDelivered'],
    ['Rebox', rebox, [{ line: 0, delivered: 1 }, { line: 1, notCollected: 1, reasonCode: 'x' }], 'PartiallyDelivered'],
    ['Rebox', rebox, [{ line: 0, returned: 1, reasonCode: 'x' }, { line: 1, collected: 1 }], 'Returned'],
  ] as const)('%s with %j → %s', (type, lines, inputs, status) => {
    expect(outcome(type, [...lines], [...inputs])).toBe(status);
  });

  it('ends a Failed stop Returned or NotCollected', () => {
    expect(endStatus('Delivery', two, failedOutcomes('Delivery', two, 'Absent'))).toBe('Returned');
    expect(endStatus('Rebox', rebox, failedOutcomes('Rebox', rebox, 'Absent'))).toBe('Returned');
    expect(endStatus('Pickup', two, failedOutcomes('Pickup', two, 'Absent'))).toBe('NotCollected');
  });
});
