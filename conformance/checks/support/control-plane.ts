/**
 * What the sandbox family shares: a session on the profile's control plane (`spec/sandbox.yaml`)
 * that builds the check's own tenant, keys, orders and trips, and the expectation that an answer
 * carries one catalog code with the code's status, a valid problem body and the field it names.
 * Knows the control plane's contract only, never an implementation.
 */
import { catalogEntry, type CatalogCode, validateSchema } from '../../../spec/load.ts';
import { mediaTypeOf, problemSchemaFor } from '../../contract/catalog-rules.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { ExchangeRecord, HttpClient, HttpRequest, HttpResponse } from '../../engine/types/exchange.ts';
import { objectOf, paths, received } from './order-requests.ts';

/** Warehouse and product ids of intake lines: references the control plane does not look up (D36). */
const warehouseId = '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f';
const productId = '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d';

/** One request that must answer `code`; `field` is the errors[0].field the code's rule names. */
export interface Expectation {
  /** The request in words: `a tenant without country`. */
  what: string;
  code: CatalogCode;
  request: HttpRequest;
  field?: string;
  /** The client to send it with; the control plane unless given (`ctx.http` for the integration API). */
  via?: HttpClient;
}

/** A control-plane session of one check: its requests, what they build, and its findings. */
export interface ControlPlane {
  client: HttpClient;
  findings: Finding[];
  /** The name the run gives every tenant it creates (D68), for a check that creates one by hand. */
  tenantName: string;
  /** Sends a request the check depends on; anything but 2xx ends the check with a finding. Returns the body. */
  need(what: string, request: HttpRequest): Promise<Record<string, unknown>>;
  /** Like `need`, and returns the body's `id`. */
  needId(what: string, request: HttpRequest): Promise<string>;
  /** A fresh Active tenant for this check alone; returns its path (`/tenants/{id}`). */
  tenant(): Promise<string>;
  /** Takes in an order of the tenant at `tenantPath` (a Delivery of 2 unless `overrides` say otherwise); returns its id. */
  order(tenantPath: string, externalId: string, overrides?: Record<string, unknown>): Promise<string>;
  /** Builds a trip of `orderIds` (started when `start`); returns its path. */
  trip(tenantPath: string, orderIds: string[], options?: { start?: boolean }): Promise<string>;
  /** Ends the check with `finding`: a step it depends on did not give what it needs. */
  stop(finding: Finding): never;
  /** Sends the expectation's request and records a finding unless it answers the code as the catalog says. */
  expect(expectation: Expectation): Promise<HttpResponse>;
}

/** Thrown when a step the check depends on was refused; ends the check with the finding. */
class StepRefused extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
  }
}

/** An order intake: `externalId`, a Delivery of one line of 2; `overrides` replace (or, as undefined, drop) members, `line` those of the line. */
export function intake(externalId: string, overrides: Record<string, unknown> = {}, line: Record<string, unknown> = {}): Record<string, unknown> {
  const orderLine: Record<string, unknown> = { warehouseId, productId, quantity: 2, weightKg: 1.5, volumeM3: 0.02, price: 20, ...line };
  const body: Record<string, unknown> = { externalId, type: 'Delivery', lines: [orderLine], ...overrides };
  for (const object of [body, orderLine]) for (const [name, value] of Object.entries(object)) if (value === undefined) delete object[name];
  return body;
}

/** The first field error of a body, or undefined. */
function firstFieldError(body: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const errors = body?.['errors'];
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  return first !== null && typeof first === 'object' ? (first as Record<string, unknown>) : undefined;
}

/**
 * The finding about `response` unless it carries `code` as the catalog says: the code's status,
 * `application/problem+json`, `type` = the code, a `status` member that agrees, a body of the
 * problem schema, and for a field rule errors[0] naming `field` with the code.
 */
export function codeViolation(response: HttpResponse, expected: { code: CatalogCode; field?: string; what: string }): Finding | undefined {
  const { code, field } = expected;
  const status = catalogEntry(code).status;
  const shape = [`${status}`, code, field === undefined ? undefined : `errors[0].field ${field}`].filter(Boolean).join(', ');
  const where = `${expected.what} (${code}): ${describeExchange(response.exchange)}`;
  const body = objectOf(response);
  if (response.status !== status) return finding(where, shape, received(response), response.exchange);
  if (mediaTypeOf(response.headers['content-type']) !== 'application/problem+json') {
    return finding(`${where}: not a problem body`, 'Content-Type: application/problem+json', response.headers['content-type'] ?? 'no Content-Type', response.exchange);
  }
  if (body?.['type'] !== code) return finding(`${where}: wrong problem type`, `type ${code}`, `type ${show(body?.['type'])}`, response.exchange);
  if (body['status'] !== status) return finding(`${where}: the status member differs from the HTTP status`, `status: ${status}`, `status: ${show(body['status'])}`, response.exchange);
  const schemaErrors = validateSchema(problemSchemaFor(status), body);
  if (schemaErrors.length > 0) {
    const text = schemaErrors.map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`).join('; ');
    return finding(`${where}: the body does not match ${problemSchemaFor(status)}`, `a ${problemSchemaFor(status)} body`, `${text} in ${show(body)}`, response.exchange);
  }
  if (field === undefined) return undefined;
  const fieldError = firstFieldError(body);
  if (fieldError?.['field'] !== field || fieldError['code'] !== code) {
    return finding(`${where}: errors[0] does not name the field with the code`, `errors[0]: field ${field}, code ${code}`, `errors: ${show(body['errors'])}`, response.exchange);
  }
  return undefined;
}

/** The session of one check on `client`; the tenants it creates are named `tenantName` (the run's label). */
function controlPlane(client: HttpClient, addSecret: (value: string, name: string) => void, tenantName: string): ControlPlane {
  const findings: Finding[] = [];
  const plane: ControlPlane = {
    client,
    findings,
    tenantName,
    async need(what, request) {
      const response = await client.request(request);
      if (response.status < 200 || response.status > 299) {
        throw new StepRefused(finding(`${what} (needed by this check): ${describeExchange(response.exchange)}`, '2xx', received(response), response.exchange));
      }
      const body = objectOf(response) ?? {};
      // A created API key's secret (spec/sandbox.yaml CreatedApiKey) must not reach a report.
      if (typeof body['secret'] === 'string') addSecret(body['secret'], 'createdKey');
      return body;
    },
    async needId(what, request) {
      const body = await plane.need(what, request);
      const id = body['id'];
      if (typeof id !== 'string' || id === '') throw new StepRefused(finding(`${what} (needed by this check): the answer has no id`, 'a body with id (string)', show(body)));
      return id;
    },
    async tenant() {
      const id = await plane.needId('creating a tenant', { method: 'POST', path: '/tenants', body: { name: tenantName, country: 'NL' } });
      return `/tenants/${encodeURIComponent(id)}`;
    },
    order(tenantPath, externalId, overrides = {}) {
      return plane.needId(`taking in order ${externalId}`, { method: 'POST', path: `${tenantPath}/orders`, body: intake(externalId, overrides) });
    },
    async trip(tenantPath, orderIds, options = {}) {
      const id = await plane.needId('building a trip', { method: 'POST', path: `${tenantPath}/trips`, body: { orderIds } });
      const path = `${tenantPath}/trips/${encodeURIComponent(id)}`;
      if (options.start) await plane.need('starting the trip', { method: 'POST', path: `${path}/start` });
      return path;
    },
    stop(stopping): never {
      throw new StepRefused(stopping);
    },
    async expect(expectation) {
      const response = await (expectation.via ?? client).request(expectation.request);
      const violation = codeViolation(response, expectation);
      if (violation !== undefined) findings.push(violation);
      return response;
    },
  };
  return plane;
}

/**
 * A check's `run` over a control-plane session: the session's findings are the result, and a
 * refused step the check depends on adds its finding and ends the check.
 */
export function onControlPlane(body: (plane: ControlPlane, ctx: CheckContext) => Promise<void>): Check['run'] {
  return async (ctx) => {
    if (ctx.sandbox === null) return ctx.skip('profile has no sandbox');
    const plane = controlPlane(ctx.sandbox, (value, name) => ctx.addSecret(value, name), ctx.runLabel);
    try {
      await body(plane, ctx);
    } catch (error) {
      if (!(error instanceof StepRefused)) throw error;
      plane.findings.push(error.finding);
    }
    return plane.findings;
  };
}

/**
 * The control-plane path (`/tenants/{id}`) of the tenant the full key belongs to, as whoami
 * names it. When whoami cannot name it the check is skipped: the discovery checks judge whoami,
 * and this check cannot reach the state it needs.
 */
export async function fullKeyTenant(ctx: CheckContext): Promise<string> {
  const whoami = await ctx.http.request({ method: 'GET', path: paths.whoami });
  const tenantId = objectOf(whoami)?.['tenantId'];
  if (whoami.status !== 200 || typeof tenantId !== 'string' || tenantId === '') {
    ctx.skip(`needs the full key's tenant id from whoami, which answered ${whoami.status} ${JSON.stringify(objectOf(whoami)?.['tenantId'] ?? null)} (the discovery checks judge whoami)`);
  }
  return `/tenants/${encodeURIComponent(tenantId)}`;
}

/** The most history pages read for one order. */
const HISTORY_PAGES = 20;

/**
 * Every entry of an order's history (spec/sandbox.yaml orderHistory), oldest first, read over
 * at most 20 pages, with the exchange of the last page; a page that cannot be read ends the check.
 */
export async function orderHistory(plane: ControlPlane, tenantPath: string, orderId: string, what: string): Promise<{ entries: Record<string, unknown>[]; last: ExchangeRecord }> {
  const historyPath = `${tenantPath}/orders/${encodeURIComponent(orderId)}/history`;
  const entries: Record<string, unknown>[] = [];
  let after: string | undefined;
  let last: ExchangeRecord | undefined;
  for (let page = 0; page < HISTORY_PAGES; page += 1) {
    const response = await plane.client.request({ method: 'GET', path: historyPath, query: { limit: 100, after } });
    last = response.exchange;
    const items = objectOf(response)?.['items'];
    const next = objectOf(response)?.['nextCursor'];
    if (response.status !== 200 || !Array.isArray(items)) {
      return plane.stop(finding(`reading the history of ${what} through the control plane (needed by this check): ${describeExchange(response.exchange)}`, '200 with items and nextCursor', received(response), response.exchange));
    }
    for (const item of items) if (item !== null && typeof item === 'object') entries.push(item as Record<string, unknown>);
    if (typeof next !== 'string' || next === '') break;
    after = next;
  }
  return { entries, last: last! };
}
