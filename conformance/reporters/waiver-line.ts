/** How every reporter names the waiver that covered a failure. */
import type { Waiver } from '../engine/types/report.ts';

/** `waived (int.x): reason — granted by X, until 2026-12-31, link`. */
export function waiverLine(waiver: Waiver): string {
  return `waived${waiver.requirement ? ` (${waiver.requirement})` : ''}: ${waiver.reason} — granted by ${waiver.grantedBy}, until ${waiver.expires}, ${waiver.link}`;
}
