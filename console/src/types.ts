/** The shapes the console reads from the control plane and the integration API (spec/sandbox.yaml, spec/openapi.yaml). */

import type { components } from '../../spec/openapi-types.ts';

type Schemas = components['schemas'];

/** Every order status, in life order (`OrderStatusName` of spec/openapi.yaml). */
export const ORDER_STATUSES: readonly Schemas['OrderStatusName'][] = [
  'New', 'InPlanning', 'Planned', 'InProgress', 'FullyDelivered', 'PartiallyDelivered', 'Returned',
  'Collected', 'PartiallyCollected', 'NotCollected', 'Refused', 'Cancelled', 'Closed',
];
export const ORDER_TYPES: readonly Schemas['OrderType'][] = ['Delivery', 'Pickup', 'Return', 'Rebox'];
export const TRIP_STATUSES: readonly Schemas['TripStatus'][] = ['Confirmed', 'InProgress', 'Completed', 'Cancelled'];
export const SCOPES = ['orders:read', 'orders:write', 'trips:read'] as const;
export const TENANT_STATES = ['Active', 'Suspended', 'Archived'] as const;

export interface Tenant {
  id: string;
  name: string;
  country: string;
  state: (typeof TENANT_STATES)[number];
  skills: string[];
  createdAtUtc: string;
}

export interface ApiKey {
  id: string;
  tenantId: string;
  name: string;
  scopes: string[];
  rateLimitPerMinute: number;
  createdAtUtc: string;
  revokedAtUtc: string | null;
}

export interface CreatedApiKey extends ApiKey {
  secret: string;
}

export interface Tag {
  id: string;
  name: string;
  color: string;
}

export interface MiniStatus {
  id: string;
  status: string;
  name: string;
  active: boolean;
}

/** An order as the feed reports it. */
export type Order = Schemas['Order'];

export interface OrderLine {
  id: string;
  line: number;
  warehouseId: string;
  productId: string;
  quantity: number;
  role: string;
  weightKg: number;
  volumeM3: number;
  price: number;
}

export interface OrderDetail extends Order {
  relatedToOrderId: string | null;
  tripId: string | null;
  archivedAtUtc: string | null;
  lines: OrderLine[];
}

export interface HistoryEntry {
  seq: number;
  atUtc: string;
  kind: string;
  data: Record<string, unknown>;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface ImportRow {
  row: number;
  externalId: string | null;
  orderId: string | null;
  type: string | null;
  detail: string | null;
  errors: { field: string; code: string; message: string }[];
}

export interface ImportResult {
  created: number;
  failed: number;
  rows: ImportRow[];
}

export interface StopLine {
  line: number;
  lineId: string;
  role: string;
  quantity: number;
  vocabulary: 'delivery' | 'collection';
  outcome: Record<string, number | string | null> | null;
}

export interface Stop {
  index: number;
  orderId: string;
  status: string;
  reasonCode: string | null;
  finishedAtUtc: string | null;
  lines: StopLine[];
}

/** A trip as the feed reports it. */
export type Trip = Schemas['Trip'];

export type TripDetail = Trip & {
  stops: Stop[];
};

/** The integration API's operations, as fault rules and the request log name them. */
export const INTEGRATION_OPERATIONS = ['orderFeed', 'tripFeed', 'attachPayment', 'cancelOrder', 'archiveOrder', 'whoami'] as const;
/** The writes: only they take a fault's `when` (D51). */
export const WRITE_OPERATIONS: readonly string[] = ['attachPayment', 'cancelOrder', 'archiveOrder'];
/** What a fault does to a call (`FaultKind`, D51). */
export const FAULT_KINDS = ['latency', 'status', 'reset', 'empty', 'malformed', 'stall'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A fault rule of a tenant (`FaultRule` of spec/sandbox.yaml). */
export interface FaultRule {
  id: string;
  operation: string;
  keyId: string | null;
  fault: FaultKind;
  status: 429 | 500 | 503 | null;
  retryAfterSeconds: number | null;
  /** The problem a 429 answers; null unless `status` is 429. */
  problemType: 'api.rate_limited' | 'idempotency.inFlight' | null;
  latencyMs: { min: number; max: number } | null;
  durationMs: number | null;
  when: 'before' | 'after' | null;
  times: number | null;
  remaining: number | null;
  probability: number | null;
  seed: number | null;
  matched: number;
  fired: number;
  createdAtUtc: string;
}

/** The fault a call met, as its request-log entry marks it (`RequestLogFault`). */
export interface RequestLogFault {
  fault: FaultKind;
  source: 'rule' | 'prefer';
  ruleId: string | null;
  when: 'before' | 'after' | null;
  latencyMs?: number;
}

/** A tenant's test clock (`Clock`, D52). */
export interface Clock {
  mode: 'system' | 'frozen' | 'offset';
  nowUtc: string;
  offsetMs: number;
}

/** The answer to an advance: the clock after it, and the changes the simulation made (`ClockAdvanced`). */
export interface ClockAdvanced {
  clock: Clock;
  changes: number;
}

/** A tenant's living-feed simulation (`Simulation`, D53). */
export interface Simulation {
  running: boolean;
  changesPerMinute: number | null;
  seed: number | null;
  unknownStatuses: boolean;
  startedAtUtc: string | null;
  changes: number;
  nextChangeAtUtc: string | null;
}
