/**
 * Ajv 2020 validators for every component schema of both documents. The server validates
 * requests and the conformance suite validates responses with these same validators.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import currencyCodes from 'currency-codes';
import countries from 'i18n-iso-countries';
import { type Json, type JsonObject, openapi, sandboxOpenapi } from './documents.ts';

/** Which document a component schema belongs to. */
export type DocumentName = 'integration' | 'sandbox';

/** True when `value` is a current ISO 4217 currency code (upper case), per the currency-codes package. */
export function isIsoCurrency(value: string): boolean {
  return /^[A-Z]{3}$/.test(value) && currencyCodes.code(value) !== undefined;
}

/** True when `value` is an ISO 3166-1 alpha-2 country code (upper case), per the i18n-iso-countries package. */
export function isIsoCountry(value: string): boolean {
  return /^[A-Z]{2}$/.test(value) && countries.isValid(value);
}

const schemaIds: Record<DocumentName, string> = {
  integration: 'urn:waybill:openapi',
  sandbox: 'urn:waybill:sandbox',
};

// The sandbox document reuses the integration document's schemas (`./openapi.yaml#/components/schemas/Order`).
const integrationSchemaRef = /^(?:\.\/)?openapi\.yaml#\/components\/schemas\//;

/**
 * Rewrites every `#/components/schemas/X` reference in `value` to `<prefix>X`, and every
 * `./openapi.yaml#/components/schemas/X` to the integration document's loaded schema X.
 */
function rewriteSchemaRefs(value: Json, prefix: string): Json {
  if (Array.isArray(value)) return value.map((item) => rewriteSchemaRefs(item, prefix));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof child === 'string'
        ? integrationSchemaRef.test(child)
          ? child.replace(integrationSchemaRef, `${schemaIds.integration}#/$defs/`)
          : child.replace('#/components/schemas/', prefix)
        : rewriteSchemaRefs(child, prefix);
  }
  return out;
}

/**
 * A schema written inside one of the documents (a parameter's or a header's) made
 * compilable by `ajv`: its component references point at the loaded component schemas.
 */
export function standaloneSchema(schema: Json, document: DocumentName = 'integration'): object {
  return rewriteSchemaRefs(schema, `${schemaIds[document]}#/$defs/`) as object;
}

/** Every `x-*` key used inside the schemas; each becomes an annotation keyword of Ajv. */
function extensionKeywords(value: Json, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => extensionKeywords(item, into));
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-')) into.add(key);
      extensionKeywords(child, into);
    }
  }
  return into;
}

function componentSchemas(document: JsonObject): JsonObject {
  const components = document['components'] as JsonObject | undefined;
  return (components?.['schemas'] as JsonObject | undefined) ?? {};
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The start of an RFC 3339 date-time: a full date and the `T` before the time. */
const RFC3339_DATE_TIME_HEAD = /^\d{4}-\d{2}-\d{2}[Tt]/;

/**
 * A new Ajv 2020 instance that knows every component schema of both documents.
 * `coerceTypes: 'array'` is for request parameters, which arrive as strings; responses
 * are validated without coercion. `verbose` puts the failing schema and value on each error.
 */
export function createAjv(options: { coerceTypes?: false | 'array'; verbose?: boolean; allErrors?: boolean; wellFormedText?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: options.allErrors ?? true,
    coerceTypes: options.coerceTypes ?? false,
    // Errors carry the failing schema and value: the server reads `x-error-code` from it.
    verbose: options.verbose ?? false,
    // OpenAPI allows `type: [string, 'null']` with `format`; strictTypes would reject the union.
    allowUnionTypes: true,
  });
  addFormats(ajv);
  // ajv-formats also reads a space between date and time as a date-time (ajv-formats#55); RFC 3339's
  // date-time production, which OpenAPI's `date-time` names, has `T` (either case) there (D9, D20).
  const dateTime = ajv.formats['date-time'] as { validate: (text: string) => boolean; compare?: (a: string, b: string) => number | undefined };
  ajv.addFormat('date-time', { type: 'string', validate: (text: string) => RFC3339_DATE_TIME_HEAD.test(text) && dateTime.validate(text), ...(dateTime.compare ? { compare: dateTime.compare } : {}) });
  // A JSON number parses to Infinity when it overflows (`1e999`); no double is infinite.
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addKeyword({
    keyword: 'x-iso4217',
    type: 'string',
    schemaType: 'boolean',
    validate: (required: boolean, value: string) => !required || isIsoCurrency(value),
    error: { message: 'must be an ISO 4217 currency code' },
  });
  const documents: Record<DocumentName, JsonObject> = { integration: openapi, sandbox: sandboxOpenapi };
  const keywords = new Set<string>();
  for (const document of Object.values(documents)) extensionKeywords(componentSchemas(document), keywords);
  ajv.addKeyword({
    keyword: 'x-iso3166-alpha2',
    type: 'string',
    schemaType: 'boolean',
    validate: (required: boolean, value: string) => !required || isIsoCountry(value),
    error: { message: 'must be an ISO 3166-1 alpha-2 country code' },
  });
  ajv.addKeyword({
    keyword: WELL_FORMED_KEYWORD,
    type: 'string',
    schemaType: 'boolean',
    validate: (required: boolean, value: string) => !required || isWellFormedText(value),
    error: { message: 'must not contain NUL or an unpaired surrogate' },
  });
  keywords.delete('x-iso4217');
  keywords.delete('x-iso3166-alpha2');
  for (const keyword of keywords) ajv.addKeyword({ keyword, schemaType: ['string', 'number', 'boolean', 'array', 'object', 'null'] });
  for (const [name, document] of Object.entries(documents) as [DocumentName, JsonObject][]) {
    const defs = rewriteSchemaRefs(componentSchemas(document), '#/$defs/');
    ajv.addSchema({ $id: schemaIds[name], $defs: options.wellFormedText ? requireWellFormedText(defs) : defs } as object);
  }
  return ajv;
}

/** The keyword `requireWellFormedText` adds to every string schema. */
export const WELL_FORMED_KEYWORD = 'x-waybill-well-formed';

// NUL, or a UTF-16 surrogate without its pair: text that cannot be stored or sent back as it came.
// eslint-disable-next-line no-control-regex
const illFormedText = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` has no NUL and no unpaired surrogate. */
export function isWellFormedText(value: string): boolean {
  return !illFormedText.test(value);
}

/**
 * `schema` with every string schema in it also requiring well-formed text (no NUL, no
 * unpaired surrogate): what a request may carry, not what an answer is checked against.
 */
export function requireWellFormedText<T extends Json | object>(schema: T): T {
  const walk = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) out[key] = key === 'enum' || key === 'const' || key === 'examples' || key === 'example' || key === 'default' ? child : walk(child);
    const type = value['type'];
    if (type === 'string' || (Array.isArray(type) && type.includes('string'))) out[WELL_FORMED_KEYWORD] = true;
    return out;
  };
  return walk(schema as Json) as T;
}

let shared: Ajv2020 | undefined;

/** The shared Ajv instance (no coercion), made on first use. */
export function sharedAjv(): Ajv2020 {
  return (shared ??= createAjv());
}

/** The JSON Schema reference of a component schema, for composing schemas in another Ajv instance. */
export function schemaRef(name: string, document: DocumentName = 'integration'): { $ref: string } {
  if (!(name in componentSchemas(document === 'integration' ? openapi : sandboxOpenapi))) {
    throw new Error(`no component schema '${name}' in the ${document} document`);
  }
  return { $ref: `${schemaIds[document]}#/$defs/${name}` };
}

const validators = new Map<string, ValidateFunction>();

/** The compiled validator of a component schema, by name (compiled once, then cached). */
export function validator(name: string, document: DocumentName = 'integration'): ValidateFunction {
  const key = `${document}:${name}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = sharedAjv().compile(schemaRef(name, document));
    validators.set(key, validate);
  }
  return validate;
}

/** Validates `value` against the component schema `name`; returns the Ajv errors, empty when valid. */
export function validateSchema(name: string, value: unknown, document: DocumentName = 'integration'): ErrorObject[] {
  const validate = validator(name, document);
  return validate(value) ? [] : [...(validate.errors ?? [])];
}
