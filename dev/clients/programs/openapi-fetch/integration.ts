/**
 * The integration program with openapi-typescript's types of spec/openapi.yaml (`#client`) and
 * openapi-fetch.
 */
import createClient from 'openapi-fetch';
import type { paths } from '#client';
import { runIntegration } from '../integration-scenario.ts';
import { problemCode, programInput, setupOf } from '../steps.ts';

const input = programInput();
const setup = setupOf(input);
const client = createClient<paths>({ baseUrl: input.url, headers: { 'X-Api-Key': setup.key } });

await runIntegration(
  {
    async orderFeed(query) {
      const { data, error, response } = await client.GET('/api/v1/integration/orders', { params: { query } });
      return { status: response.status, body: data, problemType: problemCode(error?.type), headers: response.headers };
    },
    async tripFeed() {
      const { data, error, response } = await client.GET('/api/v1/integration/trips');
      return { status: response.status, body: data, problemType: problemCode(error?.type), headers: response.headers };
    },
    async attachPayment(externalId, payment, idempotencyKey) {
      const { data, error, response } = await client.POST('/api/v1/integration/orders/externalid/{externalId}/payment', {
        params: { path: { externalId }, header: { 'Idempotency-Key': idempotencyKey } },
        body: payment,
      });
      return { status: response.status, body: data, problemType: problemCode(error?.type), headers: response.headers };
    },
    async cancelOrder(externalId, reason) {
      const path = '/api/v1/integration/orders/externalid/{externalId}/cancel';
      const { data, error, response } = await (reason === undefined
        ? client.POST(path, { params: { path: { externalId } } })
        : client.POST(path, { params: { path: { externalId } }, body: { reason } }));
      return { status: response.status, body: data, problemType: problemCode(error?.type), headers: response.headers };
    },
    async archiveOrder(externalId) {
      const { error, response } = await client.DELETE('/api/v1/integration/orders/externalid/{externalId}', { params: { path: { externalId } } });
      return { status: response.status, body: undefined, problemType: problemCode(error?.type), headers: response.headers };
    },
  },
  setup,
);
