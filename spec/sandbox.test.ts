/** spec/sandbox.yaml: its schemas compile, its examples are true, and its error codes are the catalog's (D24). */
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { catalog, type Json, listOperations, operations as integrationOperations, resolveRef, sandboxOpenapi, sharedAjv, standaloneSchema, validator } from './load.ts';

type JsonObject = { [key: string]: Json };

const operations = listOperations(sandboxOpenapi);
const schemas = (sandboxOpenapi['components'] as JsonObject)['schemas'] as JsonObject;

/** Every media-type example of the document's requests and responses. */
function* examples(): Generator<{ where: string; status: string | null; schema: Json; value: Json }> {
  for (const [path, item] of Object.entries(sandboxOpenapi['paths'] as JsonObject)) {
    for (const [method, raw] of Object.entries(item as JsonObject)) {
      const operation = raw as JsonObject;
      const media: [string | null, JsonObject][] = [];
      if (operation['requestBody'] !== undefined) {
        for (const m of Object.values(resolveRef(operation['requestBody'], sandboxOpenapi)['content'] as JsonObject)) media.push([null, m as JsonObject]);
      }
      for (const [status, ref] of Object.entries(operation['responses'] as JsonObject)) {
        for (const m of Object.values((resolveRef(ref, sandboxOpenapi)['content'] as JsonObject | undefined) ?? {})) media.push([status, m as JsonObject]);
      }
      for (const [status, m] of media) {
        for (const [name, example] of Object.entries((m['examples'] as JsonObject | undefined) ?? {})) {
          yield { where: `${method.toUpperCase()} ${path} ${status ?? 'request'} '${name}'`, status, schema: m['schema'] as Json, value: resolveRef(example, sandboxOpenapi)['value'] as Json };
        }
      }
    }
  }
}

describe('spec/sandbox.yaml', () => {
  it('compiles every component schema in Ajv', () => {
    for (const name of Object.keys(schemas)) expect(() => validator(name, 'sandbox'), name).not.toThrow();
  });

  it('validates every example against its schema, and has one for every response with a body', () => {
    const all = [...examples()];
    for (const example of all) {
      const validate = sharedAjv().compile(standaloneSchema(example.schema, 'sandbox'));
      expect(validate(example.value), `${example.where}: ${sharedAjv().errorsText(validate.errors)}`).toBe(true);
    }
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Object.keys(response.content).length === 0) continue;
        expect(all.some((e) => e.where.startsWith(`${op.method} ${op.path} ${status} `)), `${op.operationId} ${status}`).toBe(true);
      }
    }
  });

  it("gives every problem example a catalog type of the response status and the catalog's title (D89), or about:blank for 401, 404, 409, 417 and 500 with the status's reason phrase", () => {
    for (const example of examples()) {
      if (example.status === null || !/^[45]/.test(example.status)) continue;
      const body = example.value as JsonObject;
      expect(body['status'], example.where).toBe(Number(example.status));
      if (body['type'] === 'about:blank') {
        expect(['401', '404', '409', '417', '500'], example.where).toContain(example.status);
        expect(body['title'], example.where).toBe(STATUS_CODES[Number(example.status)]);
      } else {
        expect(catalog.get(body['type'] as never)?.status, example.where).toBe(Number(example.status));
        expect(body['title'], example.where).toBe(catalog.get(body['type'] as never)?.title);
      }
    }
  });

  it('lists in x-error-codes only catalog codes of reach sandbox or integration, with their status declared', () => {
    for (const op of operations) {
      for (const code of op.errorCodes) {
        const entry = catalog.get(code);
        expect(entry?.reach, `${op.operationId}: ${code}`).toMatch(/^(sandbox|integration)$/);
        expect(Object.keys(op.responses), `${op.operationId}: ${code}`).toContain(String(entry?.status));
      }
    }
  });

  it('lists every code of reach sandbox in some operation', () => {
    const listed = new Set(operations.flatMap((op) => op.errorCodes));
    expect([...catalog.values()].filter((entry) => entry.reach === 'sandbox' && !listed.has(entry.code)).map((entry) => entry.code)).toEqual([]);
  });

  it('repeats the lists of openapi.yaml and its own in step: operations, scopes, states, modes, fault members', () => {
    const enumOf = (schema: Json) => (schema as JsonObject)['enum'] as Json[];
    const propertyEnum = (name: string, property: string) => enumOf(((schemas[name] as JsonObject)['properties'] as JsonObject)[property] as Json);
    const parameterEnum = (name: string) => enumOf(resolveRef<JsonObject>({ $ref: `#/components/parameters/${name}` }, sandboxOpenapi)['schema'] as Json);
    const operationIds = [...integrationOperations.keys()];
    expect(enumOf(schemas['IntegrationOperation'] as Json)).toEqual(operationIds);
    expect(parameterEnum('RequestLogOperation')).toEqual(operationIds);
    const scopes = new Set([...integrationOperations.values()].flatMap((operation) => (operation.scope === null ? [] : [operation.scope])));
    expect([...enumOf(schemas['Scope'] as Json)].sort()).toEqual([...scopes].sort());
    expect(enumOf(schemas['TenantStateFilter'] as Json)).toEqual(enumOf(schemas['TenantState'] as Json));
    expect(propertyEnum('ClockSetting', 'mode')).toEqual(propertyEnum('Clock', 'mode'));
    // A nullable enum is a oneOf of the enum and null, which every client generator compiles (D91).
    const nullableEnum = (name: string, property: string) => {
      const arms = (((schemas[name] as JsonObject)['properties'] as JsonObject)[property] as JsonObject)['oneOf'] as JsonObject[];
      return arms.flatMap((arm) => (arm['type'] === 'null' ? [null] : enumOf(arm)));
    };
    for (const member of ['status', 'problemType', 'when']) {
      expect(nullableEnum('FaultRule', member), member).toEqual([...propertyEnum('NewFaultRule', member), null]);
    }
    expect(nullableEnum('RequestLogFault', 'when')).toEqual(nullableEnum('FaultRule', 'when'));
    const stopStatuses = enumOf(schemas['StopStatus'] as Json);
    for (const status of propertyEnum('StopOutcomeRequest', 'status')) expect(stopStatuses).toContain(status);
  });

  it('names only decisions that spec/DECISIONS.md records', () => {
    const recorded = new Set([...readFileSync(new URL('./DECISIONS.md', import.meta.url), 'utf8').matchAll(/^#{2,3} (D\d+) —/gm)].map((m) => m[1]));
    const named = new Set<string>();
    const walk = (node: Json): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [key, child] of Object.entries(node)) {
          if (key === 'x-waybill-decision') for (const d of [child].flat()) named.add(String(d));
          walk(child);
        }
      }
    };
    walk(sandboxOpenapi);
    expect([...named].filter((d) => !recorded.has(d))).toEqual([]);
  });
});
