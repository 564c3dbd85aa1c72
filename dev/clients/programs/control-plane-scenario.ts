/**
 * The control plane's program every generated client of spec/sandbox.yaml runs: the setup of the
 * integration program (a tenant, a key, orders taken in one by one and imported, a fault rule for
 * its 429), and afterwards a look at the orders' history, which must show what it did.
 */
import { type Answer, bodyOf, CANCEL_REASON, expectValue, fieldOf, IMPORTED, intake, type OrderIntakeShape, ORDERS, PAYMENT, type Setup, setupOf, step, TRIP_FEED_THROTTLED, type ProgramInput } from './steps.ts';

/** The scopes of the key the integration program uses. */
export type Scope = 'orders:read' | 'orders:write' | 'trips:read';

/** What the scenario asks of a generated client of the control plane: each call, its answer as the client gave it. */
export interface ControlPlaneClient {
  createTenant(tenant: { name: string; country: string }): Promise<Answer<{ id: string }>>;
  createApiKey(tenantId: string, key: { name: string; scopes: Scope[] }): Promise<Answer<{ secret: string }>>;
  createOrder(tenantId: string, order: OrderIntakeShape): Promise<Answer<{ id: string }>>;
  importOrders(tenantId: string, rows: OrderIntakeShape[]): Promise<Answer<{ created: number; failed: number }>>;
  createFault(tenantId: string, rule: typeof TRIP_FEED_THROTTLED): Promise<Answer<{ id: string }>>;
  orderHistory(tenantId: string, orderId: string): Promise<Answer<{ kind: string; data: object }[]>>;
}

/** Sets up a tenant for the integration program with `client`, printing a line per step and then the setup. */
async function setUp(client: ControlPlaneClient): Promise<void> {
  let tenantId = '';
  let key = '';
  const ids = new Map<string, string>();
  await step('createTenant', async () => {
    tenantId = bodyOf('createTenant', await client.createTenant({ name: 'Generated client', country: 'NL' }), 201).id;
  });
  await step('createApiKey', async () => {
    key = bodyOf('createApiKey', await client.createApiKey(tenantId, { name: 'generated-client', scopes: ['orders:read', 'orders:write', 'trips:read'] }), 201).secret;
  });
  await step('createOrder', async () => {
    for (const externalId of Object.values(ORDERS)) ids.set(externalId, bodyOf(`createOrder ${externalId}`, await client.createOrder(tenantId, intake(externalId)), 201).id);
  });
  await step('importOrders', async () => {
    const result = bodyOf('importOrders', await client.importOrders(tenantId, IMPORTED.map(intake)), 200);
    expectValue('importOrders: created', result.created, IMPORTED.length);
  });
  await step('createFault', async () => {
    bodyOf('createFault', await client.createFault(tenantId, TRIP_FEED_THROTTLED), 201);
  });
  const order = (externalId: string) => ({ externalId, id: ids.get(externalId) ?? '' });
  const setup: Setup = {
    tenantId,
    key,
    externalIds: [...Object.values(ORDERS), ...IMPORTED],
    paid: order(ORDERS.paid),
    cancelledWithReason: order(ORDERS.cancelledWithReason),
    cancelledBare: order(ORDERS.cancelledBare),
  };
  console.log(JSON.stringify({ setup }));
}

/** Reads the history of the orders the integration program wrote to: one payment, and the reason of a cancel. */
async function verify(client: ControlPlaneClient, setup: Setup): Promise<void> {
  await step('orderHistory', async () => {
    const paid = bodyOf('orderHistory of the paid order', await client.orderHistory(setup.tenantId, setup.paid.id), 200);
    const payments = paid.filter((entry) => entry.kind === 'payment');
    expectValue('payments recorded for two calls under one Idempotency-Key', payments.length, 1);
    expectValue('the payment entry: paymentId', fieldOf(payments[0]?.data ?? {}, 'paymentId'), PAYMENT.paymentId);
    const cancelled = bodyOf('orderHistory of the cancelled order', await client.orderHistory(setup.tenantId, setup.cancelledWithReason.id), 200);
    expectValue('the cancel entry: reason', fieldOf(cancelled.find((entry) => entry.kind === 'cancel')?.data ?? {}, 'reason'), CANCEL_REASON);
  });
}

/** Runs the phase the test asks for (WAYBILL_CLIENT_PHASE): `setup` before the integration program, `verify` after it. */
export async function runControlPlane(client: ControlPlaneClient, input: ProgramInput): Promise<void> {
  if (process.env['WAYBILL_CLIENT_PHASE'] === 'verify') await verify(client, setupOf(input));
  else await setUp(client);
}
