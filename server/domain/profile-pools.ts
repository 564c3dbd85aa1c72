/**
 * The order pools of a conformance profile (DESIGN.md): four disjoint sets of external ids
 * of live orders, picked so that the orders outside every pool still show every status and
 * type and still fill the feed the profile promises.
 */
import { canArchive, canCancel } from './order-rules.ts';

/** An order as the pool picker sees it. */
export interface PoolCandidate {
  externalId: string | null;
  status: string;
  type: string;
}

/** The pools of the main tenant. */
export interface OrderPools {
  payable: string[];
  cancellable: string[];
  notCancellable: string[];
  archivable: string[];
}

/** Which orders each pool takes, in the order the pools are filled (scarcest first). */
const poolRules: [keyof OrderPools, (status: string) => boolean][] = [
  ['cancellable', canCancel],
  ['notCancellable', (status) => !canCancel(status)],
  ['archivable', canArchive],
  ['payable', () => true],
];

/**
 * Picks `size` external ids per pool. The first `reserve` orders of every status and of
 * every type stay out of the pools, and so do at least `keep` orders; throws when the
 * orders cannot give that (a bug in the profile's dataset size, not a user error).
 */
export function pickPools(orders: readonly PoolCandidate[], options: { size: number; reserve: number; keep: number }): OrderPools {
  const reserved = new Set<number>();
  const counts = new Map<string, number>();
  orders.forEach((order, i) => {
    for (const kind of [`status:${order.status}`, `type:${order.type}`]) {
      const count = counts.get(kind) ?? 0;
      if (count < options.reserve) reserved.add(i);
      counts.set(kind, count + 1);
    }
  });
  const taken = new Set<number>();
  const pools: OrderPools = { payable: [], cancellable: [], notCancellable: [], archivable: [] };
  for (const [pool, fits] of poolRules) {
    orders.forEach((order, i) => {
      if (pools[pool].length < options.size && order.externalId !== null && !reserved.has(i) && !taken.has(i) && fits(order.status)) {
        pools[pool].push(order.externalId);
        taken.add(i);
      }
    });
    if (pools[pool].length < options.size) throw new Error(`the profile dataset has too few orders for the ${pool} pool`);
  }
  if (orders.length - taken.size < options.keep) throw new Error(`the profile dataset keeps fewer than ${options.keep} orders outside the pools`);
  return pools;
}
