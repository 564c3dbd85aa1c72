/** What sets the fault kinds apart, shared by the rules, `Prefer` and the plan of a call (D51). */
import type { FaultKind } from './store.ts';

/** True for the faults that need the call's answer (`malformed` cuts it, `stall` dribbles it): they strike after the effect (D51). */
export function needsAnswer(fault: FaultKind): boolean {
  return fault === 'malformed' || fault === 'stall';
}
