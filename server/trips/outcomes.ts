/**
 * A stop's outcome, line by line (seed catalog `trips.outcomes.*`; D42), and the end
 * status it gives the order (seed "Order statuses", rules 1 to 3).
 */
import type { OrderStatusName, OrderType } from '../../spec/load.ts';
import type { LineRole } from '../orders/intake-rules.ts';
import { refuse } from '../domain/refusal.ts';
import type { components } from '../../spec/sandbox-types.ts';

/** Which quantities a line's outcome takes (`StopLine.vocabulary` of spec/sandbox.yaml). */
export type Vocabulary = components['schemas']['StopLine']['vocabulary'];

/** A line of a stop as the rules need it. */
export interface StopLineSpec {
  line: number;
  quantity: number;
  role: LineRole;
}

/** One line's outcome as the request sends it; quantities left out are 0 (`LineOutcomeInput`). */
export type LineOutcomeInput = components['schemas']['LineOutcomeInput'];

/** One line's outcome as recorded. */
export type RecordedLine =
  | { line: number; delivered: number; returned: number; rejected: number; lost: number; reasonCode: string | null }
  | { line: number; collected: number; notCollected: number; reasonCode: string | null };

const DELIVERY_KEYS = ['delivered', 'returned', 'rejected', 'lost'] as const satisfies readonly (keyof LineOutcomeInput)[];
const COLLECTION_KEYS = ['collected', 'notCollected'] as const satisfies readonly (keyof LineOutcomeInput)[];

/** Delivery quantities for a Delivery-role line of a Delivery or Rebox order; collection quantities otherwise. */
export function vocabularyOf(type: OrderType, role: LineRole): Vocabulary {
  return type === 'Pickup' || type === 'Return' || role === 'PickUp' ? 'collection' : 'delivery';
}

// requirement: D42
/** Checks the outcomes of a Completed stop against its lines and returns them as recorded, in line order. */
export function checkLineOutcomes(type: OrderType, lines: readonly StopLineSpec[], inputs: readonly LineOutcomeInput[] | undefined): RecordedLine[] {
  if (inputs === undefined) {
    refuse('trips.outcomes.lineMismatch', `A Completed stop needs one outcome per line; this stop has ${lines.length}.`, 'lines', null);
  }
  const byLine = new Map(lines.map((spec) => [spec.line, spec]));
  const seen = new Set<number>();
  inputs.forEach((input, i) => {
    if (!byLine.has(input.line)) refuse('trips.outcomes.lineMismatch', `The stop has no line ${input.line}.`, `lines[${i}].line`, input.line);
    if (seen.has(input.line)) refuse('trips.outcomes.lineMismatch', `Line ${input.line} has more than one outcome.`, `lines[${i}].line`, input.line);
    seen.add(input.line);
  });
  const missing = lines.filter((spec) => !seen.has(spec.line)).map((spec) => spec.line);
  if (missing.length > 0) refuse('trips.outcomes.lineMismatch', `No outcome for line ${missing.join(', ')}.`, 'lines', null);
  return inputs
    .map((input, i) => recordLine(type, byLine.get(input.line)!, input, `lines[${i}]`))
    .sort((a, b) => a.line - b.line);
}

function recordLine(type: OrderType, spec: StopLineSpec, input: LineOutcomeInput, field: string): RecordedLine {
  const vocabulary = vocabularyOf(type, spec.role);
  const usesDelivery = DELIVERY_KEYS.some((key) => input[key] !== undefined);
  const usesCollection = COLLECTION_KEYS.some((key) => input[key] !== undefined);
  if (usesDelivery && usesCollection) {
    refuse('trips.outcomes.wrongVocabulary', `Line ${spec.line} mixes delivery and collection quantities.`, field, null);
  }
  if (vocabulary === 'delivery' ? usesCollection : usesDelivery) {
    const keys = vocabulary === 'delivery' ? DELIVERY_KEYS : COLLECTION_KEYS;
    refuse('trips.outcomes.wrongVocabulary', `Line ${spec.line} takes ${vocabulary} quantities (${keys.join(', ')}).`, field, null);
  }
  const reasonCode = input.reasonCode ?? null;
  const needsReason = (shortfall: number, what: string) => {
    if (shortfall > 0 && reasonCode === null) {
      refuse('trips.outcomes.reasonRequired', `Line ${spec.line} has ${what}; give its reasonCode.`, `${field}.reasonCode`, null);
    }
  };
  if (vocabulary === 'delivery') {
    const { delivered = 0, returned = 0, rejected = 0, lost = 0 } = input;
    const accounted = delivered + returned + lost;
    if (accounted !== spec.quantity) {
      refuse('trips.outcomes.invariantViolation', `Line ${spec.line} needs delivered + returned + lost = ${spec.quantity}, got ${accounted}.`, field, null);
    }
    if (rejected > returned) {
      refuse('trips.outcomes.invariantViolation', `Line ${spec.line}: rejected (${rejected}) cannot be above returned (${returned}).`, field, null);
    }
    needsReason(returned + rejected + lost, 'returned, rejected or lost goods');
    return { line: spec.line, delivered, returned, rejected, lost, reasonCode };
  }
  const { collected = 0, notCollected = 0 } = input;
  if (collected + notCollected !== spec.quantity) {
    refuse('trips.outcomes.invariantViolation', `Line ${spec.line} needs collected + notCollected = ${spec.quantity}, got ${collected + notCollected}.`, field, null);
  }
  needsReason(notCollected, 'goods not collected');
  return { line: spec.line, collected, notCollected, reasonCode };
}

/** The outcomes of a Failed stop (not served): every line returned or not collected, with the stop's reason. */
export function failedOutcomes(type: OrderType, lines: readonly StopLineSpec[], reasonCode: string): RecordedLine[] {
  return lines.map((spec) =>
    vocabularyOf(type, spec.role) === 'delivery'
      ? { line: spec.line, delivered: 0, returned: spec.quantity, rejected: 0, lost: 0, reasonCode }
      : { line: spec.line, collected: 0, notCollected: spec.quantity, reasonCode },
  );
}

// requirement: int.status.values
// requirement: int.status.delivery-ends
// requirement: int.status.pickup-ends
// requirement: int.status.rebox
/**
 * The order's end status after its stop: Delivery ends FullyDelivered, PartiallyDelivered
 * or Returned; Pickup and Return end Collected, PartiallyCollected or NotCollected; Rebox
 * uses the delivery values and is FullyDelivered only when the new item was handed over
 * and the old one collected.
 */
export function endStatus(type: OrderType, lines: readonly StopLineSpec[], outcomes: readonly RecordedLine[]): OrderStatusName {
  const quantityOf = new Map(lines.map((spec) => [spec.line, spec.quantity]));
  let toDeliver = 0;
  let delivered = 0;
  let toCollect = 0;
  let collected = 0;
  for (const outcome of outcomes) {
    const quantity = quantityOf.get(outcome.line) ?? 0;
    if ('delivered' in outcome) {
      toDeliver += quantity;
      delivered += outcome.delivered;
    } else {
      toCollect += quantity;
      collected += outcome.collected;
    }
  }
  if (type === 'Pickup' || type === 'Return') {
    return collected === toCollect ? 'Collected' : collected === 0 ? 'NotCollected' : 'PartiallyCollected';
  }
  if (toDeliver > 0 && delivered === 0) return 'Returned';
  return delivered === toDeliver && collected === toCollect ? 'FullyDelivered' : 'PartiallyDelivered';
}
