/** The control plane's program with @hey-api/openapi-ts's client of spec/sandbox.yaml (`#client`, client-fetch). */
import { createApiKey, createFault, createOrder, createTenant, importOrders, orderHistory } from '#client';
import { client } from '#client/client.gen.ts';
import { runControlPlane } from '../control-plane-scenario.ts';
import { programInput, shaped } from '../steps.ts';

const input = programInput();
client.setConfig({ baseUrl: `${input.url}/sandbox/v1`, headers: { Authorization: `Bearer ${input.adminToken}` } });

await runControlPlane(
  {
    async createTenant(tenant) {
      const { data, response } = await createTenant({ body: tenant });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async createApiKey(tenantId, key) {
      const { data, response } = await createApiKey({ path: { tenantId }, body: key });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async createOrder(tenantId, order) {
      const { data, response } = await createOrder({ path: { tenantId }, body: order });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async importOrders(tenantId, rows) {
      const { data, response } = await importOrders({ path: { tenantId }, body: { rows } });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async createFault(tenantId, rule) {
      const { data, response } = await createFault({ path: { tenantId }, body: rule });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async orderHistory(tenantId, orderId) {
      const { data, response } = await orderHistory({ path: { tenantId, orderId } });
      const entries = data?.items.map((entry) => ({ kind: entry.kind, data: shaped(entry.data) }));
      return { status: response.status, body: entries, problemType: undefined, headers: response.headers };
    },
  },
  input,
);
