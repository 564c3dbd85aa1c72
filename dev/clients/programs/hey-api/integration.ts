/** The integration program with @hey-api/openapi-ts's client of spec/openapi.yaml (`#client`, client-fetch). */
import { archiveOrder, attachPayment, cancelOrder, orderFeed, tripFeed } from '#client';
import { client } from '#client/client.gen.ts';
import { runIntegration } from '../integration-scenario.ts';
import { problemCode, programInput, setupOf } from '../steps.ts';

const input = programInput();
const setup = setupOf(input);
client.setConfig({ baseUrl: input.url, headers: { 'X-Api-Key': setup.key } });

await runIntegration(
  {
    async orderFeed(query) {
      const { data, error, response } = await orderFeed({ query });
      return { status: response.status, body: data, problemType: problemCode(error?.type), headers: response.headers };
    },
    async tripFeed() {
      const { data, error, response } = await tripFeed();
      return { status: response.status, body: data, problemType: problemCode(error?.type), headers: response.headers };
    },
    async attachPayment(externalId, payment, idempotencyKey) {
      const { data, error, response } = await attachPayment({ path: { externalId }, headers: { 'Idempotency-Key': idempotencyKey }, body: payment });
      return { status: response.status, body: data, problemType: problemCode(error?.type), headers: response.headers };
    },
    async cancelOrder(externalId, reason) {
      const { data, error, response } = await cancelOrder(reason === undefined ? { path: { externalId } } : { path: { externalId }, body: { reason } });
      return { status: response.status, body: data, problemType: problemCode(error?.type), headers: response.headers };
    },
    async archiveOrder(externalId) {
      const { error, response } = await archiveOrder({ path: { externalId } });
      return { status: response.status, body: undefined, problemType: problemCode(error?.type), headers: response.headers };
    },
  },
  setup,
);
