/**
 * The integration program with orval's fetch client of spec/openapi.yaml (`#client`). By design
 * orval puts a path parameter into the URL as it is and calls fetch with the path alone: the
 * program encodes the external id, and gives fetch the sandbox's base URL.
 */
import { archiveOrder, attachPayment, cancelOrder, orderFeed, tripFeed } from '#client';
import { runIntegration } from '../integration-scenario.ts';
import { problemCode, programInput, setupOf } from '../steps.ts';

const input = programInput();
const setup = setupOf(input);
const fetchFromOrigin = globalThis.fetch;
globalThis.fetch = (resource, init) => fetchFromOrigin(typeof resource === 'string' ? `${input.url}${resource}` : resource, init);
const options = { headers: { 'X-Api-Key': setup.key } };
const withKey = (idempotencyKey: string) => ({ headers: { ...options.headers, 'Idempotency-Key': idempotencyKey } });

await runIntegration(
  {
    async orderFeed(query) {
      const answer = await orderFeed(query, options);
      return answer.status === 200
        ? { status: answer.status, body: answer.data, problemType: undefined, headers: answer.headers }
        : { status: answer.status, body: undefined, problemType: problemCode(answer.data.type), headers: answer.headers };
    },
    async tripFeed() {
      const answer = await tripFeed(undefined, options);
      return answer.status === 200
        ? { status: answer.status, body: answer.data, problemType: undefined, headers: answer.headers }
        : { status: answer.status, body: undefined, problemType: problemCode(answer.data.type), headers: answer.headers };
    },
    async attachPayment(externalId, payment, idempotencyKey) {
      const answer = await attachPayment(encodeURIComponent(externalId), payment, withKey(idempotencyKey));
      return answer.status === 200
        ? { status: answer.status, body: answer.data, problemType: undefined, headers: answer.headers }
        : { status: answer.status, body: undefined, problemType: problemCode(answer.data.type), headers: answer.headers };
    },
    async cancelOrder(externalId, reason) {
      const answer = await cancelOrder(encodeURIComponent(externalId), reason === undefined ? undefined : { reason }, options);
      return answer.status === 200
        ? { status: answer.status, body: answer.data, problemType: undefined, headers: answer.headers }
        : { status: answer.status, body: undefined, problemType: problemCode(answer.data.type), headers: answer.headers };
    },
    async archiveOrder(externalId) {
      const answer = await archiveOrder(encodeURIComponent(externalId), options);
      return answer.status === 204
        ? { status: answer.status, body: undefined, problemType: undefined, headers: answer.headers }
        : { status: answer.status, body: undefined, problemType: problemCode(answer.data.type), headers: answer.headers };
    },
  },
  setup,
);
