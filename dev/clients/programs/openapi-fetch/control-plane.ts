/**
 * The control plane's program with openapi-typescript's types of spec/sandbox.yaml (`#client`)
 * and openapi-fetch.
 */
import createClient from 'openapi-fetch';
import type { paths } from '#client';
import { runControlPlane } from '../control-plane-scenario.ts';
import { programInput, shaped } from '../steps.ts';

const input = programInput();
const client = createClient<paths>({ baseUrl: `${input.url}/sandbox/v1`, headers: { Authorization: `Bearer ${input.adminToken}` } });

await runControlPlane(
  {
    async createTenant(tenant) {
      const { data, response } = await client.POST('/tenants', { body: tenant });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async createApiKey(tenantId, key) {
      const { data, response } = await client.POST('/tenants/{tenantId}/keys', { params: { path: { tenantId } }, body: key });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async createOrder(tenantId, order) {
      const { data, response } = await client.POST('/tenants/{tenantId}/orders', { params: { path: { tenantId } }, body: order });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async importOrders(tenantId, rows) {
      const { data, response } = await client.POST('/tenants/{tenantId}/order-imports', { params: { path: { tenantId } }, body: { rows } });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async createFault(tenantId, rule) {
      const { data, response } = await client.POST('/tenants/{tenantId}/faults', { params: { path: { tenantId } }, body: rule });
      return { status: response.status, body: data, problemType: undefined, headers: response.headers };
    },
    async orderHistory(tenantId, orderId) {
      const { data, response } = await client.GET('/tenants/{tenantId}/orders/{orderId}/history', { params: { path: { tenantId, orderId } } });
      const entries = data?.items.map((entry) => ({ kind: entry.kind, data: shaped(entry.data) }));
      return { status: response.status, body: entries, problemType: undefined, headers: response.headers };
    },
  },
  input,
);
