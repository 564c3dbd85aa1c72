/**
 * The integration program's setup made by the test itself, over plain fetch, for a generator
 * whose control-plane client did not get as far: so that its integration client is still judged
 * on its own. The same tenant, key, orders and fault rule as control-plane-scenario.ts makes.
 */
import { IMPORTED, intake, ORDERS, type Setup, TRIP_FEED_THROTTLED } from './programs/steps.ts';

/** Sets up a tenant through the control plane at `url` with `adminToken`. */
export async function fallbackSetup(url: string, adminToken: string): Promise<Setup> {
  const call = async (path: string, body: unknown): Promise<{ id: string; secret?: string }> => {
    const answer = await fetch(`${url}/sandbox/v1${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`fallback setup: POST ${path} answered ${answer.status}: ${await answer.text()}`);
    const created: unknown = await answer.json();
    if (typeof created !== 'object' || created === null || !('id' in created) || typeof created.id !== 'string') throw new Error(`fallback setup: POST ${path} answered no id`);
    return { id: created.id, ...('secret' in created && typeof created.secret === 'string' ? { secret: created.secret } : {}) };
  };
  const tenantId = (await call('/tenants', { name: 'Generated client (fallback setup)', country: 'NL' })).id;
  const key = (await call(`/tenants/${tenantId}/keys`, { name: 'generated-client', scopes: ['orders:read', 'orders:write', 'trips:read'] })).secret ?? '';
  const order = async (externalId: string) => ({ externalId, id: (await call(`/tenants/${tenantId}/orders`, intake(externalId))).id });
  const [paid, cancelledWithReason, cancelledBare] = [await order(ORDERS.paid), await order(ORDERS.cancelledWithReason), await order(ORDERS.cancelledBare)];
  await call(`/tenants/${tenantId}/order-imports`, { rows: IMPORTED.map(intake) });
  await call(`/tenants/${tenantId}/faults`, TRIP_FEED_THROTTLED);
  return { tenantId, key, externalIds: [...Object.values(ORDERS), ...IMPORTED], paid, cancelledWithReason, cancelledBare };
}
