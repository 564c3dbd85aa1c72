/**
 * The fuzz campaign's requests as fast-check arbitraries, built from the contract: every
 * operation of spec/openapi.yaml and spec/sandbox.yaml with malformed query parameters,
 * headers, bodies and path parameters (sent through fetch), and byte-level requests written
 * on a raw socket (`raw-cases.ts`). A case names credentials, never holds them, so that it
 * prints without a secret and runs against any target.
 */
import fc from 'fast-check';
import { type Json, listOperations, openapi, type OperationSpec, resolveRef, sandboxOpenapi } from '../../spec/load.ts';
import { type RawCase, rawCase, type RequestTarget } from './raw-cases.ts';
import { stressedBody } from './stressed-bodies.ts';

type JsonObject = { [key: string]: Json };

/** The key a `garbage` case sends: of a key's usual shape, held by no tenant. */
export const GARBAGE_KEY = `wbk_AAAAAAAAAAAA_${'A'.repeat(32)}`;

/** Which credentials a case sends: a key of the profile (the admin token on the control plane), a made-up one, or none. */
export type Credential = 'full' | 'ordersRead' | 'noScopes' | 'garbage' | 'none';

/** A request sent through fetch to one operation of one document. */
export interface HttpCase {
  transport: 'fetch';
  document: 'integration' | 'sandbox';
  operationId: string;
  method: string;
  /** The path with its parameters filled in (as sent), relative to the document's base: the target, or the control plane's URL. */
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  credential: Credential;
  /** Sent as is; undefined sends no body. */
  body?: string;
}

/** One case of the campaign. */
export type FuzzCase = HttpCase | RawCase;

/** Control-plane operations sent only with bad credentials: they would wipe the sandbox or fill it. */
const guardedOperations = new Set(['resetSandbox', 'createProfile']);

/** The documents by name; the control plane's paths are relative to its own base URL. */
const documents = { integration: openapi, sandbox: sandboxOpenapi } as const;

/** Short strings that tend to break parsers and validators. */
const nasty = ['', ' ', '%', '%00', '%zz', '..', '../..', '-1', '0', '1e999', 'NaN', 'null', 'true', '[]', '{}', '\u0000', '\u202e', '😀', 'New', 'Planned', 'Cancelled', '2026-11-20T09:30:11.482Z', '2026-13-40T99:99:99Z', 'a'.repeat(300), '__proto__', 'constructor'];

/** Any text: printable, arbitrary Unicode (lone surrogates included), or one of `nasty`. */
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...nasty));

/** A header value fetch accepts: Latin-1 without control characters. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 120 }),
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 20 }),
  fc.constantFrom('', ' ', 'a'.repeat(300), 'null', '-1', '*/*'),
);

/** A header name fetch accepts (an RFC 9110 token). */
const headerName = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,30}$/);

/** The headers of a case: the ones the API reads, with good and bad values, and a few others. */
const headers = fc
  .tuple(
    fc.record(
      {
        'Content-Type': fc.oneof(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/problem+json', 'multipart/form-data', ';;', ''), headerValue),
        'Idempotency-Key': fc.oneof(fc.uuid(), headerValue),
        'X-Request-Id': headerValue,
        Accept: fc.oneof(fc.constantFrom('application/json', 'text/html', 'application/xml', '*/*'), headerValue),
        'Content-Encoding': fc.oneof(fc.constantFrom('gzip', 'identity', 'br', 'deflate, gzip'), headerValue),
        'X-Tenant-Id': fc.oneof(fc.uuid(), headerValue),
        'If-None-Match': headerValue,
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
  )
  .map(([known, other]) => ({ ...other, ...known }));

/** Property names of a request body schema, `$ref`s followed, a few levels deep. */
function propertyNames(schema: Json | undefined, document: JsonObject, depth = 0): string[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || depth > 3) return [];
  const ref = schema['$ref'];
  // A reference into the other document names an enum or a shared scalar: no members to find there.
  if (typeof ref === 'string' && !ref.startsWith('#/')) return [];
  const resolved = ref === undefined ? schema : resolveRef<JsonObject>(schema, document);
  const own = Object.keys((resolved['properties'] as JsonObject | undefined) ?? {});
  const nested = Object.values((resolved['properties'] as JsonObject | undefined) ?? {}).flatMap((property) => propertyNames(property, document, depth + 1));
  const items = propertyNames(resolved['items'] as Json | undefined, document, depth + 1);
  const branches = [...((resolved['oneOf'] ?? []) as Json[]), ...((resolved['allOf'] ?? []) as Json[]), ...((resolved['anyOf'] ?? []) as Json[])].flatMap((branch) => propertyNames(branch, document, depth + 1));
  return [...new Set([...own, ...nested, ...items, ...branches])];
}

/** A JSON value of any shape, or one the schema would nearly take. */
const jsonValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), text, fc.double(), fc.integer(), fc.constantFrom(0, -1, 1e308, 12.5, 'EUR', 'eur', 'XXX'), fc.uuid());

/** Every member name of every request body of both documents: what an item of a body's array may be given. */
const allBodyMembers = [
  ...new Set(
    Object.values(documents).flatMap((document) => listOperations(document).flatMap((operation) => propertyNames(Object.values(operation.requestBody?.content ?? {})[0], document))),
  ),
];

/**
 * A body for `operation`: none, text, any JSON, an object with the schema's member names and
 * wrong-ish values, or (one in 36) a body nested or widened to the edge of 1 MiB.
 */
function bodyOf(operation: OperationSpec, document: JsonObject): fc.Arbitrary<string | undefined> {
  const names = propertyNames(Object.values(operation.requestBody?.content ?? {})[0], document);
  const object = names.length === 0 ? fc.dictionary(fc.string({ maxLength: 10 }), jsonValue, { maxKeys: 4 }) : fc.dictionary(fc.constantFrom(...names), jsonValue, { maxKeys: names.length });
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(undefined) },
    { weight: 5, arbitrary: text },
    { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 15, arbitrary: object.map((value) => JSON.stringify(value)) },
    { weight: 5, arbitrary: object.map((value) => JSON.stringify(value).slice(0, -1)) },
    { weight: 1, arbitrary: stressedBody(names, allBodyMembers) },
  );
}

/** A path parameter value as it appears in the path: a known one, a UUID, or anything percent-encoded (or not). */
function pathValue(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    ...(known.length > 0 ? [fc.constantFrom(...known)] : []),
    fc.uuid(),
    fc.constantFrom('0', '-1', '99999999999999999999', 'EXT-1', 'missing', '%', '%zz', '%E0%A4%A', '%00', '..', '%2F', '%2e%2e', 'a;b', '~'),
    fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }).map((value) => encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '?'))),
  );
}

/** Query parameters: the operation's own names and a few others, with any values, sometimes repeated. */
function queryOf(operation: OperationSpec): fc.Arbitrary<[string, string][]> {
  const own = operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
  const name = fc.oneof(...(own.length > 0 ? [fc.constantFrom(...own)] : []), fc.constantFrom('status[]', '__proto__', 'limit', 'cursor'), fc.string({ maxLength: 10 }));
  return fc.array(fc.tuple(name, text), { maxLength: 5 });
}

/** What the generator may know of the target: values that make a path parameter hit something. */
export interface CaseOptions {
  /** Known values by path parameter name (`externalId`: ids of the profile's orders). */
  pathValues?: Record<string, readonly string[]>;
  /** Include the control plane's operations (the run has its token). */
  sandbox?: boolean;
  /** Include byte-level requests on raw sockets. */
  raw?: boolean;
  /**
   * Aim byte-level requests at the control plane's operations too, under the target's
   * `/sandbox/v1` (the reference's layout; a vendor's control plane may live elsewhere).
   */
  rawSandbox?: boolean;
}

/** A made-up id for a path parameter of a byte-level case: such a request reaches its operation and changes nothing. */
const ABSENT_ID = '00000000-0000-4000-8000-00000000f022';

/** The operations byte-level cases may aim at, every path parameter a made-up id but the tenant's. */
function rawTargets(options: CaseOptions): RequestTarget[] {
  const fill = (path: string) => path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(name === 'tenantId' ? (options.pathValues?.['tenantId']?.[0] ?? ABSENT_ID) : name === 'externalId' ? 'fuzz-absent-1' : ABSENT_ID));
  const integration = listOperations(openapi).map((operation) => ({ method: operation.method, path: fill(operation.path) }));
  const sandbox = options.rawSandbox ? listOperations(sandboxOpenapi).map((operation) => ({ method: operation.method, path: `/sandbox/v1${fill(operation.path)}` })) : [];
  return [...integration, ...sandbox];
}

/** The fetch cases of one operation of `document`. */
function httpCase(operation: OperationSpec, documentName: HttpCase['document'], options: CaseOptions): fc.Arbitrary<HttpCase> {
  const document = documents[documentName];
  const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const values = fc.tuple(...names.map((name) => pathValue(options.pathValues?.[name] ?? [])));
  const credentials: Credential[] = guardedOperations.has(operation.operationId) ? ['garbage', 'none'] : documentName === 'sandbox' ? ['full', 'full', 'garbage', 'none'] : ['full', 'full', 'ordersRead', 'noScopes', 'garbage', 'none'];
  const method = fc.oneof({ weight: 9, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') });
  return fc.record({ values, query: queryOf(operation), headers, credential: fc.constantFrom(...credentials), body: bodyOf(operation, document), method }).map(({ values: filled, query, headers: sent, credential, body, method: chosen }) => ({
    transport: 'fetch' as const,
    document: documentName,
    operationId: operation.operationId,
    method: chosen,
    path: names.reduce((path, name, index) => path.replace(`{${name}}`, filled[index]!), operation.path),
    query,
    headers: sent,
    credential,
    ...(body === undefined || chosen === 'GET' ? {} : { body }),
  }));
}

/**
 * One case of the campaign: a fetch request to any operation of the integration API (and,
 * with `options.sandbox`, of the control plane) or, with `options.raw`, bytes on a raw socket
 * (about a third).
 */
export function fuzzCase(options: CaseOptions = {}): fc.Arbitrary<FuzzCase> {
  const each = (document: HttpCase['document']) => fc.oneof(...listOperations(documents[document]).map((operation) => httpCase(operation, document, options)));
  // The six operations of the integration API get as many cases as the thirty of the control plane.
  const http = options.sandbox ? fc.oneof(each('integration'), each('sandbox')) : each('integration');
  if (!options.raw) return http;
  return fc.oneof({ weight: 2, arbitrary: http }, { weight: 1, arbitrary: rawCase(options.pathValues?.['externalId'] ?? [], rawTargets(options)) });
}

/** A short name of what a case aims at, for the campaign's counts: `fetch orderFeed`, `raw bad-chunked`. */
export function caseLabel(item: FuzzCase): string {
  return item.transport === 'fetch' ? `fetch ${item.document === 'sandbox' ? 'sandbox.' : ''}${item.operationId}` : `raw ${item.kind}`;
}
