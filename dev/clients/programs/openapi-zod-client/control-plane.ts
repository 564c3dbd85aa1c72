/** The control plane's program with openapi-zod-client's Zodios client of spec/sandbox.yaml (`#client`). */
import { createApiClient } from '#client';
import { runControlPlane } from '../control-plane-scenario.ts';
import { programInput, shaped } from '../steps.ts';
import { answers } from './zodios-answers.ts';

const input = programInput();
const client = createApiClient(`${input.url}/sandbox/v1`, { axiosConfig: { headers: { Authorization: `Bearer ${input.adminToken}` } } });
const { plugin, answer } = answers();
client.use(plugin);

await runControlPlane(
  {
    createTenant: (tenant) => answer(() => client.createTenant(tenant)),
    createApiKey: (tenantId, key) => answer(() => client.createApiKey(key, { params: { tenantId } })),
    createOrder: (tenantId, order) => answer(() => client.createOrder(order, { params: { tenantId } })),
    importOrders: (tenantId, rows) => answer(() => client.importOrders({ rows }, { params: { tenantId } })),
    createFault: (tenantId, rule) => answer(() => client.createFault(rule, { params: { tenantId } })),
    orderHistory: (tenantId, orderId) =>
      answer(async () => (await client.orderHistory({ params: { tenantId, orderId } })).items.map((entry) => ({ kind: entry.kind, data: shaped(entry.data) }))),
  },
  input,
);
