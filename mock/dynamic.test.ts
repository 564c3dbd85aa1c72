/**
 * `waybill mock --dynamic`: every answer Prism generates from the spec's schemas is one the
 * spec allows. For each operation and each status it documents, 100 generated answers are
 * drawn and checked with the conformance suite's own response validators: against the
 * document as written, and against what the seeds fix (a 400 never carries `overridable`).
 * And the data is coherent (issue 39): no order updated before it was created, each short id,
 * id and tag once, trip ids apart from order ids, and `limit` respected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseViolations, seedResponseViolations } from '../conformance/checks/support/response-contract.ts';
import type { ExchangeRecord } from '../conformance/engine/types/exchange.ts';
import { catalog, catalogEntry, type CatalogCode, type Json, openapi, type OperationSpec, operations, resolveRef, statusesOf } from '../spec/load.ts';
import { type RunningMock, startMock } from './server.ts';
import { timedStart } from '../dev/testing/start-times.ts';

type JsonObject = { [key: string]: Json };

const DRAWS = 100;
const IN_FLIGHT = 8;

/** The first example of the operation's JSON request body, or null when it takes none. */
function requestBody(operation: OperationSpec): string | null {
  const raw = ((openapi['paths'] as JsonObject)[operation.path] as JsonObject)[operation.method.toLowerCase()] as JsonObject;
  if (raw['requestBody'] === undefined) return null;
  const media = (resolveRef(raw['requestBody']) as JsonObject)['content'] as JsonObject;
  const examples = (media['application/json'] as JsonObject)['examples'] as JsonObject;
  return JSON.stringify((Object.values(examples)[0] as JsonObject)['value']);
}

/** One generated answer of `operation` with `status`, as the conformance suite records an exchange. */
async function draw(baseUrl: string, operation: OperationSpec, status: string): Promise<ExchangeRecord> {
  const url = `${baseUrl}${operation.path.replace('{externalId}', 'SHOP-100245')}`;
  const body = requestBody(operation);
  const headers: Record<string, string> = { 'X-Api-Key': 'any', Prefer: `code=${status}`, ...(body === null ? {} : { 'Content-Type': 'application/json' }) };
  const started = Date.now();
  const response = await fetch(url, { method: operation.method, headers, ...(body === null ? {} : { body }) });
  const text = await response.text();
  return {
    id: 0,
    checkId: 'mock-dynamic',
    channel: 'api',
    operationId: operation.operationId,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    request: { method: operation.method, url, headers, body, bodyBytes: body === null ? 0 : Buffer.byteLength(body) },
    response: { status: response.status, headers: Object.fromEntries(response.headers), body: text === '' ? null : text, bodyBytes: Buffer.byteLength(text) },
    replay: '',
  };
}

/** Runs `tasks` with at most `limit` at a time. */
async function inPool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

type Order = { status: string; shortId: string; externalId: string | null };
type Trip = { status: string; shortId: string; stopCount: number };

/** A schema of the contract by name. */
const schemaOf = (name: string) => ((openapi['components'] as JsonObject)['schemas'] as JsonObject)[name] as JsonObject;
/** The `examples` of a member of a schema of the contract. */
const examplesOf = (schema: string, member: string) => ((schemaOf(schema)['properties'] as JsonObject)[member] as JsonObject)['examples'] as Json[];
/** The scope catalog as the contract gives it: the scope each operation requires. */
const scopeCatalog = new Set([...operations.values()].flatMap((operation) => (operation.scope === null ? [] : [operation.scope])));

describe('waybill mock --dynamic: data an integrator can use (issue 26)', () => {
  let prism: RunningMock;
  beforeAll(async () => {
    prism = await timedStart('prism', () => startMock({ dynamic: true, seed: '26', verbose: false }));
  }, 90_000);
  afterAll(() => prism?.stop());

  /** The body of a generated 200 answer of `operationId`. */
  async function body(operationId: string): Promise<string> {
    return (await draw(prism.url, operations.get(operationId)!, '200')).response!.body ?? '';
  }

  it('holds its example lists to the contract: short ids as the reference makes them, scope sets of the scope catalog', () => {
    expect(examplesOf('Order', 'shortId')).toEqual(expect.arrayContaining([expect.stringMatching(/^ORD-[2-9A-HJKMNP-Z]{5}$/)]));
    for (const id of examplesOf('Order', 'shortId')) expect(id).toMatch(/^ORD-[2-9A-HJKMNP-Z]{5}$/);
    for (const id of examplesOf('Trip', 'shortId')) expect(id).toMatch(/^TRP-[2-9A-HJKMNP-Z]{5}$/);
    expect(scopeCatalog).toEqual(new Set(['orders:read', 'orders:write', 'trips:read']));
    for (const scopes of examplesOf('KeyIdentity', 'scopes') as string[][]) for (const scope of scopes) expect(scopeCatalog).toContain(scope);
  });

  it('answers orders with listed statuses, short ids and external ids, trips with listed statuses, and whoami with scopes of the catalog', async () => {
    const statuses = (schemaOf('OrderStatus')['x-extensible-enum'] as string[]);
    const tripStatuses = schemaOf('TripStatus')['enum'] as string[];
    const orders = (JSON.parse(await body('orderFeed')) as { items: Order[] }).items;
    const trips = (JSON.parse(await body('tripFeed')) as { items: Trip[] }).items;
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) {
      expect(statuses).toContain(order.status);
      expect(order.shortId).toMatch(/^ORD-[2-9A-HJKMNP-Z]{5}$/);
      expect(examplesOf('Order', 'externalId')).toContain(order.externalId);
    }
    for (const trip of trips) {
      expect(tripStatuses).toContain(trip.status);
      expect(trip.shortId).toMatch(/^TRP-[2-9A-HJKMNP-Z]{5}$/);
      expect(examplesOf('Trip', 'stopCount')).toContain(trip.stopCount);
    }
    // The examples' short ids come first; the page's others are made as the reference makes them.
    expect(examplesOf('Order', 'shortId')).toContain(orders[0]!.shortId);
    const identity = JSON.parse(await body('whoami')) as { scopes: string[] };
    for (const scope of identity.scopes) expect(scopeCatalog).toContain(scope);
  });

  it("answers a problem with a code the operation can answer (x-error-codes, or about:blank), at the catalog's status, and a status member that agrees", async () => {
    for (const operation of operations.values()) {
      for (const status of Object.keys(operation.responses).filter((code) => Number(code) >= 400)) {
        const answers = await inPool(Array.from({ length: 10 }, () => () => draw(prism.url, operation, status)), IN_FLIGHT);
        for (const answer of answers) {
          const problem = JSON.parse(answer.response!.body ?? '') as { type: string; status: number; errors?: { code: string }[] };
          const where = `${operation.operationId} ${status}: ${answer.response!.body}`;
          expect(problem.status, where).toBe(Number(status));
          if (problem.type === 'about:blank') continue;
          expect(operation.errorCodes, where).toContain(problem.type);
          expect(statusesOf(catalogEntry(problem.type)), where).toContain(Number(status));
          for (const fieldError of problem.errors ?? []) expect(catalog.has(fieldError.code as CatalogCode), where).toBe(true);
        }
      }
    }
  }, 60_000);

  /** The items of a generated 200 page of `operationId` at `query`. */
  async function page<T>(operationId: 'orderFeed' | 'tripFeed', query = ''): Promise<{ items: T[]; nextCursor: string | null }> {
    const answer = await fetch(`${prism.url}${operations.get(operationId)!.path}${query}`, { headers: { 'X-Api-Key': 'any' } });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { items: T[]; nextCursor: string | null };
  }

  type Stamped = { id: string; shortId: string; createdAtUtc: string; updatedAtUtc: string; tags: string[] };

  it('answers coherent orders: updated at or after created, each short id, id and tag once, in the feed order (issue 39)', async () => {
    for (const query of ['', '?limit=100', '?limit=100&status=New', '?limit=7']) {
      const { items } = await page<Stamped>('orderFeed', query);
      for (const order of items) {
        expect(Date.parse(order.updatedAtUtc), `${order.id}: ${order.createdAtUtc} → ${order.updatedAtUtc}`).toBeGreaterThanOrEqual(Date.parse(order.createdAtUtc));
        expect(new Set(order.tags).size, order.tags.join(', ')).toBe(order.tags.length);
      }
      expect(new Set(items.map((order) => order.shortId)).size).toBe(items.length);
      expect(new Set(items.map((order) => order.id)).size).toBe(items.length);
      const order = items.map((item) => `${item.updatedAtUtc} ${item.id}`);
      expect(order).toEqual([...order].sort());
    }
    // A write answers one order: the same holds on every draw.
    for (let draw = 0; draw < 20; draw += 1) {
      const order = JSON.parse(await body('attachPayment')) as Stamped;
      expect(Date.parse(order.updatedAtUtc)).toBeGreaterThanOrEqual(Date.parse(order.createdAtUtc));
      expect(new Set(order.tags).size).toBe(order.tags.length);
    }
  });

  it('answers trips apart from orders: no trip id is an order id, each short id once (issue 39)', async () => {
    const orders = await page<Stamped>('orderFeed', '?limit=100');
    const trips = await page<Stamped>('tripFeed', '?limit=100');
    const orderIds = new Set(orders.items.map((order) => order.id));
    expect(trips.items.filter((trip) => orderIds.has(trip.id))).toEqual([]);
    expect(new Set(trips.items.map((trip) => trip.shortId)).size).toBe(trips.items.length);
    expect(new Set(trips.items.map((trip) => trip.id)).size).toBe(trips.items.length);
  });

  it('respects limit: at most limit items, the default when absent, capped at 100 (D8, issue 39)', async () => {
    for (const operationId of ['orderFeed', 'tripFeed'] as const) {
      for (const [query, most] of [['?limit=1', 1], ['?limit=3', 3], ['', 50], ['?limit=500', 100]] as const) {
        expect((await page(operationId, query)).items.length, `${operationId}${query}`).toBeLessThanOrEqual(most);
      }
    }
  });

  it('draws different statuses across answers, and repeats an answer for the same request under --seed', async () => {
    const seen = new Set<string>();
    for (const operationId of ['orderFeed', 'attachPayment', 'cancelOrder']) {
      const first = await body(operationId);
      expect(await body(operationId), `${operationId} under --seed 26`).toBe(first);
      const parsed = JSON.parse(first) as { items?: Order[]; status?: string };
      for (const order of parsed.items ?? [parsed as Order]) seen.add(order.status);
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe('waybill mock --dynamic', () => {
  let prism: RunningMock;
  beforeAll(async () => {
    prism = await timedStart('prism', () => startMock({ dynamic: true, verbose: false }));
  }, 90_000);
  afterAll(() => prism?.stop());

  const cases = [...operations.values()].flatMap((operation) => Object.keys(operation.responses).map((status) => [operation.operationId, status] as const));

  it.each(cases)(`%s %s: ${DRAWS} generated answers all conform to spec/openapi.yaml`, async (operationId, status) => {
    const operation = operations.get(operationId)!;
    const exchanges = await inPool(Array.from({ length: DRAWS }, () => () => draw(prism.url, operation, status)), IN_FLIGHT);
    expect(exchanges.map((exchange) => exchange.response!.status)).toEqual(Array(DRAWS).fill(Number(status)));
    const violations = exchanges
      .flatMap((exchange) => [...responseViolations(exchange), ...seedResponseViolations(exchange, {})])
      .map((finding) => `${finding.message}: ${finding.received}`);
    expect(violations.slice(0, 5), `${violations.length} violations in ${DRAWS} answers`).toEqual([]);
    // Generated bodies differ; a problem is one of the answer's documented examples (document.ts).
    const distinct = new Set(exchanges.map((exchange) => exchange.response!.body)).size;
    if (Number(status) < 300) expect(distinct, 'the answers differ').toBeGreaterThan(status === '204' ? 0 : 1);
  }, 60_000);
});
