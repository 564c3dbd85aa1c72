/**
 * The tenants `waybill serve` seeds: the demo tenant it creates on first start, and a
 * tenant of its own for a dataset it is asked to load. Each gets keys of every scope.
 */
import type { Dataset } from '../../fixtures/dataset.ts';
import { generateDataset } from '../../fixtures/generate.ts';
import { importDataset } from '../store/dataset.ts';
import type { Store } from '../store/index.ts';
import { SCOPES } from '../tenants/keys.ts';

/** The seed of the demo data: the same orders and trips on every machine. */
export const DEMO_SEED = 1;

/** A key created for a seeded tenant, with its secret (shown once). */
export interface SeededKey {
  name: string;
  scopes: string[];
  secret: string;
}

/** A tenant `seedTenantWithKeys` created: its keys and how many orders and trips it holds. */
export interface SeededTenant {
  tenantId: string;
  keys: SeededKey[];
  orders: number;
  trips: number;
}

/**
 * Creates a tenant (with `id` when given) holding `dataset`, and its keys named
 * `<keyPrefix>-full` (every scope) and one per scope; all in one transaction.
 */
export function seedTenantWithKeys(store: Store, tenant: { id?: string; name: string; country: string; keyPrefix: string }, dataset: Dataset): Promise<SeededTenant> {
  return store.sql.write(null, function* () {
    const { id: tenantId } = yield* store.tenants.steps.create({ name: tenant.name, country: tenant.country, ...(tenant.id === undefined ? {} : { id: tenant.id }) });
    const keyPlans: { name: string; scopes: string[] }[] = [
      { name: `${tenant.keyPrefix}-full`, scopes: [...SCOPES] },
      ...SCOPES.map((scope) => ({ name: `${tenant.keyPrefix}-${scope.replace(':', '-')}`, scopes: [scope] })),
    ];
    const keys: SeededKey[] = [];
    for (const plan of keyPlans) keys.push({ ...plan, secret: (yield* store.keys.steps.create({ tenantId, ...plan })).secret });
    return { tenantId, keys, ...(yield* importDataset(store.tenants, tenantId, dataset)) };
  });
}

/** Creates the demo tenant with its keys and data; returns the keys. */
export function seedDemo(store: Store): Promise<SeededTenant> {
  const dataset = generateDataset({ seed: DEMO_SEED, orders: 300, trips: 80 });
  return seedTenantWithKeys(store, { name: 'Demo Deliveries', country: 'NL', keyPrefix: 'demo' }, dataset);
}
