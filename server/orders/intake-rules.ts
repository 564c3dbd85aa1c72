/** The rules of an order intake that look at more than one field (the schema checks each field; D36). */
import type { OrderType } from '../../spec/load.ts';
import { refuse } from '../domain/refusal.ts';

/** A line role: Delivery hands goods over, PickUp collects them (Rebox only). */
export type LineRole = 'Delivery' | 'PickUp';

/** One line of an intake, as validated by the schema. */
export interface LineIntake {
  warehouseId: string;
  productId: string;
  quantity: number;
  role?: LineRole;
  weightKg?: number;
  volumeM3?: number;
  price?: number;
}

/** An order to take in, as validated by the schema. */
export interface OrderIntake {
  externalId: string;
  type: OrderType;
  customId?: string | null;
  relatedToOrderId?: string | null;
  tags?: string[];
  lines: LineIntake[];
}

// requirement: D36
/** Refuses a Return without the order it returns, and a PickUp line on any order but a Rebox. */
export function checkIntake(intake: OrderIntake): void {
  if (intake.type === 'Return' && (intake.relatedToOrderId ?? null) === null) {
    refuse('orders.return.relatedRequired', 'A Return order requires RelatedToOrderId.', 'relatedToOrderId', null);
  }
  intake.lines.forEach((line, i) => {
    if (line.role === 'PickUp' && intake.type !== 'Rebox') {
      refuse('orders.line.roleNotAllowed', `Only a Rebox order may carry a PickUp line; this order is a ${intake.type}.`, `lines[${i}].role`, line.role);
    }
  });
}
