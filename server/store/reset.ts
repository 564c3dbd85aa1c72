/** Empties the sandbox (D38): every tenant and everything it holds; `meta` (the cursor signing key) stays. */
import type { Clocks } from '../clock/store.ts';
import type { Faults } from '../faults/store.ts';
import type { Keys } from '../tenants/keys.ts';
import { q, type Sql, statement } from './sql.ts';

// Children before parents, so that no foreign key is ever left dangling.
const TABLES = [
  'rate_limit_buckets', 'idempotency_in_flight', 'fault_rules', 'tenant_clocks', 'simulations', 'idempotency', 'trip_stops', 'ministatuses', 'order_history', 'order_payments', 'order_lines',
  'orders', 'trips', 'tags', 'products', 'vehicles', 'drivers', 'warehouses', 'api_keys', 'tenants',
];
const DELETES = TABLES.map((table) => statement(`DELETE FROM ${table}`));

// requirement: D38
/** The reset, as one transaction; the tenants' clocks (D52), fault rules (D51) and keys forget them too. */
export function makeReset(sql: Sql, caches: { clocks: Pick<Clocks, 'load'>; faults: Pick<Faults, 'load' | 'settle'>; keys: Pick<Keys, 'forget'> }): () => Promise<void> {
  return async () => {
    // A counter written after the reset would find no rule; written before, it is deleted.
    await caches.faults.settle();
    await sql.write(null, function* () {
      for (const remove of DELETES) yield* q.run(remove);
    });
    caches.keys.forget(null);
    await caches.clocks.load();
    await caches.faults.load();
  };
}
