/**
 * Both documents in the forms that client generators (openapi-typescript, @hey-api/openapi-ts,
 * orval, openapi-zod-client) read as meant (issue 40, D91): no enum that lists null, and no
 * object schema that generates as an empty object.
 */
import { describe, expect, it } from 'vitest';
import { type Json, openapi, sandboxOpenapi } from './load.ts';

type JsonObject = { [key: string]: Json };


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
});
