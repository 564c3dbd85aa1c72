/**
 * Validates an HTTP Archive against HAR 1.2 as the `har-schema` package writes it (the JSON
 * Schema of the spec's own repository, which har-validator runs), compiled with the project's
 * Ajv and its formats: `uri` URLs and `date-time` start times included.
 */
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';

const require = createRequire(import.meta.url);
const schemas = require('har-schema') as Record<string, object>;
const draft06 = require('ajv/dist/refs/json-schema-draft-06.json') as object;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// har-schema's keywords `optional`, `unique` and `min` are no JSON Schema: strict mode would refuse them.
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
ajv.addMetaSchema(draft06);
ajv.addSchema(Object.values(schemas));
const validate = ajv.getSchema('har.json')!;

/** What `har` breaks of HAR 1.2, as `path: message` lines; empty when it is valid. */
export function harErrors(har: unknown): string[] {
  if (validate(har)) return [];
  return (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}`);
}
