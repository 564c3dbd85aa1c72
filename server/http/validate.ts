/**
 * Request validation driven by the spec: each operation's query, path and header
 * parameters and JSON body are validated by Ajv validators compiled from
 * `spec/openapi.yaml` (or `spec/sandbox.yaml`). A field whose schema carries `x-error-code`
 * fails with that catalog code, and `x-error-codes-by-keyword` names another code for one
 * failing keyword (`{ maximum: apikeys.rate_limit_above_max }`); any other failure is
 * `api.malformed_request` naming the field (D9, D19).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { NextFunction, Request, Response } from 'express';
import {
  type CatalogCode,
  catalogEntry,
  createAjv,
  type DocumentName,
  type FieldError,
  type Json,
  type OperationSpec,
  type ParameterSpec,
  requireWellFormedText,
  standaloneSchema,
} from '../../spec/load.ts';
import { contextOf } from './context.ts';
import { fieldError, problem } from './problem.ts';

/** `make()`, called the first time the result is asked for and then remembered. */
function lazy<T>(make: () => T): () => T {
  let value: { made: T } | undefined;
  return () => (value ??= { made: make() }).made;
}

// The Ajv instances and every validator are made on first use, once: a process starts
// without compiling the schemas of operations it is never asked for.
// Parameters arrive as text and are coerced to their schema types; bodies are JSON and are not.
// Text a request carries must be well formed (no NUL, no unpaired surrogate) wherever the schema takes a string.
const parameterAjv = lazy(() => createAjv({ coerceTypes: 'array', verbose: true, wellFormedText: true }));
const bodyAjv = lazy(() => createAjv({ verbose: true, wellFormedText: true }));
// A body is first judged stopping at its first error: Ajv's allErrors grows quadratically with
// the errors inside a referenced schema's array items (10k bad lines took seconds).
const firstErrorAjv = lazy(() => createAjv({ verbose: true, allErrors: false, wellFormedText: true }));

interface OperationValidators {
  parameters: Record<Location, ValidateFunction | null>;
  validateBody: ValidateFunction | null;
  firstBodyError: ValidateFunction | null;
}

const validatorsByOperation = new Map<string, () => OperationValidators>();

/** Everything `warmValidators` makes ahead of use, in order: the Ajv instances, then each operation's validators. */
const warmUps: (() => unknown)[] = [parameterAjv, bodyAjv, firstErrorAjv];

/**
 * Makes every validator now, one per turn of the event loop, so that the first request to
 * an operation does not pay for its compilation (tens of milliseconds, hundreds for the
 * first) and no request waits behind more than one step. The server calls it once it
 * listens; a request that comes first simply makes its own validator.
 */
export async function warmValidators(): Promise<void> {
  for (const warmUp of warmUps) {
    await new Promise((resolve) => setImmediate(resolve));
    warmUp();
  }
}

/** At most this many field errors are listed in an answer; the detail says how many more there are. */
export const MAX_FIELD_ERRORS = 50;
/** Bodies up to this size (JSON text) are judged with every error counted; larger ones only in part. */
const FULL_REPORT_BYTES = 16 * 1024;
/** In a larger body, each array is judged on this many leading items for the listed errors. */
const PARTIAL_ARRAY_ITEMS = MAX_FIELD_ERRORS;

/** `value` with every array cut to its first `items` items, at any depth. */
function pruneArrays(value: unknown, items: number): unknown {
  if (Array.isArray(value)) return value.slice(0, items).map((item) => pruneArrays(item, items));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = pruneArrays(child, items);
  return out;
}

/** Decimal integer text, as a query parameter of type integer must be (D8): no `0x10`, `1e3`, ` 5`. */
const decimalInteger = /^-?\d+$/;

type Location = 'query' | 'path' | 'header';

/** An object schema whose properties are the operation's parameters in one location. */
function parametersSchema(parameters: ParameterSpec[], document: DocumentName): object {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, standaloneSchema(p.schema, document)])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  };
}

interface CodedSchema {
  'x-error-code'?: CatalogCode;
  'x-error-codes-by-keyword'?: Record<string, CatalogCode>;
}

/** The catalog code a schema names for a failure of `keyword`: by keyword first, then `x-error-code`. */
function codeOf(schema: unknown, keyword: string): CatalogCode | undefined {
  const coded = schema as CodedSchema | undefined;
  return coded?.['x-error-codes-by-keyword']?.[keyword] ?? coded?.['x-error-code'];
}

/** A body field's name as the request spells it: `lines[0].quantity`. */
function bodyField(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/** Turns Ajv errors into the seed's field errors, one per field, in schema order. */
function fieldErrors(errors: ErrorObject[], location: Location | 'body', byField = new Map<string, FieldError>()): FieldError[] {
  for (const error of errors) {
    const missing = error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : undefined;
    const pointer = missing === undefined ? error.instancePath : `${error.instancePath}/${missing}`;
    // A parameter is one field however deep the failure (`status/1` is the `status` parameter).
    const field = location === 'body' ? bodyField(pointer) : (pointer.split('/')[1] ?? '');
    if (field === '' || byField.has(field)) continue;
    const schema = missing === undefined ? error.parentSchema : (error.parentSchema as { properties?: Record<string, unknown> })?.properties?.[missing];
    const code = codeOf(schema, error.keyword) ?? 'api.malformed_request';
    const message = code === 'api.malformed_request' ? (missing === undefined ? `${field} ${error.message ?? 'is invalid'}` : `${field} is required`) : catalogEntry(code).meaning;
    byField.set(field, fieldError(field, code, message, missing === undefined ? error.data : undefined));
  }
  return [...byField.values()];
}

/**
 * A check of a JSON value against a schema of `document`, answering the field errors the
 * request validation would (field names relative to the value). For values inside a body
 * that are judged one by one, such as the rows of an import.
 */
export function makeSchemaCheck(schema: Json, document: DocumentName = 'integration'): (value: unknown) => FieldError[] {
  const compiled = lazy(() => bodyAjv().compile(requireWellFormedText(standaloneSchema(schema, document))));
  warmUps.push(compiled);
  return (value) => {
    const check = compiled();
    return check(value) ? [] : fieldErrors(check.errors ?? [], 'body');
  };
}

/** The detail of a 400 listing `found` field errors of `total` (null: not all counted). */
function errorsDetail(first: FieldError, found: number, total: number | null): string {
  if (found === 1 && total === 1) return first.message;
  if (total === null) return `${Math.min(found, MAX_FIELD_ERRORS)} field errors are listed, …and more field errors that were not counted in so large a body.`;
  if (total <= MAX_FIELD_ERRORS) return `${total} fields are invalid.`;
  return `${total.toLocaleString('en-US')} fields are invalid: the first ${MAX_FIELD_ERRORS} are listed, …and ${(total - MAX_FIELD_ERRORS).toLocaleString('en-US')} more field errors.`;
}

const LOCATIONS = ['query', 'path', 'header'] as const;

/** A request's field errors by `location:field`, or null while it has none (most requests). */
type FieldErrors = Map<string, FieldError> | null;

/** `errors` with `error` added, unless its field already has one; the map is made on the first error. */
function withError(errors: FieldErrors, location: Location | 'body', error: FieldError): Map<string, FieldError> {
  const map = errors ?? new Map<string, FieldError>();
  const key = `${location}:${error.field}`;
  if (!map.has(key)) map.set(key, error);
  return map;
}

/** The operation's header parameters the request carries, by name. */
function headersOf(req: Request, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = req.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/** Middleware validating an operation's parameters and body; the coerced values land in `res.locals.input`. */
export function makeValidate(operation: OperationSpec, document: DocumentName = 'integration') {
  const compile = (location: Location): ValidateFunction | null => {
    const parameters = operation.parameters.filter((p) => p.in === location);
    return parameters.length === 0 ? null : parameterAjv().compile(requireWellFormedText(parametersSchema(parameters, document)));
  };
  const integerQuery = operation.parameters.filter((p) => p.in === 'query' && (p.schema as { type?: unknown }).type === 'integer').map((p) => p.name);
  const headerNames = operation.parameters.filter((p) => p.in === 'header').map((p) => p.name);
  const bodySchema = operation.requestBody?.content['application/json'];
  // One set of validators per operation for the whole process, however many apps it makes.
  const key = `${document}:${operation.operationId}`;
  let compiled = validatorsByOperation.get(key);
  if (compiled === undefined) {
    compiled = lazy(() => {
      const bodyStandalone = bodySchema === undefined ? null : requireWellFormedText(standaloneSchema(bodySchema, document));
      return {
        parameters: { query: compile('query'), path: compile('path'), header: compile('header') },
        validateBody: bodyStandalone === null ? null : bodyAjv().compile(bodyStandalone),
        firstBodyError: bodyStandalone === null ? null : firstErrorAjv().compile(bodyStandalone),
      };
    });
    validatorsByOperation.set(key, compiled);
    warmUps.push(compiled);
  }
  const validators = compiled;

  /**
   * The field errors of a body that failed its first-error check, with how many there are
   * in all (null when the body is too large to count them all quickly).
   */
  const bodyFieldErrors = (body: unknown, firstErrors: ErrorObject[], rawBytes: number): { errors: FieldError[]; total: number | null } => {
    const { validateBody } = validators();
    if (rawBytes <= FULL_REPORT_BYTES) {
      validateBody!(body);
      const errors = fieldErrors(validateBody!.errors ?? firstErrors, 'body');
      return { errors, total: errors.length };
    }
    // The first error is real; the partial body (arrays cut short) adds more real ones without the quadratic cost.
    const byField = new Map<string, FieldError>();
    fieldErrors(firstErrors, 'body', byField);
    if (!validateBody!(pruneArrays(body, PARTIAL_ARRAY_ITEMS))) fieldErrors(validateBody!.errors ?? [], 'body', byField);
    return { errors: [...byField.values()], total: null };
  };

  return function validate(req: Request, res: Response, next: NextFunction): void {
    const { parameters, firstBodyError } = validators();
    // Copies: the validators coerce in place, and the request's own objects stay as they came.
    const query = { ...(req.query as Record<string, unknown>) };
    const params = { ...req.params } as Record<string, string>;
    let errors: FieldErrors = null;
    for (const name of integerQuery) {
      const value = query[name];
      if (typeof value === 'string' && !decimalInteger.test(value)) {
        errors = withError(errors, 'query', fieldError(name, 'api.malformed_request', `${name} must be a decimal integer`, value));
      }
    }
    for (const location of LOCATIONS) {
      const check = parameters[location];
      if (check === null) continue;
      const value = location === 'query' ? query : location === 'path' ? params : headersOf(req, headerNames);
      if (check(value)) continue;
      for (const error of fieldErrors(check.errors ?? [], location)) errors = withError(errors, location, error);
    }
    let total: number | null = errors?.size ?? 0;
    if (firstBodyError !== null && !firstBodyError(req.body)) {
      const firstErrors = firstBodyError.errors ?? [];
      if (firstErrors.some((error) => error.instancePath === '' && error.keyword === 'type')) {
        next(problem('api.malformed_request', 'The body must be a JSON object.'));
        return;
      }
      const body = bodyFieldErrors(req.body, firstErrors, contextOf(res).rawBody?.length ?? JSON.stringify(req.body ?? null).length);
      for (const error of body.errors) errors = withError(errors, 'body', error);
      total = body.total === null ? null : total + body.total;
    }
    if (errors !== null) {
      const all = [...errors.values()];
      const first = all[0]!;
      const listed = all.slice(0, MAX_FIELD_ERRORS);
      next(problem(first.code as CatalogCode, errorsDetail(first, all.length, total), listed));
      return;
    }
    contextOf(res).input = { query, params, body: req.body };
    next();
  };
}
