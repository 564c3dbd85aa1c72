/**
 * The order pools of a conformance profile (D39): five disjoint sets of external ids of live
 * orders, picked so that the orders outside every pool still show every status and type and
 * still fill the feed the profile promises.
 */
import { canArchive, canCancel, NOT_ARCHIVABLE } from '../orders/rules.ts';

/** An order as the pool picker sees it. */
export interface PoolCandidate {
  externalId: string | null;
  status: string;
  type: string;
}

/** The pools of the main tenant. */
export interface OrderPools {
  onTrip: string[];
  cancellable: string[];
  notCancellable: string[];
  archivable: string[];
  payable: string[];
}

/** What one pool takes: the statuses that fit it, and whether it takes them in turn (a mix) or in dataset order. */
interface PoolRule {
  pool: keyof OrderPools;
  fits: (status: string) => boolean;
  mixed: boolean;
}

/**
 * The pools in the order they are filled, scarcest first: `onTrip` (Planned or InProgress, a
 * mix of both), then `cancellable`, which also takes Planned orders, and the rest.
 */
const poolRules: readonly PoolRule[] = [
  { pool: 'onTrip', fits: (status) => NOT_ARCHIVABLE.has(status), mixed: true },
  { pool: 'cancellable', fits: canCancel, mixed: false },
  { pool: 'notCancellable', fits: (status) => !canCancel(status), mixed: false },
  { pool: 'archivable', fits: canArchive, mixed: false },
  { pool: 'payable', fits: () => true, mixed: false },
];

/** Pool sizes: `size` for every pool unless `sizes` names its own. */
export interface PoolOptions {
  size: number;
  sizes?: Partial<Record<keyof OrderPools, number>>;
  /** The first `reserve` orders of every status and of every type stay out of the pools. */
  reserve: number;
  /** At least this many orders stay out of the pools. */
  keep: number;
}

/** The indexes of the first `reserve` orders of every status and of every type. */
function reservedIndexes(orders: readonly PoolCandidate[], reserve: number): Set<number> {
  const reserved = new Set<number>();
  const counts = new Map<string, number>();
  orders.forEach((order, i) => {
    for (const kind of [`status:${order.status}`, `type:${order.type}`]) {
      const count = counts.get(kind) ?? 0;
      if (count < reserve) reserved.add(i);
      counts.set(kind, count + 1);
    }
  });
  return reserved;
}

/** `indexes` taken one status at a time in turn (first of each status, then second, …), each status in dataset order. */
function inTurnByStatus(orders: readonly PoolCandidate[], indexes: readonly number[]): number[] {
  const byStatus = new Map<string, number[]>();
  for (const i of indexes) byStatus.set(orders[i]!.status, [...(byStatus.get(orders[i]!.status) ?? []), i]);
  const queues = [...byStatus.values()];
  const longest = Math.max(0, ...queues.map((queue) => queue.length));
  return Array.from({ length: longest }, (_, round) => queues.flatMap((queue) => (round < queue.length ? [queue[round]!] : []))).flat();
}

/**
 * Picks the external ids of every pool (`sizes[pool]` or `size` each), disjoint, outside the
 * reserve, with at least `keep` orders left over; throws when the orders cannot give that (a
 * bug in the profile's dataset size, not a user error).
 */
export function pickPools(orders: readonly PoolCandidate[], options: PoolOptions): OrderPools {
  const reserved = reservedIndexes(orders, options.reserve);
  const taken = new Set<number>();
  const pools: OrderPools = { onTrip: [], cancellable: [], notCancellable: [], archivable: [], payable: [] };
  for (const { pool, fits, mixed } of poolRules) {
    const size = options.sizes?.[pool] ?? options.size;
    const free = orders.flatMap((order, i) => (order.externalId !== null && !reserved.has(i) && !taken.has(i) && fits(order.status) ? [i] : []));
    const chosen = (mixed ? inTurnByStatus(orders, free) : free).slice(0, size);
    if (chosen.length < size) throw new Error(`the profile dataset has too few orders for the ${pool} pool (${chosen.length} of ${size})`);
    for (const i of chosen) {
      pools[pool].push(orders[i]!.externalId!);
      taken.add(i);
    }
  }
  if (orders.length - taken.size < options.keep) throw new Error(`the profile dataset keeps fewer than ${options.keep} orders outside the pools`);
  return pools;
}
