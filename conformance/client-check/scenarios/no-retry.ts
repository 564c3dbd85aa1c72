/**
 * Scenarios of answers that are verdicts: a 400, 401, 403, 404 or 409 is final for the request
 * that got it, so the client must not send the same request again.
 */
import { randomUUID } from 'node:crypto';
import { type ClientScenario, type ClientTask, type ScenarioSession, StagingError, type TaskInputs } from '../scenario.ts';
import { found, payableOrder, requestsOf } from './grading.ts';
import { clientKeyIs, orderIs } from './staging.ts';
import { counted } from '../../../cli/counted.ts';

/** The operation each write task calls. */
const operationOf: Partial<Record<ClientTask, string>> = { pay: 'attachPayment', cancel: 'cancelOrder', archive: 'archiveOrder' };

/** A scenario whose single request gets `status`: one attempt, never a second. */
function noRetry(options: { id: string; status: number; why: string; task: ClientTask; fix: string; key?: ClientScenario['key']; setup(session: ScenarioSession): Promise<TaskInputs>; staged(session: ScenarioSession): Promise<void> }): ClientScenario {
  const operation = operationOf[options.task] as string;
  return {
    id: options.id,
    title: `A ${options.status} (${options.why}) is not retried`,
    verifies: ['client.errors.final-verdict'],
    fix: options.fix,
    task: options.task,
    ...(options.key === undefined ? {} : { key: options.key }),
    setup: options.setup,
    staged: options.staged,
    async grade(_session, runs) {
      const attempts = requestsOf(runs, operation);
      if (attempts.length === 0) return [found(`The client never sent the ${options.task} request`, `one ${operation} request`, 'none in the request log', [])];
      const first = attempts[0]!;
      if (first.status !== options.status) {
        return [found(`The ${options.task} request did not get the ${options.status} the scenario stages`, `${options.status} (${options.why})`, `${first.status} ${first.problemType ?? ''}`, attempts)];
      }
      if (attempts.length > 1) return [found(`The client retried a ${options.status}`, `one request: a ${options.status} is the final answer to it`, `${attempts.length} requests`, attempts)];
      return [];
    },
  };
}

/** (b) Paying an order the tenant does not have: 404. */
export const noRetry404 = noRetry({
  id: 'client.no-retry.404',
  status: 404,
  why: 'no order with that external id',
  task: 'pay',
  fix: 'take a 404 as the final answer to that payment: report that no order carries the external id, and do not send the same request again (client.errors.final-verdict)',
  setup: async () => ({ externalId: 'CC-NO-SUCH-ORDER', paymentId: randomUUID(), amount: '12.50', currency: 'EUR' }),
  async staged(session) {
    // The tenant was made for the scenario and given no order: the external id names none.
    const { http, key } = await session.integration();
    const feed = await http.request({ method: 'GET', path: '/api/v1/integration/orders', key, query: { limit: 1 } });
    const items = (feed.json as { items?: unknown[] } | undefined)?.items;
    if (feed.status !== 200 || items === undefined || items.length > 0) throw new StagingError(`the tenant's order feed answered ${feed.status} with ${items === undefined ? 'no orders' : counted(items.length, 'order')}, not an empty page`);
  },
});

/**
 * (b) A payment in `ABC`, three capital letters but no ISO 4217 code: 400
 * `payments.currency.invalid`. A client checking the shape locally still sends it.
 */
export const noRetry400 = noRetry({
  id: 'client.no-retry.400',
  status: 400,
  why: 'a currency that is no ISO 4217 code',
  task: 'pay',
  fix: 'take a 400 as the final answer to that payment: report the field it names, and send a corrected payment (an ISO 4217 currency) as a new attempt under a new Idempotency-Key, never the same request again (client.errors.final-verdict)',
  setup: async (session) => ({ ...(await payableOrder(session, 'CC-PAY-ABC')), currency: 'ABC' }),
  staged: (session) => orderIs(session, 'New'),
});

/**
 * (b) Paying with a key revoked before the client starts: 401 (D22). The request log keeps a
 * revoked key's requests under its tenant (D48), so the attempts can be counted.
 */
export const noRetry401 = noRetry({
  id: 'client.no-retry.401',
  status: 401,
  why: 'a key revoked before the client ran',
  task: 'pay',
  fix: 'take a 401 as the final answer: report that the key is revoked or unknown, and send nothing more with it until it is replaced (client.errors.final-verdict)',
  async setup(session) {
    const inputs = await payableOrder(session, 'CC-PAY-REVOKED');
    await session.control.revokeKey(session.tenantId, session.clientKeyId);
    return inputs;
  },
  async staged(session) {
    await orderIs(session, 'New');
    await clientKeyIs(session, { revoked: true });
  },
});

/** (b) Paying with a key that may only read: 403 (D2). */
export const noRetry403 = noRetry({
  id: 'client.no-retry.403',
  status: 403,
  why: 'a key without orders:write',
  task: 'pay',
  fix: 'take a 403 as the final answer: report that the key lacks the orders:write scope, and do not send the write again with that key (client.errors.final-verdict)',
  key: { scopes: ['orders:read', 'trips:read'] },
  setup: (session) => payableOrder(session, 'CC-PAY-READONLY'),
  async staged(session) {
    await orderIs(session, 'New');
    await clientKeyIs(session, { scopes: ['orders:read', 'trips:read'], revoked: false });
  },
});

/** (b) Cancelling an order that is already Cancelled: 409 `orders.status.illegal` (D11). */
export const noRetry409 = noRetry({
  id: 'client.no-retry.409',
  status: 409,
  why: 'cancelling a Cancelled order',
  task: 'cancel',
  fix: "take a 409 as the final answer to that cancel: the order's status forbids it (it is Cancelled already), so report it and do not send the cancel again (client.errors.final-verdict)",
  async setup(session) {
    session.notes.set('orderId', await session.control.createOrder(session.tenantId, 'CC-CANCELLED'));
    const { http, key } = await session.integration();
    const answer = await http.request({ method: 'POST', path: '/api/v1/integration/orders/externalid/CC-CANCELLED/cancel', key, body: {} });
    if (answer.status !== 200) throw new Error(`setup: cancelling CC-CANCELLED answered ${answer.status}`);
    return { externalId: 'CC-CANCELLED' };
  },
  staged: (session) => orderIs(session, 'Cancelled'),
});
