/**
 * Every catalog code the sandbox answers, produced over HTTP and checked for status, `type`,
 * the catalog's `title` (D89) and the field named in `errors` (D24). The first table must hold
 * exactly the codes marked `reach: sandbox` in spec/errors.yaml and the integration table those
 * marked `reach: integration`, so a code of either no test produces fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog, catalogEntry, type CatalogCode } from '../../spec/load.ts';
import { type Answer, call, memoryStore, orderIntake, rawRequest, type RunningServer, sandboxClient, type SandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';

let server: RunningServer;
let api: SandboxClient;
let counter = 0;

beforeAll(async () => {
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  api = sandboxClient(server.url);
});
afterAll(() => server.close());

const unknownId = '00000000-0000-4000-8000-000000000000';

async function tenant(): Promise<string> {
  const answer = await api('createTenant', '/tenants', { json: { country: 'NL' } });
  expect(answer.status).toBe(201);
  return answer.body.id;
}

async function order(tenantId: string, overrides: Record<string, unknown> = {}): Promise<{ id: string; externalId: string }> {
  const answer = await api('createOrder', `/tenants/${tenantId}/orders`, { json: orderIntake(`COV-${++counter}`, overrides) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** A tenant with a one-stop trip (of a Delivery of 2), started unless `start` is false. */
async function trip(options: { start?: boolean } = {}): Promise<{ tenantId: string; tripId: string; path: string }> {
  const tenantId = await tenant();
  const { id } = await order(tenantId);
  const built = await api('buildTrip', `/tenants/${tenantId}/trips`, { json: { orderIds: [id] } });
  expect(built.status).toBe(201);
  const path = `/tenants/${tenantId}/trips/${built.body.id}`;
  if (options.start !== false) expect((await api('startTrip', `${path}/start`)).status).toBe(200);
  return { tenantId, tripId: built.body.id, path };
}

const outcome = (path: string, json: unknown, stop = 0) => api('recordStopOutcome', `${path}/stops/${stop}/outcome`, { json });

async function keyPath(): Promise<string> {
  const tenantId = await tenant();
  const key = await api('createApiKey', `/tenants/${tenantId}/keys`, { json: { name: 'k', scopes: [] } });
  return `/tenants/${tenantId}/keys/${key.body.id}`;
}

async function orderPath(): Promise<string> {
  const tenantId = await tenant();
  return `/tenants/${tenantId}/orders/${(await order(tenantId)).id}`;
}

async function createOrder(overrides: Record<string, unknown>, lineOverrides?: Record<string, unknown>): Promise<Answer> {
  const body = orderIntake('COV-BAD', overrides);
  if (lineOverrides !== undefined) body['lines'] = [{ ...(body['lines'] as object[])[0], ...lineOverrides }];
  for (const [key, value] of Object.entries(body)) if (value === undefined) delete body[key];
  const line = (body['lines'] as Record<string, unknown>[] | undefined)?.[0];
  if (line) for (const [key, value] of Object.entries(line)) if (value === undefined) delete line[key];
  return api('createOrder', `/tenants/${await tenant()}/orders`, { json: body });
}

/** A scenario producing `code` with `status`; `field` is the errors[0].field of a 400 (or of the import row). */
interface Scenario {
  code: CatalogCode;
  status: number;
  field?: string;
  run(): Promise<Answer>;
}

const sandboxScenarios: Scenario[] = [
  // API keys
  { code: 'apikeys.name_required', status: 400, field: 'name', run: async () => api('createApiKey', `/tenants/${await tenant()}/keys`, { json: { name: '  ', scopes: [] } }) },
  { code: 'apikeys.invalid_scope', status: 400, field: 'scopes[1]', run: async () => api('createApiKey', `/tenants/${await tenant()}/keys`, { json: { name: 'k', scopes: ['orders:read', 'orders:delete'] } }) },
  { code: 'apikeys.invalid_rate_limit', status: 400, field: 'rateLimitPerMinute', run: async () => api('createApiKey', `/tenants/${await tenant()}/keys`, { json: { name: 'k', scopes: [], rateLimitPerMinute: 0 } }) },
  { code: 'apikeys.rate_limit_above_max', status: 400, field: 'rateLimitPerMinute', run: async () => api('createApiKey', `/tenants/${await tenant()}/keys`, { json: { name: 'k', scopes: [], rateLimitPerMinute: 6001 } }) },
  { code: 'apikeys.not_found', status: 404, run: async () => api('revokeApiKey', `/tenants/${await tenant()}/keys/key_nosuchkey000/revoke`) },
  {
    code: 'apikeys.already_revoked',
    status: 409,
    run: async () => {
      const path = await keyPath();
      expect((await api('revokeApiKey', `${path}/revoke`)).status).toBe(200);
      return api('revokeApiKey', `${path}/revoke`);
    },
  },
  // Audit and import
  { code: 'audit.page.retired', status: 400, field: 'page', run: async () => api('orderHistory', `${await orderPath()}/history?page=2`) },
  { code: 'audit.cursor.invalid', status: 400, field: 'after', run: async () => api('orderHistory', `${await orderPath()}/history?after=bm90LWlzc3VlZA.AAAA`) },
  { code: 'import.file.invalid', status: 400, field: 'rows[1]', run: async () => api('importOrders', `/tenants/${await tenant()}/order-imports`, { json: { rows: [orderIntake('IMP-1'), 'SHOP-2'] } }) },
  {
    code: 'import.rows.too_many',
    status: 400,
    field: 'rows',
    run: async () => api('importOrders', `/tenants/${await tenant()}/order-imports`, { json: { rows: Array.from({ length: 1001 }, (_, i) => orderIntake(`IMP-${i}`)) } }),
  },
  { code: 'import.row.invalid', status: 200, field: 'lines[0].quantity', run: async () => api('importOrders', `/tenants/${await tenant()}/order-imports`, { json: { rows: [orderIntake('IMP-1', { lines: [{ ...(orderIntake('x')['lines'] as object[])[0], quantity: 0 }] })] } }) },
  // Mini-statuses and tags
  { code: 'ministatuses.name.invalid', status: 400, field: 'name', run: async () => api('createMiniStatus', `/tenants/${await tenant()}/ministatuses`, { json: { status: 'New', name: 'x'.repeat(65) } }) },
  {
    code: 'ministatuses.duplicate',
    status: 409,
    run: async () => {
      const tenantId = await tenant();
      expect((await api('createMiniStatus', `/tenants/${tenantId}/ministatuses`, { json: { status: 'New', name: 'Awaiting stock' } })).status).toBe(201);
      return api('createMiniStatus', `/tenants/${tenantId}/ministatuses`, { json: { status: 'New', name: 'awaiting STOCK' } });
    },
  },
  { code: 'ministatuses.notFound', status: 404, run: async () => api('deactivateMiniStatus', `/tenants/${await tenant()}/ministatuses/${unknownId}`) },
  {
    code: 'tags.duplicate',
    status: 409,
    run: async () => {
      const tenantId = await tenant();
      expect((await api('createTag', `/tenants/${tenantId}/tags`, { json: { name: 'Fragile', color: '#41EEBA' } })).status).toBe(201);
      return api('createTag', `/tenants/${tenantId}/tags`, { json: { name: 'FRAGILE', color: '#000000' } });
    },
  },
  { code: 'tags.notFound', status: 404, run: async () => api('updateTag', `/tenants/${await tenant()}/tags/${unknownId}`, { json: { color: '#000000' } }) },
  { code: 'tags.name.invalid', status: 400, field: 'name', run: async () => api('createTag', `/tenants/${await tenant()}/tags`, { json: { name: '', color: '#41EEBA' } }) },
  { code: 'tags.color.invalid', status: 400, field: 'color', run: async () => api('createTag', `/tenants/${await tenant()}/tags`, { json: { name: 'Fragile', color: 'red' } }) },
  // Orders
  {
    code: 'orders.duplicate',
    status: 409,
    run: async () => {
      const tenantId = await tenant();
      expect((await api('createOrder', `/tenants/${tenantId}/orders`, { json: orderIntake('SHOP-1') })).status).toBe(201);
      return api('createOrder', `/tenants/${tenantId}/orders`, { json: orderIntake('SHOP-1') });
    },
  },
  { code: 'orders.lines.required', status: 400, field: 'lines', run: () => createOrder({ lines: [] }) },
  { code: 'orders.notArchived', status: 409, run: async () => api('restoreOrder', `${await orderPath()}/restore`) },
  { code: 'orders.price.invalid', status: 400, field: 'lines[0].price', run: () => createOrder({}, { price: -0.01 }) },
  { code: 'orders.miniStatus.invalid', status: 400, field: 'miniStatus', run: async () => api('setOrderMiniStatus', `${await orderPath()}/mini-status`, { json: { miniStatus: 'x'.repeat(129) } }) },
  { code: 'orders.miniStatus.unknown', status: 400, field: 'miniStatus', run: async () => api('setOrderMiniStatus', `${await orderPath()}/mini-status`, { json: { miniStatus: 'Left with neighbour' } }) },
  { code: 'orders.externalId.required', status: 400, field: 'externalId', run: () => createOrder({ externalId: undefined }) },
  { code: 'orders.return.relatedRequired', status: 400, field: 'relatedToOrderId', run: () => createOrder({ type: 'Return' }) },
  { code: 'orders.line.warehouseRequired', status: 400, field: 'lines[0].warehouseId', run: () => createOrder({}, { warehouseId: undefined }) },
  { code: 'orders.line.roleNotAllowed', status: 400, field: 'lines[0].role', run: () => createOrder({ type: 'Pickup' }, { role: 'PickUp' }) },
  { code: 'orders.line.productRequired', status: 400, field: 'lines[0].productId', run: () => createOrder({}, { productId: undefined }) },
  { code: 'orders.line.requestedQty.invalid', status: 400, field: 'lines[0].quantity', run: () => createOrder({}, { quantity: 0 }) },
  { code: 'orders.line.measure.invalid', status: 400, field: 'lines[0].volumeM3', run: () => createOrder({}, { volumeM3: -1 }) },
  // Planning
  { code: 'planning.trip_not_confirmed', status: 409, run: async () => api('startTrip', `${(await trip()).path}/start`) },
  { code: 'planning.trip_not_in_progress', status: 409, run: async () => api('completeTrip', `${(await trip({ start: false })).path}/complete`) },
  { code: 'planning.trip_has_open_stops', status: 409, run: async () => api('completeTrip', `${(await trip()).path}/complete`) },
  { code: 'planning.trip_no_lines', status: 400, field: 'orderIds', run: async () => api('buildTrip', `/tenants/${await tenant()}/trips`, { json: { orderIds: [] } }) },
  {
    code: 'planning.order_line_already_assigned',
    status: 409,
    run: async () => {
      const { tenantId, path } = await trip({ start: false });
      const planned = (await api('getTrip', path)).body.stops[0].orderId;
      return api('buildTrip', `/tenants/${tenantId}/trips`, { json: { orderIds: [planned] } });
    },
  },
  { code: 'planning.trip_not_found', status: 404, run: async () => api('getTrip', `/tenants/${await tenant()}/trips/${unknownId}`) },
  {
    code: 'planning.order_not_plannable',
    status: 400,
    field: 'orderIds[1]',
    run: async () => {
      const tenantId = await tenant();
      return api('buildTrip', `/tenants/${tenantId}/trips`, { json: { orderIds: [(await order(tenantId)).id, unknownId] } });
    },
  },
  // Trips and stops
  {
    code: 'trips.stop.illegalTransition',
    status: 409,
    run: async () => {
      const { path } = await trip();
      expect((await outcome(path, { lines: [{ line: 0, delivered: 2 }] })).status).toBe(200);
      return outcome(path, { lines: [{ line: 0, delivered: 2 }] });
    },
  },
  { code: 'trips.stop.reasonRequired', status: 400, field: 'reasonCode', run: async () => outcome((await trip()).path, { status: 'Failed' }) },
  { code: 'trips.stop.notFound', status: 404, run: async () => outcome((await trip()).path, { lines: [{ line: 0, delivered: 2 }] }, 5) },
  {
    code: 'trips.stop.tripNotActive',
    status: 409,
    run: async () => {
      const { path } = await trip();
      expect((await api('cancelTrip', `${path}/cancel`, { json: { reasonCode: 'VehicleBreakdown' } })).status).toBe(200);
      return outcome(path, { lines: [{ line: 0, delivered: 2 }] });
    },
  },
  { code: 'trips.outcomes.lineMismatch', status: 400, field: 'lines', run: async () => outcome((await trip()).path, { lines: [] }) },
  { code: 'trips.outcomes.invariantViolation', status: 400, field: 'lines[0]', run: async () => outcome((await trip()).path, { lines: [{ line: 0, delivered: 1 }] }) },
  { code: 'trips.outcomes.wrongVocabulary', status: 400, field: 'lines[0]', run: async () => outcome((await trip()).path, { lines: [{ line: 0, collected: 2 }] }) },
  { code: 'trips.outcomes.reasonRequired', status: 400, field: 'lines[0].reasonCode', run: async () => outcome((await trip()).path, { lines: [{ line: 0, delivered: 1, returned: 1 }] }) },
  {
    code: 'trips.mutation.tripNotCancelable',
    status: 409,
    run: async () => {
      const { path } = await trip();
      expect((await api('cancelTrip', `${path}/cancel`, { json: { reasonCode: 'Weather' } })).status).toBe(200);
      return api('cancelTrip', `${path}/cancel`, { json: { reasonCode: 'Weather' } });
    },
  },
  { code: 'trips.mutation.cancelReasonRequired', status: 400, field: 'reasonCode', run: async () => api('cancelTrip', `${(await trip()).path}/cancel`, { json: {} }) },
  // Tenants
  { code: 'tenants.skills.value.invalid', status: 400, field: 'skills[1]', run: async () => api('setTenantSkills', `/tenants/${await tenant()}/skills`, { json: { skills: ['Cold chain', '   '] } }) },
  { code: 'tenants.skills.duplicate', status: 400, field: 'skills[1]', run: async () => api('setTenantSkills', `/tenants/${await tenant()}/skills`, { json: { skills: ['Cold chain', ' cold CHAIN '] } }) },
  { code: 'tenants.skills.too_many', status: 400, field: 'skills', run: async () => api('setTenantSkills', `/tenants/${await tenant()}/skills`, { json: { skills: Array.from({ length: 101 }, (_, i) => `Skill ${i}`) } }) },
  { code: 'tenants.lifecycle.state.invalid', status: 400, field: 'state', run: () => api('listTenants', '/tenants?state=Deleted') },
  { code: 'tenants.country.required', status: 400, field: 'country', run: () => api('createTenant', '/tenants', { json: { name: 'No country' } }) },
  { code: 'tenants.country.invalid', status: 400, field: 'country', run: () => api('createTenant', '/tenants', { json: { country: 'NLD' } }) },
];

/** Codes of other reaches that the control plane answers too (D24: reach names the interface a code is answered through first). */
const sharedScenarios: Scenario[] = [
  { code: 'api.malformed_request', status: 400, field: 'tenantId', run: () => api('getTenant', '/tenants/acme') },
  { code: 'api.unsupported_media_type', status: 415, run: () => api('createTenant', '/tenants', { body: 'country=NL', headers: { 'Content-Type': 'text/plain' } }) },
  { code: 'api.payload_too_large', status: 413, run: () => api('createTenant', '/tenants', { json: { country: 'NL', name: 'x'.repeat(1024 * 1024) } }) },
  { code: 'orders.notFound', status: 404, run: async () => api('getOrder', `/tenants/${await tenant()}/orders/${unknownId}`) },
  {
    code: 'tenants.tenant.suspended',
    status: 409,
    run: async () => {
      const tenantId = await tenant();
      expect((await api('suspendTenant', `/tenants/${tenantId}/suspend`)).status).toBe(200);
      return api('createOrder', `/tenants/${tenantId}/orders`, { json: orderIntake('SHOP-1') });
    },
  },
  {
    code: 'tenants.tenant.archived',
    status: 409,
    run: async () => {
      const tenantId = await tenant();
      expect((await api('archiveTenant', `/tenants/${tenantId}/archive`)).status).toBe(200);
      return api('reactivateTenant', `/tenants/${tenantId}/reactivate`);
    },
  },
];

/** A tenant with a key of every scope (`rateLimitPerMinute` as given) and one live order, for the integration API's codes. */
async function integrationTenant(options: { rateLimitPerMinute?: number } = {}): Promise<{ tenantId: string; key: string; externalId: string }> {
  const tenantId = await tenant();
  const key = await api('createApiKey', `/tenants/${tenantId}/keys`, { json: { name: 'full', scopes: ['orders:read', 'orders:write', 'trips:read'], ...options } });
  return { tenantId, key: key.body.secret, externalId: (await order(tenantId)).externalId };
}

const orderPathOf = (externalId: string) => `/api/v1/integration/orders/externalid/${encodeURIComponent(externalId)}`;
const payment = { paymentId: '3f8a2c1e-5b7d-4e9f-a1c3-7d5e9b2f4a60', amount: 12.5, currency: 'EUR' };
/** A payment of the order `externalId` with the key: `json` as its body, or what `init` gives instead. */
const pay = ({ key, externalId }: { key: string; externalId: string }, json: unknown = payment, init: { headers?: Record<string, string>; body?: string } = {}) =>
  call(server.url, 'attachPayment', `${orderPathOf(externalId)}/payment`, { method: 'POST', key, ...(init.body === undefined && init.headers === undefined ? { json } : init) });
/** A scenario: `then` on a new integration tenant, once `first` has succeeded on it. */
const afterwards = (first: (tenant: Awaited<ReturnType<typeof integrationTenant>>) => Promise<Answer>, then: (tenant: Awaited<ReturnType<typeof integrationTenant>>) => Promise<Answer>, options = {}) => async () => {
  const created = await integrationTenant(options);
  expect((await first(created)).status).toBeLessThan(300);
  return then(created);
};
const cancel = ({ key, externalId }: { key: string; externalId: string }) => call(server.url, 'cancelOrder', `${orderPathOf(externalId)}/cancel`, { method: 'POST', key, json: {} });
const whoami = ({ key }: { key: string }) => call(server.url, 'whoami', '/api/v1/integration/whoami', { key });
const partialPayment = ({ key, externalId }: { key: string; externalId: string }) =>
  `POST ${orderPathOf(externalId)}/payment HTTP/1.1\r\nHost: test\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"paymentId":`;

/** The integration API's codes (reach integration), each produced through the integration API. */
const integrationScenarios: Scenario[] = [
  { code: 'api.malformed_request', status: 400, field: 'limit', run: async () => call(server.url, 'orderFeed', '/api/v1/integration/orders?limit=0', { key: (await integrationTenant()).key }) },
  { code: 'payments.amount.invalid', status: 400, field: 'amount', run: async () => pay(await integrationTenant(), { ...payment, amount: 0 }) },
  { code: 'payments.currency.invalid', status: 400, field: 'currency', run: async () => pay(await integrationTenant(), { ...payment, currency: 'eur' }) },
  { code: 'orders.notFound', status: 404, run: async () => pay({ ...(await integrationTenant()), externalId: 'NO-SUCH-ORDER' }) },
  { code: 'orders.status.illegal', status: 409, run: afterwards(cancel, cancel) },
  { code: 'tenants.tenant.suspended', status: 409, run: afterwards(({ tenantId }) => api('suspendTenant', `/tenants/${tenantId}/suspend`), (created) => pay(created)) },
  { code: 'tenants.tenant.archived', status: 409, run: afterwards(({ tenantId }) => api('archiveTenant', `/tenants/${tenantId}/archive`), (created) => pay(created)) },
  { code: 'api.unsupported_media_type', status: 415, run: async () => pay(await integrationTenant(), payment, { headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(payment) }) },
  { code: 'api.payload_too_large', status: 413, run: async () => pay(await integrationTenant(), { ...payment, padding: 'x'.repeat(1024 * 1024) }) },
  { code: 'api.request_body_incomplete', status: 408, run: async () => { const answer = await rawRequest(server.url, partialPayment(await integrationTenant()), { halfClose: true }); return { status: answer.status, headers: new Headers(), body: JSON.parse(answer.body) }; } },
  { code: 'api.rate_limited', status: 429, run: afterwards(whoami, whoami, { rateLimitPerMinute: 1 }) },
  // A fault rule answers through the same problem() as a request whose key is in flight (D51).
  { code: 'idempotency.inFlight', status: 429, run: afterwards(({ tenantId }) => api('createFault', `/tenants/${tenantId}/faults`, { json: { operation: 'attachPayment', fault: 'status', status: 429, problemType: 'idempotency.inFlight' } }), (created) => pay(created)) },
];

/** Checks an answer against its scenario: status, `type`, the catalog's title, and for a 400 (or an import row) the field of errors[0]. */
function expectProduced(scenario: Scenario, answer: Answer): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(scenario.status);
  const problem = scenario.status === 200 ? answer.body.rows.find((row: { type: string | null }) => row.type !== null) : answer.body;
  expect(problem?.type, JSON.stringify(answer.body)).toBe(scenario.code);
  if (scenario.status !== 200) expect(problem.title, JSON.stringify(answer.body)).toBe(catalogEntry(scenario.code).title);
  if (scenario.field === undefined) {
    expect(problem.errors).toBeUndefined();
  } else {
    expect(problem.errors?.[0]?.field, JSON.stringify(problem)).toBe(scenario.field);
    if (scenario.status === 400) expect(problem.errors[0].code).toBe(scenario.code);
  }
}

describe('catalog codes of the control plane', () => {
  it('covers exactly the codes of reach sandbox, each once, with their catalog status', () => {
    const codes = sandboxScenarios.map((scenario) => scenario.code);
    const sandboxCodes = [...catalog.values()].filter((entry) => entry.reach === 'sandbox').map((entry) => entry.code);
    expect([...codes].sort()).toEqual([...sandboxCodes].sort());
    expect(new Set(codes).size).toBe(codes.length);
    for (const scenario of [...sandboxScenarios, ...sharedScenarios]) expect(scenario.status, scenario.code).toBe(catalogEntry(scenario.code).status);
    expect(sharedScenarios.every((scenario) => catalogEntry(scenario.code).reach !== 'sandbox')).toBe(true);
  });

  it('covers exactly the codes of reach integration through the integration API, each once, with their catalog status', () => {
    const codes = integrationScenarios.map((scenario) => scenario.code);
    expect([...codes].sort()).toEqual([...catalog.values()].filter((entry) => entry.reach === 'integration').map((entry) => entry.code).sort());
    expect(new Set(codes).size).toBe(codes.length);
    for (const scenario of integrationScenarios) expect(scenario.status, scenario.code).toBe(catalogEntry(scenario.code).status);
  });

  it.each(sandboxScenarios.map((scenario) => [scenario.code, scenario] as const))('produces %s', async (_code, scenario) => {
    expectProduced(scenario, await scenario.run());
  });

  it.each(sharedScenarios.map((scenario) => [scenario.code, scenario] as const))('also answers %s', async (_code, scenario) => {
    expectProduced(scenario, await scenario.run());
  });

  it.each(integrationScenarios.map((scenario) => [scenario.code, scenario] as const))('answers %s through the integration API', async (_code, scenario) => {
    expectProduced(scenario, await scenario.run());
  });

  it.each([
    ['415 for a payment without Content-Type', 415, '', JSON.stringify(payment)],
    ['400 for a payment without a body', 400, 'Content-Type: application/json\r\n', ''],
    ['400 for a payment of malformed JSON', 400, 'Content-Type: application/json\r\n', '{"amount":'],
  ])('titles api.malformed_request answered %s with its catalog title too', async (_what, status, contentType, body) => {
    const { key, externalId } = await integrationTenant();
    const answer = await rawRequest(server.url, `POST ${orderPathOf(externalId)}/payment HTTP/1.1\r\nHost: test\r\nX-Api-Key: ${key}\r\n${contentType}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect([answer.status, JSON.parse(answer.body).type, JSON.parse(answer.body).title]).toEqual([status, 'api.malformed_request', catalogEntry('api.malformed_request').title]);
  });

  it.each([
    ['a request that is not HTTP/1.1', 'NOT HTTP\r\n\r\n'],
    ['a request without Host', 'GET /api/v1/integration/whoami HTTP/1.1\r\n\r\n'],
  ])('titles the 400 Node parses for %s with the catalog title of api.malformed_request', async (_what, text) => {
    const answer = await rawRequest(server.url, text);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ type: 'api.malformed_request', title: catalogEntry('api.malformed_request').title });
  });

  it('keeps integration keys and the admin token apart (D30)', async () => {
    const tenantId = await tenant();
    const key: string = (await api('createApiKey', `/tenants/${tenantId}/keys`, { json: { name: 'full', scopes: ['orders:read', 'orders:write', 'trips:read'] } })).body.secret;
    expect((await call(server.url, 'whoami', '/api/v1/integration/whoami', { key })).status).toBe(200);
    const keyHeaders: Record<string, string>[] = [{ 'X-Api-Key': key }, { Authorization: `Bearer ${key}` }];
    for (const headers of keyHeaders) {
      const answer = await api('listTenants', '/tenants', { token: null, headers });
      expect(answer.status).toBe(401);
      expect(answer.body.type).toBe('about:blank');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
    const tokenHeaders: Record<string, string>[] = [{ 'X-Api-Key': TEST_ADMIN_TOKEN }, { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` }];
    for (const headers of tokenHeaders) {
      const answer = await call(server.url, 'whoami', '/api/v1/integration/whoami', { headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBeTruthy();
    }
    expect((await api('listTenants', '/tenants', { token: 'wba_wrong' })).status).toBe(401);
    expect((await api('listTenants', '/tenants', { token: null })).status).toBe(401);
  });
});
