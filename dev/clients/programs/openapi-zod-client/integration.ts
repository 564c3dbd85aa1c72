/**
 * The integration program with openapi-zod-client's Zodios client of spec/openapi.yaml
 * (`#client`). By design Zodios puts a path parameter into the URL as it is: the program encodes
 * the external id. What else it does not give is read in zodios-answers.ts.
 */
import { createApiClient } from '#client';
import { runIntegration } from '../integration-scenario.ts';
import { programInput, setupOf } from '../steps.ts';
import { answers } from './zodios-answers.ts';

const input = programInput();
const setup = setupOf(input);
const client = createApiClient(input.url, { axiosConfig: { headers: { 'X-Api-Key': setup.key } } });
const { plugin, answer } = answers();
client.use(plugin);
const path = (externalId: string) => ({ params: { externalId: encodeURIComponent(externalId) } });

await runIntegration(
  {
    orderFeed: (query) => answer(() => client.orderFeed({ queries: query })),
    tripFeed: () => answer(() => client.tripFeed()),
    attachPayment: (externalId, payment, idempotencyKey) =>
      answer(() => client.attachPayment(payment, { ...path(externalId), headers: { 'Idempotency-Key': idempotencyKey } })),
    cancelOrder: (externalId, reason) => answer(() => client.cancelOrder(reason === undefined ? undefined : { reason }, path(externalId))),
    archiveOrder: (externalId) => answer(() => client.archiveOrder(undefined, path(externalId))),
  },
  setup,
);
