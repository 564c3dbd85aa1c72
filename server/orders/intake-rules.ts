/** The rules of an order intake that look at more than one field (the schema checks each field; D36). */
import type { OrderType } from '../../spec/load.ts';
import { refuse } from '../domain/refusal.ts';
import type { components } from '../../spec/sandbox-types.ts';

/** A line role: Delivery hands goods over, PickUp collects them, Rebox only (`LineRole` of spec/sandbox.yaml). */
export type LineRole = components['schemas']['LineRole'];

/** One line of an intake, as validated by the schema (`OrderLineIntake`). */
export type LineIntake = components['schemas']['OrderLineIntake'];

/** An order to take in, as validated by the schema (`OrderIntake`). */
export type OrderIntake = components['schemas']['OrderIntake'];

// requirement: D92
/**
 * External ids no URL can carry (D92): a client's URL parser resolves `.` and `..` as path
 * segments (RFC 3986 §5.2.4; the WHATWG URL standard, `%2E` too), so no write could address them.
 */
const UNREACHABLE_EXTERNAL_IDS: ReadonlySet<string> = new Set(['.', '..']);

// requirement: D36
/** Refuses an external id no URL can carry, a Return without the order it returns, and a PickUp line on any order but a Rebox. */
export function checkIntake(intake: OrderIntake): void {
  if (UNREACHABLE_EXTERNAL_IDS.has(intake.externalId)) {
    refuse('api.malformed_request', `externalId ${intake.externalId} cannot be carried in a URL: clients resolve it as a path segment, so the order could not be paid, cancelled or archived; use another id.`, 'externalId', intake.externalId);
  }
  if (intake.type === 'Return' && (intake.relatedToOrderId ?? null) === null) {
    refuse('orders.return.relatedRequired', 'A Return order requires RelatedToOrderId.', 'relatedToOrderId', null);
  }
  intake.lines.forEach((line, i) => {
    if (line.role === 'PickUp' && intake.type !== 'Rebox') {
      refuse('orders.line.roleNotAllowed', `Only a Rebox order may carry a PickUp line; this order is a ${intake.type}.`, `lines[${i}].role`, line.role);
    }
  });
}
