/** The demo tenant `waybill serve` creates on first start: keys of every scope and a few hundred orders and trips. */
import { generateDataset } from '../fixtures/generate.ts';
import { makeDatasetImport } from './store/dataset.ts';
import type { Store } from './store/index.ts';
import { SCOPES } from './store/keys.ts';

/** The seed of the demo data: the same orders and trips on every machine. */
export const DEMO_SEED = 1;

/** A key created for the demo, with its secret (shown once). */
export interface DemoKey {
  name: string;
  scopes: string[];
  secret: string;
}

/** Creates the demo tenant with its keys and data; returns the keys. */
export function seedDemo(store: Store): { tenantId: string; keys: DemoKey[]; orders: number; trips: number } {
  const dataset = generateDataset({ seed: DEMO_SEED, orders: 300, trips: 80 });
  const tenant = store.tenants.create({ name: 'Demo Deliveries', country: 'NL' });
  const keyPlans: { name: string; scopes: string[] }[] = [
    { name: 'demo-full', scopes: [...SCOPES] },
    ...SCOPES.map((scope) => ({ name: `demo-${scope.replace(':', '-')}`, scopes: [scope] })),
  ];
  const keys = keyPlans.map((plan) => ({ ...plan, secret: store.keys.create({ tenantId: tenant.id, ...plan }).secret }));
  const counts = makeDatasetImport(store)(tenant.id, dataset);
  return { tenantId: tenant.id, keys, ...counts };
}
