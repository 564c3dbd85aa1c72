/**
 * Both documents in the forms that client generators (openapi-typescript, @hey-api/openapi-ts,
 * orval, openapi-zod-client) read as meant (issue 40, D91): no enum that lists null, no object
 * schema that generates as an empty object, a description on every operation, and an
 * Idempotency-Key example of its own for each operation that takes one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Json, listOperations, openapi, resolveRef, sandboxOpenapi } from './load.ts';

type JsonObject = { [key: string]: Json };

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const decisionsText = readFileSync(new URL('./DECISIONS.md', import.meta.url), 'utf8');
/** The text of decision `id` in spec/DECISIONS.md, heading to the next heading. */
const decisionSection = (id: string) => decisionsText.split(new RegExp(`^#{2,3} ${id} —`, 'm'))[1]!.split(/^#{2,3} D\d+ —/m)[0]!;

const documents: [string, JsonObject][] = [
  ['openapi.yaml', openapi],
  ['sandbox.yaml', sandboxOpenapi],
];

/** Every schema object in `value` with its JSON pointer. */
function* schemaObjects(value: Json, pointer = ''): Generator<[string, JsonObject]> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* schemaObjects(item, `${pointer}/${index}`);
  } else if (value !== null && typeof value === 'object') {
    yield [pointer, value];
    for (const [key, child] of Object.entries(value)) if (key !== 'examples' && key !== 'example') yield* schemaObjects(child, `${pointer}/${key}`);
  }
}

describe.each(documents)('spec/%s as client generators read it', (_name, document) => {
  it('lists null in no enum: a nullable enum is a oneOf of the enum and null', () => {
    const nullable = [...schemaObjects(document)].filter(([, node]) => Array.isArray(node['enum']) && node['enum'].includes(null)).map(([pointer]) => pointer);
    expect(nullable).toEqual([]);
  });

  it('has no object schema without members, which generates as an object that holds nothing', () => {
    const schemas = [...schemaObjects(document['components'] as JsonObject, '/components')].filter(([pointer]) => pointer.includes('/schema'));
    const empty = schemas
      .filter(([, node]) => node['type'] === 'object' && node['properties'] === undefined && node['additionalProperties'] === undefined && node['allOf'] === undefined && node['anyOf'] === undefined && node['oneOf'] === undefined)
      .map(([pointer]) => pointer);
    expect(empty).toEqual([]);
  });

  it('describes every operation, and names a contact', () => {
    expect(listOperations(document).length).toBeGreaterThan(5);
    for (const item of Object.values(document['paths'] as JsonObject)) {
      for (const operation of Object.values(item as JsonObject) as JsonObject[]) {
        expect(String(operation['description'] ?? '').trim(), String(operation['operationId'])).not.toBe('');
      }
    }
    expect((document['info'] as JsonObject)['contact']).toMatchObject({ name: expect.any(String), url: expect.stringMatching(/^https?:\/\//) });
  });
});

describe('spec/openapi.yaml', () => {
  it('gives each operation that takes an Idempotency-Key an example key of its own (D13)', () => {
    const examples = new Map<string, string>();
    for (const item of Object.values(openapi['paths'] as JsonObject)) {
      for (const operation of Object.values(item as JsonObject) as JsonObject[]) {
        for (const ref of (operation['parameters'] ?? []) as Json[]) {
          const parameter = resolveRef(ref);
          if (parameter['name'] === 'Idempotency-Key') examples.set(String(operation['operationId']), String(parameter['example']));
        }
      }
    }
    expect([...examples.keys()].sort()).toEqual(['archiveOrder', 'attachPayment', 'cancelOrder']);
    expect(new Set(examples.values()).size).toBe(3);
  });

  it('says in each feed how to resume once caught up, in the words of D4 and D6', () => {
    for (const operationId of ['orderFeed', 'tripFeed']) {
      const operation = Object.values(openapi['paths'] as JsonObject).flatMap((item) => Object.values(item as JsonObject) as JsonObject[]).find((op) => op['operationId'] === operationId)!;
      const description = collapse(String(operation['description']));
      expect(description, operationId).toContain('A caught-up consumer polls again later with `since` = the last `updatedAtUtc` it processed');
      expect(description, operationId).toContain('Delivery is at-least-once, so consumers dedupe on `(id, updatedAtUtc)`');
      // Every quotation is the decision's own words.
      const quotes = [...description.matchAll(/"([^"]+)" \((D\d+)\)/g)];
      expect(quotes.length, operationId).toBe(2);
      for (const [, quote, decision] of quotes) expect(collapse(decisionSection(decision!)), `${operationId}: ${decision}`).toContain(quote);
    }
  });
});
