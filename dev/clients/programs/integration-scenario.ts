/**
 * The integration program every generated client of spec/openapi.yaml runs: follow the order
 * feed to its end, poll again with `since`, pay twice under one Idempotency-Key, cancel with and
 * without a body, archive, and branch on the problem `type` of a 400, 404, 409 and 429.
 */
import { type Answer, bodyOf, CANCEL_REASON, expectValue, ORDERS, PAYMENT, type OrderShape, type PageShape, pause, type Setup, step } from './steps.ts';

/** What the scenario asks of a generated client of the integration API: each call, its answer as the client gave it. */
export interface IntegrationClient {
  orderFeed(query: { since?: string; cursor?: string; limit?: number }): Promise<Answer<PageShape>>;
  tripFeed(): Promise<Answer<object>>;
  attachPayment(externalId: string, payment: { paymentId: string; amount: number; currency: string }, idempotencyKey: string): Promise<Answer<OrderShape>>;
  /** Without `reason`, a cancel that sends no body at all. */
  cancelOrder(externalId: string, reason?: string): Promise<Answer<OrderShape>>;
  archiveOrder(externalId: string): Promise<Answer<unknown>>;
}

/** Every order of the feed from `since` (or its start) to its end, `limit` a page. */
async function follow(client: IntegrationClient, what: string, since?: string): Promise<OrderShape[]> {
  const orders: OrderShape[] = [];
  let cursor: string | null = null;
  do {
    const query: { since?: string; cursor?: string; limit: number } = { limit: 2 };
    if (cursor !== null) query.cursor = cursor;
    else if (since !== undefined) query.since = since;
    const page = bodyOf(what, await client.orderFeed(query), 200);
    orders.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return orders;
}

/** The problem `type` of an answer that must be `status`, branched on as an integrator branches: the expected code passes, anything else throws. */
function expectProblem(what: string, answer: Answer<unknown>, status: number, expected: string): void {
  expectValue(`${what}: status`, answer.status, status);
  switch (answer.problemType) {
    case expected:
      return;
    case undefined:
      throw new Error(`${what}: the client gave no problem body`);
    default:
      throw new Error(`${what}: Expected: problem ${expected} / Received: ${JSON.stringify(answer.problemType)}`);
  }
}

/** Runs the integration scenario with `client` against the tenant of `setup`, printing a line per step. */
export async function runIntegration(client: IntegrationClient, setup: Setup): Promise<void> {
  const seen = new Set<string>();
  let syncedAt = '';
  await step('sync', async () => {
    const orders = await follow(client, 'order feed');
    for (const order of orders) seen.add(`${order.id}@${order.updatedAtUtc}`);
    const missing = setup.externalIds.filter((id) => !orders.some((order) => order.externalId === id));
    if (missing.length > 0) throw new Error(`Expected: every order taken in / Received: none of ${JSON.stringify(missing)}`);
    syncedAt = orders.at(-1)?.updatedAtUtc ?? '';
  });
  await step('since', async () => {
    // Inclusive (D4): the last order comes again, and de-duplication on id and stamp leaves nothing new.
    const orders = await follow(client, 'poll with since', syncedAt);
    if (orders.some((order) => order.updatedAtUtc < syncedAt)) throw new Error(`an order changed before since ${syncedAt}`);
    expectValue('orders new since the sync', orders.filter((order) => !seen.has(`${order.id}@${order.updatedAtUtc}`)).length, 0);
    if (orders.length === 0) throw new Error(`Expected: the order stamped ${syncedAt} again (since is inclusive) / Received: no order`);
  });
  const payment = { ...PAYMENT };
  let paid: OrderShape | undefined;
  await step('pay', async () => {
    const answer = await client.attachPayment(setup.paid.externalId, payment, 'pay-GC-1');
    paid = bodyOf('payment', answer, 200);
    expectValue('payment: externalId', paid.externalId, ORDERS.paid);
    expectValue('payment: Idempotent-Replayed', answer.headers.get('Idempotent-Replayed'), null);
  });
  await step('pay-replayed', async () => {
    const answer = await client.attachPayment(setup.paid.externalId, payment, 'pay-GC-1');
    const replayed = bodyOf('payment again', answer, 200);
    expectValue('payment again: Idempotent-Replayed', answer.headers.get('Idempotent-Replayed'), 'true');
    expectValue('payment again: updatedAtUtc, the first answer\'s', replayed.updatedAtUtc, paid?.updatedAtUtc);
  });
  await step('problem-400', async () => {
    // A body every client lets through (Zodios checks an amount of 0 itself), refused by the server: the key was used for another payment (D13).
    const answer = await client.attachPayment(setup.paid.externalId, { ...payment, amount: 99.5 }, 'pay-GC-1');
    expectProblem('another payment under the same Idempotency-Key', answer, 400, 'api.malformed_request');
  });
  await step('cancel-with-body', async () => {
    const order = bodyOf('cancel with a reason', await client.cancelOrder(setup.cancelledWithReason.externalId, CANCEL_REASON), 200);
    expectValue('cancel with a reason: status', order.status, 'Cancelled');
  });
  await step('cancel-without-body', async () => {
    const order = bodyOf('cancel without a body', await client.cancelOrder(setup.cancelledBare.externalId), 200);
    expectValue('cancel without a body: status', order.status, 'Cancelled');
  });
  await step('problem-409', async () => {
    expectProblem('cancel of a cancelled order', await client.cancelOrder(setup.cancelledWithReason.externalId, 'Again'), 409, 'orders.status.illegal');
  });
  await step('archive', async () => {
    expectValue('archive: status', (await client.archiveOrder(setup.cancelledWithReason.externalId)).status, 204);
  });
  await step('problem-404', async () => {
    expectProblem('archive of an archived order', await client.archiveOrder(setup.cancelledWithReason.externalId), 404, 'orders.notFound');
  });
  await step('problem-429', async () => {
    // The control plane's fault rule answers the next trip feed call 429; the client waits Retry-After and tries again.
    const throttled = await client.tripFeed();
    expectProblem('trip feed under a fault rule', throttled, 429, 'api.rate_limited');
    const retryAfter = Number(throttled.headers.get('Retry-After'));
    if (!(retryAfter >= 1)) throw new Error(`Expected: Retry-After of at least 1 / Received: ${throttled.headers.get('Retry-After')}`);
    await pause(retryAfter);
    expectValue('trip feed after Retry-After: status', (await client.tripFeed()).status, 200);
  });
  await step('changes', async () => {
    const orders = await follow(client, 'poll with since after the writes', syncedAt);
    const byExternalId = (externalId: string) => orders.filter((order) => order.externalId === externalId);
    expectValue('the paid order: its new stamp', byExternalId(setup.paid.externalId).at(-1)?.updatedAtUtc, paid?.updatedAtUtc);
    expectValue('the order cancelled without a body', byExternalId(setup.cancelledBare.externalId).at(-1)?.status, 'Cancelled');
    expectValue('the archived order: in the feed', byExternalId(setup.cancelledWithReason.externalId).length, 0);
  });
}
