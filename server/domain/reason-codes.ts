/**
 * The reason codes the sandbox's own data gives: the living feed's changes (D53) and the
 * stories of seeded datasets. To the API a reason code is free text (D42); these are the
 * words a driver or a shop would use.
 */

/** Why a stop was not served (a Failed stop's `reasonCode`). */
export const FAILURE_REASONS = ['CustomerAbsent', 'AddressNotFound', 'AccessRefused', 'VehicleBreakdown', 'OutOfTime'];

/** Why some of a line was returned or not collected (a line's `reasonCode`). */
export const SHORTFALL_REASONS = ['Damaged', 'CustomerRefused', 'MissingItem', 'WrongItem'];

/** Why an order or a trip was cancelled. */
export const CANCEL_REASONS = ['CustomerRequest', 'DuplicateOrder', 'PaymentFailed', 'OutOfStock'];
