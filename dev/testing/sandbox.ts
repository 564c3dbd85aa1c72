/**
 * Test support for the server's tests: an in-memory store, tenants with keys, small
 * hand-made datasets (with deliberate timestamp ties), and a running server on an
 * ephemeral loopback port. Not used by the production code.
 */
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { Dataset, FixtureOrder, FixtureTrip } from '../../fixtures/dataset.ts';
import { type ErrorObject } from 'ajv';
import { catalog, operations, type OrderStatusName, sharedAjv, standaloneSchema, statusesOf, tripStatuses, validateSchema } from '../../spec/load.ts';
import type { Clock } from '../../server/domain/time.ts';
import { memoryLogger } from '../../server/http/log.ts';
import { type SandboxOptions, startSandbox } from '../../server/start/start-sandbox.ts';
import { makeDatasetImport } from '../../server/store/dataset.ts';
import { openStore, type SqliteStore, type Store } from '../../server/store/index.ts';
import { type Authenticated, type KeyPrincipal, SCOPES } from '../../server/tenants/keys.ts';
import { sandboxOperations } from '../../server/control-plane/routes.ts';
import { timedStart } from './start-times.ts';

/** The order statuses tinyDataset cycles through (`EXT-i` has the `i % 9`-th), a subset of the contract's that tests rely on; its trips take every trip status. */
export const TINY_DATASET_STATUSES = ['New', 'InPlanning', 'Planned', 'InProgress', 'FullyDelivered', 'Cancelled', 'Returned', 'Refused', 'Closed'] as const satisfies readonly OrderStatusName[];

const idOf = (prefix: number, n: number) => `${prefix.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/**
 * A small dataset: `orders` orders whose stamps come in groups of three equal values (so
 * the feed's tie-break on id matters), statuses cycling through a fixed list, every
 * order's external id `EXT-<n>` (or `<externalIdPrefix>-<n>`); and `trips` trips likewise.
 * `idSpace` keeps the order and trip ids of one dataset apart from another's (two tenants).
 */
export function tinyDataset(options: { orders: number; trips?: number; start?: number; externalIdPrefix?: string; idSpace?: number }): Dataset {
  const start = options.start ?? Date.parse('2026-10-01T00:00:00.000Z');
  const uuid = (prefix: number, n: number) => idOf(prefix + 16 * (options.idSpace ?? 0), n);
  const stamp = (i: number) => new Date(start + Math.floor(i / 3) * 1000).toISOString();
  const address = { line1: '1 Main St', city: 'Utrecht', postcode: '3511', country: 'NL', lat: 52.09, lng: 5.12 };
  const orders: FixtureOrder[] = Array.from({ length: options.orders }, (_, i) => ({
    // Ids descend within a stamp group, so id order differs from insertion order.
    id: uuid(1, 1_000_000 - i),
    externalId: `${options.externalIdPrefix ?? 'EXT'}-${i}`,
    shortId: `ORD-${i}`,
    type: 'Delivery',
    status: TINY_DATASET_STATUSES[i % TINY_DATASET_STATUSES.length]!,
    miniStatus: null,
    customId: null,
    relatedToOrderId: null,
    createdAtUtc: stamp(0),
    updatedAtUtc: stamp(i),
    tags: [],
    address,
    lines: [{ id: uuid(2, i), warehouseId: uuid(3, 0), productId: uuid(4, 0), quantity: 1, role: 'Delivery', weightKg: 1, volumeM3: 0.01, price: 10 }],
    tripId: null,
    payments: [],
  }));
  const trips: FixtureTrip[] = Array.from({ length: options.trips ?? 0 }, (_, i) => ({
    id: uuid(5, 1_000_000 - i),
    shortId: `TRP-${i}`,
    status: tripStatuses[i % tripStatuses.length]!,
    warehouseId: uuid(3, 0),
    driverId: null,
    vehicleId: null,
    plannedAtUtc: stamp(0),
    updatedAtUtc: stamp(i),
    orderIds: [],
  }));
  return {
    seed: 0,
    baseTime: stamp(0),
    warehouses: [{ id: uuid(3, 0), name: 'Main', address }],
    products: [{ id: uuid(4, 0), name: 'Box', sku: 'BOX', weightKg: 1, volumeM3: 0.01, price: 10 }],
    drivers: [],
    vehicles: [],
    tags: [],
    orders,
    trips,
  };
}

/**
 * An in-memory store on `clock` (SQLite: tests may break things through its `db`); under
 * `WAYBILL_TEST_DB=postgres` a fresh PostgreSQL database instead (test-store.ts), for the
 * files the `postgres` project runs on both engines. Loaded on demand: the fuzz campaign and
 * the bench use this file outside vitest.
 */
export async function memoryStore(clock?: Clock): Promise<SqliteStore> {
  if (process.env['WAYBILL_TEST_DB'] === 'postgres') return (await import('./test-store.ts')).postgresTestStore(clock);
  return openStore(':memory:', clock);
}

/** A tenant of a test store: its id and one key per scope set. */
export interface SeededTestTenant {
  tenantId: string;
  keys: { full: string; ordersRead: string; ordersWrite: string; tripsRead: string; noScopes: string };
}

/** A tenant of `store` with one key per scope set, and `dataset` loaded into it. */
export async function seedTenant(store: Store, dataset: Dataset = tinyDataset({ orders: 0 }), options: { rateLimit?: number } = {}): Promise<SeededTestTenant> {
  const tenant = await store.tenants.create({ name: 'Test tenant', country: 'NL' });
  const key = async (scopes: readonly string[], name: string) =>
    (await store.keys.create({ tenantId: tenant.id, name, scopes, ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}) })).secret;
  await makeDatasetImport(store)(tenant.id, dataset);
  return {
    tenantId: tenant.id,
    keys: {
      full: await key(SCOPES, 'full'),
      ordersRead: await key(['orders:read'], 'orders-read'),
      ordersWrite: await key(['orders:write'], 'orders-write'),
      tripsRead: await key(['trips:read'], 'trips-read'),
      noScopes: await key([], 'no-scopes'),
    },
  };
}

/** `found`, an answer of `keys.authenticate`, with its principal changed by `change`: at once from the cache, or once read (a broken variant's key lookup). */
export function changedPrincipal(found: Authenticated, change: (principal: KeyPrincipal) => KeyPrincipal): Authenticated {
  const apply = (principal: KeyPrincipal | null) => (principal === null ? null : change(principal));
  return found instanceof Promise ? found.then(apply) : apply(found);
}

/** A running sandbox on an ephemeral loopback port. */
export interface RunningServer<S extends Store = SqliteStore> {
  url: string;
  server: Server;
  store: S;
  log: ReturnType<typeof memoryLogger>;
  close(): Promise<void>;
}

/** Starts the sandbox over `store` on 127.0.0.1:0, logging to memory; `close` leaves the store open. */
export async function startServer<S extends Store>(store: S, options: Omit<SandboxOptions, 'store'> = {}): Promise<RunningServer<S>> {
  const log = memoryLogger();
  const sandbox = await timedStart('sandbox', () => startSandbox({ log, ...options, store }));
  return { url: sandbox.url, server: sandbox.server, store, log, close: () => sandbox.close() };
}

/** The spec's schema for an answer of `operationId` with `status`, by component name. */
function schemaNameOf(operationId: string, status: number, contentType: string): string | undefined {
  const response = operations.get(operationId)?.responses[String(status)];
  const schema = response?.content[contentType] as { $ref?: string } | undefined;
  return schema?.$ref?.split('/').pop();
}

/**
 * Fails unless an answer matches the spec: the status is declared for the operation, the
 * content type is the declared one, the body validates, and a problem's type is a catalog
 * code (or about:blank) with that status. Returns the parsed body.
 */
export async function conformingBody(operationId: string, response: Response): Promise<unknown> {
  const text = await response.text();
  const declared = operations.get(operationId)?.responses[String(response.status)];
  if (declared === undefined) throw new Error(`${operationId} does not declare status ${response.status}: ${text}`);
  if (!response.headers.get('x-request-id')) throw new Error('no X-Request-Id');
  if (response.status === 204) {
    if (text !== '') throw new Error(`204 with a body: ${text}`);
    return undefined;
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const name = schemaNameOf(operationId, response.status, contentType);
  if (name === undefined) throw new Error(`${operationId} ${response.status} does not declare ${contentType}: ${text}`);
  const body = JSON.parse(text) as { type?: string; status?: number };
  const errors: ErrorObject[] = validateSchema(name, body);
  if (errors.length > 0) throw new Error(`${operationId} ${response.status} body is not a ${name}: ${JSON.stringify(errors)}\n${text}`);
  if (response.status >= 400) assertCatalogProblem(body, response.status);
  return body;
}

/** Fails unless a problem body's `status` is the HTTP status and its `type` a catalog code of that status (or about:blank). */
function assertCatalogProblem(body: { type?: string; status?: number }, status: number): void {
  if (body.status !== status) throw new Error(`problem status ${body.status} on a ${status}`);
  if (body.type === 'about:blank') return;
  const entry = catalog.get(body.type as never);
  if (entry === undefined || !statusesOf(entry).includes(status)) throw new Error(`problem type ${body.type} is not a catalog code of status ${status}`);
}

/** An answer of the sandbox, its body checked against the spec by `conformingBody`. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * Calls the sandbox at `url` and checks the answer against the spec's declaration for
 * `operationId` (every response body in the server's tests goes through this).
 */
export async function call(
  url: string,
  operationId: string,
  path: string,
  init: { method?: string; key?: string; headers?: Record<string, string>; json?: unknown; body?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.key === undefined ? {} : { 'X-Api-Key': init.key }), ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${url}${path}`, { method: init.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) });
  return { status: response.status, headers: response.headers, body: await conformingBody(operationId, response) };
}

/** A raw HTTP/1.1 exchange over a socket, for what fetch cannot send (a body shorter than its Content-Length). */
export function rawRequest(url: string, text: string, options: { halfClose?: boolean; timeoutMs?: number } = {}): Promise<{ status: number; head: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(text);
      if (options.halfClose) socket.end();
    });
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${options.timeoutMs ?? 5000} ms: ${received}`));
    }, options.timeoutMs ?? 5000);
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
  });
}

/** The admin token the control-plane tests start the sandbox with. */
export const TEST_ADMIN_TOKEN = 'wba_test-admin-token';

const sandboxValidators = new Map<string, (value: unknown) => boolean>();

/** The sandbox spec's validator of an answer's schema (compiled once). */
function sandboxResponseCheck(operationId: string, status: number, contentType: string): ((value: unknown) => boolean) & { errors?: unknown } {
  const key = `${operationId} ${status} ${contentType}`;
  let check = sandboxValidators.get(key);
  if (check === undefined) {
    const operation = sandboxOperations.find((op) => op.operationId === operationId);
    const schema = operation?.responses[String(status)]?.content[contentType];
    if (schema === undefined) throw new Error(`${operationId} does not declare ${status} ${contentType}`);
    check = sharedAjv().compile(standaloneSchema(schema, 'sandbox'));
    sandboxValidators.set(key, check);
  }
  return check;
}

/**
 * Fails unless a control-plane answer matches `spec/sandbox.yaml`: the status is declared
 * for the operation (or is the 405 of an unknown method), the body validates against the
 * declared schema, and a problem's type is a catalog code of that status (or about:blank).
 */
export async function conformingSandboxBody(operationId: string, response: Response): Promise<unknown> {
  const text = await response.text();
  const operation = sandboxOperations.find((op) => op.operationId === operationId);
  if (operation === undefined) throw new Error(`no sandbox operation ${operationId}`);
  if (!response.headers.get('x-request-id')) throw new Error('no X-Request-Id');
  if (operation.responses[String(response.status)] === undefined) throw new Error(`${operationId} does not declare status ${response.status}: ${text}`);
  if (response.status === 204) {
    if (text !== '') throw new Error(`204 with a body: ${text}`);
    return undefined;
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const check = sandboxResponseCheck(operationId, response.status, contentType);
  const body = JSON.parse(text) as { type?: string; status?: number };
  if (!check(body)) throw new Error(`${operationId} ${response.status} body does not match the spec: ${JSON.stringify((check as { errors?: unknown }).errors)}\n${text}`);
  if (response.status >= 400) assertCatalogProblem(body, response.status);
  return body;
}

/** Calls the control plane at `url` (the server's base URL) and checks the answer against `spec/sandbox.yaml`. */
export async function callSandbox(
  url: string,
  operationId: string,
  path: string,
  init: { method?: string; token?: string | null; headers?: Record<string, string>; json?: unknown; body?: string } = {},
): Promise<Answer> {
  const operation = sandboxOperations.find((op) => op.operationId === operationId);
  const token = init.token === undefined ? TEST_ADMIN_TOKEN : init.token;
  const headers: Record<string, string> = { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const method = init.method ?? operation?.method ?? 'GET';
  const response = await fetch(`${url}/sandbox/v1${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: response.status, headers: response.headers, body: await conformingSandboxBody(operationId, response) };
}

/** A control-plane client of a running sandbox: `(operationId, path, init)` with the test admin token. */
export type SandboxClient = (operationId: string, path: string, init?: Parameters<typeof callSandbox>[3]) => Promise<Answer>;

/** The control-plane client of the sandbox at `url`. */
export function sandboxClient(url: string): SandboxClient {
  return (operationId, path, init = {}) => callSandbox(url, operationId, path, init);
}

/** An order intake body: one Delivery line of `quantity` (2 by default) unless `overrides` say otherwise. */
export function orderIntake(externalId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    externalId,
    type: 'Delivery',
    lines: [{ warehouseId: idOf(3, 0), productId: idOf(4, 0), quantity: 2, weightKg: 1.5, volumeM3: 0.02, price: 20 }],
    ...overrides,
  };
}
