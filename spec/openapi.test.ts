import { STATUS_CODES } from 'node:http';
import { fileURLToPath } from 'node:url';
import { compileErrors, validate as validateOpenapi } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import {
  catalog,
  type Json,
  listOperations,
  openapi,
  operations,
  resolveRef,
  sandboxOpenapi,
  sharedAjv,
  standaloneSchema,
  statusesOf,
  validateSchema,
  validator,
} from './load.ts';

type JsonObject = { [key: string]: Json };

const specFile = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const schemas = (openapi['components'] as JsonObject)['schemas'] as JsonObject;

/** Every example of a document: media-type examples of bodies and responses, and parameter examples. */
function* examplesOf(document: JsonObject): Generator<{ where: string; schema: Json; value: Json; status?: string }> {
  for (const [path, item] of Object.entries(document['paths'] as JsonObject)) {
    for (const [method, raw] of Object.entries(item as JsonObject)) {
      const operation = raw as JsonObject;
      const media: [string, JsonObject, string | undefined][] = [];
      if (operation['requestBody'] !== undefined) {
        const body = resolveRef(operation['requestBody'], document);
        for (const [type, m] of Object.entries(body['content'] as JsonObject)) media.push([`request ${type}`, m as JsonObject, undefined]);
      }
      for (const [status, ref] of Object.entries(operation['responses'] as JsonObject)) {
        const response = resolveRef(ref, document);
        for (const [type, m] of Object.entries((response['content'] as JsonObject | undefined) ?? {})) media.push([`${status} ${type}`, m as JsonObject, status]);
      }
      for (const [label, m, status] of media) {
        const examples = Object.entries((m['examples'] as JsonObject | undefined) ?? {});
        if (m['example'] !== undefined) examples.push(['example', { value: m['example'] }]);
        for (const [name, example] of examples) {
          yield { where: `${method.toUpperCase()} ${path} ${label} '${name}'`, schema: m['schema'] as Json, value: (resolveRef(example, document) as JsonObject)['value'] as Json, ...(status ? { status } : {}) };
        }
      }
      for (const ref of (operation['parameters'] ?? []) as Json[]) {
        const parameter = resolveRef(ref, document);
        if (parameter['example'] !== undefined) {
          yield { where: `${method.toUpperCase()} ${path} parameter ${String(parameter['name'])}`, schema: parameter['schema'] as Json, value: parameter['example'] as Json };
        }
      }
    }
  }
}

describe('spec/openapi.yaml', () => {
  it.each([['openapi.yaml'], ['sandbox.yaml']])('%s is valid OpenAPI 3.1 (@readme/openapi-parser)', async (name) => {
    const result = await validateOpenapi(specFile(name));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('is OpenAPI 3.1', () => {
    expect(openapi['openapi']).toMatch(/^3\.1\./);
    expect(sandboxOpenapi['openapi']).toMatch(/^3\.1\./);
  });

  it('has exactly the six operations of the seed, with their methods and paths', () => {
    const found = listOperations().map((op) => `${op.operationId} ${op.method} ${op.path}`);
    expect(found.sort()).toEqual(
      [
        'orderFeed GET /api/v1/integration/orders',
        'tripFeed GET /api/v1/integration/trips',
        'attachPayment POST /api/v1/integration/orders/externalid/{externalId}/payment',
        'cancelOrder POST /api/v1/integration/orders/externalid/{externalId}/cancel',
        'archiveOrder DELETE /api/v1/integration/orders/externalid/{externalId}',
        'whoami GET /api/v1/integration/whoami',
      ].sort(),
    );
  });

  it('names the scope of every operation (D2), and none for whoami', () => {
    const scopes = Object.fromEntries([...operations.values()].map((op) => [op.operationId, op.scope]));
    expect(scopes).toEqual({
      orderFeed: 'orders:read',
      tripFeed: 'trips:read',
      attachPayment: 'orders:write',
      cancelOrder: 'orders:write',
      archiveOrder: 'orders:write',
      whoami: null,
    });
  });

  it('compiles every component schema in Ajv', () => {
    for (const name of Object.keys(schemas)) expect(() => validator(name), name).not.toThrow();
  });

  it('validates every example against its schema', () => {
    let count = 0;
    for (const example of examplesOf(openapi)) {
      const validate = sharedAjv().compile(standaloneSchema(example.schema));
      expect(validate(example.value), `${example.where}: ${sharedAjv().errorsText(validate.errors)}`).toBe(true);
      count += 1;
    }
    expect(count).toBeGreaterThan(20);
  });

  it('has an example for every response with a body', () => {
    for (const op of operations.values()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const examples = [...examplesOf(openapi)].filter((e) => e.where.startsWith(`${op.method} ${op.path} ${status} `));
        if (Object.keys(response.content).length > 0) expect(examples.length, `${op.operationId} ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it("gives every problem example a catalog type (or about:blank) whose catalog status is the response status, and the catalog's title (D89)", () => {
    for (const example of examplesOf(openapi)) {
      if (example.status === undefined || !example.status.match(/^[45]/)) continue;
      const body = example.value as JsonObject;
      expect(body['status'], example.where).toBe(Number(example.status));
      if (body['type'] === 'about:blank') {
        expect(['401', '403', '417', '500', '503'], example.where).toContain(example.status);
        expect(body['title'], example.where).toBe(STATUS_CODES[Number(example.status)]);
        continue;
      }
      const entry = catalog.get(body['type'] as never);
      expect(entry, `${example.where}: ${String(body['type'])}`).toBeDefined();
      expect(entry && statusesOf(entry), example.where).toContain(Number(example.status));
      expect(body['title'], example.where).toBe(entry?.title);
    }
  });

  it('reads the statuses a code may take from the catalog: its own, plus what its meaning adds', () => {
    expect(statusesOf(catalog.get('api.malformed_request')!)).toEqual([400, 415]);
    expect(statusesOf(catalog.get('orders.notFound')!)).toEqual([404]);
    expect([...catalog.values()].filter((entry) => statusesOf(entry).length > 1).map((entry) => entry.code)).toEqual(['api.malformed_request']);
  });

  it('lists in x-error-codes only catalog codes whose status the operation declares', () => {
    for (const op of operations.values()) {
      expect(op.errorCodes.length, op.operationId).toBeGreaterThan(0);
      for (const code of op.errorCodes) {
        const entry = catalog.get(code);
        expect(entry, `${op.operationId}: ${code}`).toBeDefined();
        expect(Object.keys(op.responses), `${op.operationId}: ${code}`).toContain(String(entry?.status));
      }
    }
  });

  it('marks only real decisions: every x-waybill-decision names one of D1..D27, D51 (the 503 of a fault) or D60 (the answers of the HTTP layer)', () => {
    const seen = new Set<string>();
    const walk = (node: Json): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [key, child] of Object.entries(node)) {
          if (key === 'x-waybill-decision') for (const d of [child].flat()) seen.add(String(d));
          walk(child);
        }
      }
    };
    walk(openapi);
    for (const d of seen) expect(d).toMatch(/^D([1-9]|1\d|2[0-7]|51|60)$/);
    for (const d of ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D8', 'D9', 'D10', 'D11', 'D12', 'D13', 'D14', 'D15', 'D16', 'D17', 'D18', 'D19', 'D20', 'D22', 'D23']) {
      expect(seen, d).toContain(d);
    }
  });

  it('keeps the status filter closed and the response status open (D9, D27)', () => {
    const filter = (schemas['OrderStatusName'] as JsonObject)['enum'] as string[];
    const known = (schemas['OrderStatus'] as JsonObject)['x-extensible-enum'] as string[];
    expect(known).toEqual(filter);
    // The known values are offered to `waybill mock --dynamic` as examples, an annotation that closes nothing.
    expect((schemas['OrderStatus'] as JsonObject)['examples']).toEqual(known);
    expect((schemas['OrderStatus'] as JsonObject)['enum']).toBeUndefined();
    expect(filter).toHaveLength(13);
    expect(validateSchema('OrderStatus', 'Rerouted')).toEqual([]);
    expect(validateSchema('OrderStatusName', 'Rerouted')).not.toEqual([]);
  });

  it('describes the Order exactly as the seed: every field required, nullability as the seed gives it', () => {
    const order = schemas['Order'] as JsonObject;
    expect(order['required']).toEqual(['id', 'externalId', 'shortId', 'status', 'miniStatus', 'type', 'customId', 'createdAtUtc', 'updatedAtUtc', 'tags']);
    const valid = { id: '0b7e5a52-3c1f-4b8e-9f6a-2d4c8e1a7b30', externalId: null, shortId: 'A', status: 'New', miniStatus: null, type: 'Pickup', customId: null, createdAtUtc: '2026-01-01T00:00:00.000Z', updatedAtUtc: '2026-01-01T00:00:00.000Z', tags: [] };
    expect(validateSchema('Order', valid)).toEqual([]);
    expect(validateSchema('Order', { ...valid, shortId: null })).not.toEqual([]);
    expect(validateSchema('Order', { ...valid, type: 'Parcel' })).not.toEqual([]);
    expect(validateSchema('Order', { ...valid, updatedAtUtc: '2026-01-01T00:00:00Z' })).not.toEqual([]);
    const { tags: _tags, ...withoutTags } = valid;
    expect(validateSchema('Order', withoutTags)).not.toEqual([]);
  });

  it('gives the trip the fields of D15 in that order', () => {
    expect(Object.keys((schemas['Trip'] as JsonObject)['properties'] as JsonObject)).toEqual([
      'id', 'shortId', 'status', 'warehouseId', 'driverId', 'vehicleId', 'stopCount', 'plannedAtUtc', 'updatedAtUtc',
    ]);
  });

  it('refuses what the payment rules refuse (amount positive and finite, currency ISO 4217 upper case)', () => {
    const ok = { paymentId: '4c1a7e93-2b5d-4f08-9e6c-3a8d1b7f5e20', amount: 12.5, currency: 'EUR' };
    expect(validateSchema('PaymentRequest', ok)).toEqual([]);
    for (const amount of [0, -1, '12', Infinity, null]) expect(validateSchema('PaymentRequest', { ...ok, amount }), String(amount)).not.toEqual([]);
    for (const currency of ['eur', 'EU', 'EURO', 'ABC', 7]) expect(validateSchema('PaymentRequest', { ...ok, currency }), String(currency)).not.toEqual([]);
  });
});
