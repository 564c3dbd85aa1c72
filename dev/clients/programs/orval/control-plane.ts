/**
 * The control plane's program with orval's fetch client of spec/sandbox.yaml (`#client`). By
 * design orval calls fetch with the path alone: the program gives fetch the control plane's base URL.
 */
import { createApiKey, createFault, createOrder, createTenant, importOrders, orderHistory } from '#client';
import { runControlPlane } from '../control-plane-scenario.ts';
import { programInput, shaped } from '../steps.ts';

const input = programInput();
const fetchFromOrigin = globalThis.fetch;
globalThis.fetch = (resource, init) => fetchFromOrigin(typeof resource === 'string' ? `${input.url}/sandbox/v1${resource}` : resource, init);
const options = { headers: { Authorization: `Bearer ${input.adminToken}` } };

await runControlPlane(
  {
    async createTenant(tenant) {
      const answer = await createTenant(tenant, options);
      return { status: answer.status, body: answer.status === 201 ? answer.data : undefined, problemType: undefined, headers: answer.headers };
    },
    async createApiKey(tenantId, key) {
      const answer = await createApiKey(tenantId, key, options);
      return { status: answer.status, body: answer.status === 201 ? answer.data : undefined, problemType: undefined, headers: answer.headers };
    },
    async createOrder(tenantId, order) {
      const answer = await createOrder(tenantId, order, options);
      return { status: answer.status, body: answer.status === 201 ? answer.data : undefined, problemType: undefined, headers: answer.headers };
    },
    async importOrders(tenantId, rows) {
      const answer = await importOrders(tenantId, { rows }, options);
      return { status: answer.status, body: answer.status === 200 ? answer.data : undefined, problemType: undefined, headers: answer.headers };
    },
    async createFault(tenantId, rule) {
      const answer = await createFault(tenantId, rule, options);
      return { status: answer.status, body: answer.status === 201 ? answer.data : undefined, problemType: undefined, headers: answer.headers };
    },
    async orderHistory(tenantId, orderId) {
      const answer = await orderHistory(tenantId, orderId, undefined, options);
      const entries = answer.status === 200 ? answer.data.items.map((entry) => ({ kind: entry.kind, data: shaped(entry.data) })) : undefined;
      return { status: answer.status, body: entries, problemType: undefined, headers: answer.headers };
    },
  },
  input,
);
