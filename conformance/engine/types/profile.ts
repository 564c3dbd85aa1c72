/**
 * What a target supplies to the suite: its profile (keys, order pools, feeds, control plane)
 * and its own choices where a decision only names things.
 */

/** The API keys a profile can name. */
export type KeyName =
  | 'full'
  | 'ordersRead'
  | 'tripsRead'
  | 'noScopes'
  | 'otherTenant'
  | 'revoked'
  | 'rateLimited'
  | 'suspendedTenant';

/**
 * The pools of order external ids a profile can supply. `onTrip`: orders on a trip (Planned or
 * InProgress). A check reads each id's state before it relies on it (`support/pool-state.ts`).
 */
export type PoolName = 'payable' | 'cancellable' | 'notCancellable' | 'archivable' | 'onTrip' | 'otherTenant';

/**
 * The trip members the seeds describe without naming (01-integration-api.md › Trip), in their
 * order; `status` is the one the seeds name.
 */
export type TripMember = 'id' | 'shortCode' | 'status' | 'warehouse' | 'driver' | 'vehicle' | 'stopCount' | 'plannedAt' | 'updatedAt';

/**
 * The target's own choices where a decision only names things; each defaults to waybill's.
 * Seed-level checks read the target with them; only DECISION checks compare them with waybill's.
 */
export interface TargetChoices {
  /** D15: the name of each trip member (`status` is fixed by the seeds). */
  tripFields?: Partial<Record<Exclude<TripMember, 'status'>, string>>;
  /** D2: the scope payment, cancel and archive need. */
  writeScope?: string;
}

/** What a target supplies to the suite (`conformance/profile.schema.json`). */
export interface Profile {
  target?: string;
  auth?: { header: string; prefix?: string };
  keys: { full: string } & Partial<Record<Exclude<KeyName, 'full' | 'rateLimited'>, string>> & {
    rateLimited?: { key: string; perMinute: number };
  };
  orders?: Partial<Record<PoolName, string[]>>;
  /** Trip ids: `otherTenant` holds trips of the otherTenant key's tenant. */
  trips?: { otherTenant?: string[] };
  feeds?: { minOrders?: number; minTrips?: number };
  /** The target's own names where a decision only names things (trip fields, write scope). */
  choices?: TargetChoices;
  sandbox?: { url: string; token: string };
}
