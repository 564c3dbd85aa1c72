/**
 * Writes: attaching a payment (success, every validation rule, wrongly typed fields, a
 * repeated paymentId), cancelling (legal and illegal moves, the reason in the history),
 * archiving (204, then gone for every operation and from the feed; not while on a trip), and
 * 404 for an external id nobody holds. Each check writes only the pool ids the runner gave it,
 * and only those whose state, read from the order feed first, is the one it needs. Seed-level
 * checks never rest on a decision: where a decision picks the state or the code, a separate
 * DECISION check holds the target to it.
 */import type { Check } from '../../engine/types/check.ts';
import { decidedWriteChecks } from './decided.ts';
import { orderWriteChecks } from './orders.ts';
import { paymentChecks } from './payment.ts';

/** The writes family, in the order it runs. */
export const writesChecks: Check[] = [...paymentChecks, ...orderWriteChecks, ...decidedWriteChecks];
