/** Empties the sandbox (D38): every tenant and everything it holds; `meta` (the cursor signing key) stays. */
import type { Clocks } from '../clock/store.ts';
import { type Db, transaction } from './db.ts';
import type { Faults } from '../faults/store.ts';

// Children before parents, so that no foreign key is ever left dangling.
const TABLES = [
  'fault_rules', 'tenant_clocks', 'simulations', 'idempotency', 'trip_stops', 'ministatuses', 'order_history', 'order_payments', 'order_lines',
  'orders', 'trips', 'tags', 'products', 'vehicles', 'drivers', 'warehouses', 'api_keys', 'tenants',
];

// requirement: D38
/** The reset, as one transaction; the tenants' clocks (D52) and fault rules (D51) forget them too. */
export function makeReset(db: Db, clocks: Clocks, faults: Pick<Faults, 'reload'>): () => void {
  const statements = TABLES.map((table) => db.prepare(`DELETE FROM ${table}`));
  const deleteAll = transaction(db, () => {
    for (const statement of statements) statement.run();
  });
  return () => {
    deleteAll();
    clocks.reload();
    faults.reload();
  };
}
