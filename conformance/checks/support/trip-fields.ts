/**
 * The names a target gives the trip members. The seeds describe a trip item's nine members in
 * order but name only `status`; D15 names the others, and a profile may name them its own way
 * (`profile.choices.tripFields`). Seed-level checks read trips with the target's names.
 */
import type { Profile, TripMember } from '../../engine/types/profile.ts';

/** The trip members in the seeds' order (01-integration-api.md › Trip). */
export const tripMembers: readonly TripMember[] = ['id', 'shortCode', 'status', 'warehouse', 'driver', 'vehicle', 'stopCount', 'plannedAt', 'updatedAt'];

/** D15's name of each trip member. */
export const decidedTripFields: Readonly<Record<TripMember, string>> = {
  id: 'id',
  shortCode: 'shortId',
  status: 'status',
  warehouse: 'warehouseId',
  driver: 'driverId',
  vehicle: 'vehicleId',
  stopCount: 'stopCount',
  plannedAt: 'plannedAtUtc',
  updatedAt: 'updatedAtUtc',
};

/** The target's name of each trip member: the profile's choice, else D15's (`status` is always `status`). */
export function tripFieldNames(profile: Pick<Profile, 'choices'>): Record<TripMember, string> {
  return { ...decidedTripFields, ...profile.choices?.tripFields, status: 'status' };
}
