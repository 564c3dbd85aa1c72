/**
 * The one loader of the contract. Reads `openapi.yaml`, `sandbox.yaml` and `errors.yaml`
 * once, and exposes the parsed documents, the error catalog as a typed map, and Ajv 2020
 * validators for every component schema. The server validates requests and the
 * conformance suite validates responses with these same validators.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import currencyCodes from 'currency-codes';
import countries from 'i18n-iso-countries';
import { parse as parseYaml } from 'yaml';
import type { CatalogCode } from './catalog-codes.ts';
import type { components } from './openapi-types.ts';
import { DOCUMENT_CACHE_FILE, packageFile } from './package-files.ts';

export type { CatalogCode } from './catalog-codes.ts';

type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type OrderPage = Schemas['OrderPage'];
export type Trip = Schemas['Trip'];
export type TripPage = Schemas['TripPage'];
export type PaymentRequest = Schemas['PaymentRequest'];
export type CancelRequest = Schemas['CancelRequest'];
export type KeyIdentity = Schemas['KeyIdentity'];
export type FieldError = Schemas['FieldError'];
export type ValidationProblem = Schemas['ValidationProblem'];
export type Problem = Schemas['Problem'];
export type OrderStatusName = Schemas['OrderStatusName'];
export type OrderType = Schemas['OrderType'];
export type TripStatus = Schemas['TripStatus'];

/** Where a catalog code can be answered (D24). */
export type Reach = 'integration' | 'sandbox' | 'catalog';

/** One code of `errors.yaml`. */
export interface CatalogEntry {
  code: CatalogCode;
  status: number;
  group: string;
  meaning: string;
  reach: Reach;
}

/** How binding a requirement is: the seeds state it, it follows from them, or a decision fills a gap. */
export type RequirementLevel = 'MUST' | 'SHOULD' | 'DECISION';

/** One entry of `requirements.yaml` (its header explains each field). */
export interface RegisterEntry {
  id: string;
  level: RequirementLevel;
  document: '01-integration-api.md' | '02-error-catalog.md' | 'DECISIONS.md';
  section: string;
  quote: string;
  operations: string[];
  via?: 'control-plane';
  testable?: false;
  reason?: string;
  because?: string;
  /** How the suite reads a seed statement that another sentence of the seeds could seem to relax, and why. */
  reading?: string;
  /** Whose code embodies the rule when the reference sandbox does not; left out, the sandbox implements it (spec/requirement-markers.ts). */
  implementedBy?: 'tools' | 'client' | 'contract' | 'none';
}

/** A JSON value as YAML or JSON parsing yields it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Which document a component schema belongs to. */
export type DocumentName = 'integration' | 'sandbox';

function readSpecFile(name: string): string {
  return readFileSync(packageFile(`spec/${name}`), 'utf8');
}

/** A YAML document of `spec/` as loaded: its parsed value and the SHA-256 of its text. */
export interface ParsedDocument {
  sha256: string;
  value: Json;
}

/**
 * The YAML documents as the build parsed (and, for the register, validated) them, under the
 * SHA-256 of their text. A file changed since the build misses the cache and is parsed
 * again, so the cache only saves start-up time (YAML parsing is most of it); it can never
 * serve an old contract.
 */
const documentCache: Record<string, ParsedDocument> = readDocumentCache();

function readDocumentCache(): Record<string, ParsedDocument> {
  try {
    return JSON.parse(readFileSync(DOCUMENT_CACHE_FILE, 'utf8')) as Record<string, ParsedDocument>;
  } catch {
    return {};
  }
}

/** Every YAML document this process loaded, by file name: what the build writes to the cache. */
export const parsedDocuments = new Map<string, ParsedDocument>();

/**
 * `text` parsed: the cache's value when the cache holds this very text (same SHA-256), else
 * the YAML parser's. `fromCache` says which.
 */
export function parseDocument(text: string, cached: ParsedDocument | undefined): ParsedDocument & { fromCache: boolean } {
  const sha256 = createHash('sha256').update(text).digest('hex');
  if (cached?.sha256 === sha256) return { ...cached, fromCache: true };
  return { sha256, value: parseYaml(text) as Json, fromCache: false };
}

/** Reads and parses a YAML document of `spec/`, through the build's cache. */
function loadYaml(name: string): ParsedDocument & { fromCache: boolean } {
  const document = parseDocument(readSpecFile(name), documentCache[name]);
  parsedDocuments.set(name, { sha256: document.sha256, value: document.value });
  return document;
}

const openapiDocument = loadYaml('openapi.yaml');

/** The integration API's OpenAPI 3.1 document, parsed. */
export const openapi = openapiDocument.value as JsonObject;
/** The sandbox control plane's OpenAPI 3.1 document, parsed. */
export const sandboxOpenapi = loadYaml('sandbox.yaml').value as JsonObject;
/** SHA-256 of `openapi.yaml` as shipped, recorded in conformance reports. */
export const specHash = openapiDocument.sha256;

/** The `enum` of the integration document's component schema `name`. */
function enumOf(name: string): string[] {
  const schemas = (openapi['components'] as JsonObject)['schemas'] as JsonObject;
  const values = (schemas[name] as JsonObject | undefined)?.['enum'];
  if (!Array.isArray(values)) throw new Error(`spec/openapi.yaml: components.schemas.${name} has no enum`);
  return values as string[];
}

/** The order statuses the contract lists (`OrderStatusName`, the seeds' "Allowed values of `status`"), in its order. */
export const orderStatuses: readonly OrderStatusName[] = enumOf('OrderStatusName') as OrderStatusName[];
/** The trip statuses the contract lists (`TripStatus`, D16), in its order. */
export const tripStatuses: readonly TripStatus[] = enumOf('TripStatus') as TripStatus[];
/** The order types the contract lists (`OrderType`), in its order. */
export const orderTypes: readonly OrderType[] = enumOf('OrderType') as OrderType[];

const errorsDocument = loadYaml('errors.yaml').value as unknown as { codes: CatalogEntry[] };

/**
 * The requirements register (`requirements.yaml`), by id, in register order: every testable
 * statement of the seeds and every decision. Validated against `requirements.schema.json`
 * when loaded, so a malformed entry stops every command rather than skewing a verdict.
 */
export const requirements: ReadonlyMap<string, RegisterEntry> = loadRegister();

function loadRegister(): Map<string, RegisterEntry> {
  const document = loadYaml('requirements.yaml');
  const register = document.value as unknown as { requirements: RegisterEntry[] };
  // The build validated the text it cached; only a register changed since needs it again.
  if (!document.fromCache) validateRegister(register);
  const byId = new Map<string, RegisterEntry>();
  for (const entry of register.requirements) {
    if (byId.has(entry.id)) throw new Error(`spec/requirements.yaml lists '${entry.id}' twice`);
    byId.set(entry.id, entry);
  }
  return byId;
}

function validateRegister(register: { requirements: RegisterEntry[] }): void {
  const schema = JSON.parse(readSpecFile('requirements.schema.json')) as object;
  const validate = new Ajv2020({ allErrors: true }).compile(schema);
  if (!validate(register)) {
    const where = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
    throw new Error(`spec/requirements.yaml does not match spec/requirements.schema.json: ${where.join('; ')}`);
  }
}

/** Where a requirement stands, as reports cite it: `01-integration-api.md › Section` or `spec/DECISIONS.md D4 — Title`. */
export function citationOf(entry: RegisterEntry): string {
  return entry.document === 'DECISIONS.md' ? `spec/DECISIONS.md ${entry.section}` : `${entry.document} › ${entry.section}`;
}

/** The error catalog, by code. */
export const catalog: ReadonlyMap<CatalogCode, CatalogEntry> = new Map(
  errorsDocument.codes.map((entry) => [entry.code, entry]),
);

/** The catalog entry of `code`; throws on a code the catalog does not hold. */
export function catalogEntry(code: string): CatalogEntry {
  const entry = catalog.get(code as CatalogCode);
  if (entry === undefined) throw new Error(`'${code}' is not a code of spec/errors.yaml`);
  return entry;
}

/**
 * The HTTP statuses `entry` may be answered with: its catalog status, plus any status its
 * meaning adds ("Also answered 415 when the request has no Content-Type at all", as for
 * api.malformed_request). Read from the catalog text, so no code is special-cased anywhere.
 */
export function statusesOf(entry: CatalogEntry): number[] {
  const extra = [...entry.meaning.matchAll(/[Aa]lso answered (\d{3})\b/g)].map((match) => Number(match[1]));
  return [entry.status, ...extra];
}

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

/** Resolves a local `$ref` (`#/components/...`) of `document`, following chains of references. */
export function resolveRef<T = JsonObject>(value: Json, document: JsonObject = openapi): T {
  let current = value;
  while (current !== null && typeof current === 'object' && !Array.isArray(current) && typeof current['$ref'] === 'string') {
    const pointer = current['$ref'];
    if (!pointer.startsWith('#/')) throw new Error(`only local references are supported: ${pointer}`);
    current = pointer
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json>((node, part) => (node as JsonObject)[part] as Json, document);
    if (current === undefined) throw new Error(`unresolved reference ${pointer}`);
  }
  return current as T;
}

/** A parameter of an operation, references resolved. */
export interface ParameterSpec {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required: boolean;
  schema: Json;
  explode: boolean;
}

/** A header of a response, references resolved. */
export interface HeaderSpec {
  required: boolean;
  schema: Json;
}

/** One declared response of an operation. */
export interface ResponseSpec {
  /** The content types it may carry, each with its schema (absent for 204). */
  content: Record<string, Json>;
  headers: Record<string, HeaderSpec>;
}

/** An operation of a document, with everything a validator needs resolved. */
export interface OperationSpec {
  operationId: string;
  method: string;
  /** The OpenAPI path template, e.g. `/api/v1/integration/orders/externalid/{externalId}`. */
  path: string;
  /** The scope its security requirement names, or null when it needs none. */
  scope: string | null;
  errorCodes: CatalogCode[];
  parameters: ParameterSpec[];
  requestBody: { required: boolean; content: Record<string, Json> } | null;
  responses: Record<string, ResponseSpec>;
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every operation of `document`, in document order. */
export function listOperations(document: JsonObject = openapi): OperationSpec[] {
  const operations: OperationSpec[] = [];
  for (const [path, item] of Object.entries((document['paths'] as JsonObject | undefined) ?? {})) {
    for (const [method, raw] of Object.entries(item as JsonObject)) {
      if (!methods.includes(method)) continue;
      const operation = raw as JsonObject;
      const security = (operation['security'] ?? document['security'] ?? []) as JsonObject[];
      const scope = security.map((requirement) => Object.values(requirement)[0] as string[]).find((s) => s.length > 0)?.[0];
      const parameters = ((operation['parameters'] ?? []) as Json[]).map((ref): ParameterSpec => {
        const parameter = resolveRef(ref, document);
        return {
          name: parameter['name'] as string,
          in: parameter['in'] as ParameterSpec['in'],
          required: parameter['required'] === true,
          schema: parameter['schema'] as Json,
          explode: parameter['explode'] !== false,
        };
      });
      const body = operation['requestBody'] === undefined ? null : resolveRef(operation['requestBody'], document);
      const responses: Record<string, ResponseSpec> = {};
      for (const [status, ref] of Object.entries(operation['responses'] as JsonObject)) {
        const response = resolveRef(ref, document);
        const content: Record<string, Json> = {};
        for (const [type, media] of Object.entries((response['content'] as JsonObject | undefined) ?? {})) {
          content[type] = (media as JsonObject)['schema'] as Json;
        }
        const headers: Record<string, HeaderSpec> = {};
        for (const [name, headerRef] of Object.entries((response['headers'] as JsonObject | undefined) ?? {})) {
          const header = resolveRef(headerRef, document);
          headers[name] = { required: header['required'] === true, schema: header['schema'] as Json };
        }
        responses[status] = { content, headers };
      }
      operations.push({
        operationId: operation['operationId'] as string,
        method: method.toUpperCase(),
        path,
        scope: scope ?? null,
        errorCodes: (operation['x-error-codes'] ?? []) as CatalogCode[],
        parameters,
        requestBody:
          body === null
            ? null
            : {
                required: body['required'] === true,
                content: Object.fromEntries(
                  Object.entries(body['content'] as JsonObject).map(([type, media]) => [type, (media as JsonObject)['schema'] as Json]),
                ),
              },
        responses,
      });
    }
  }
  return operations;
}

/** The integration API's operations, by operationId. */
export const operations: ReadonlyMap<string, OperationSpec> = new Map(listOperations().map((op) => [op.operationId, op]));
