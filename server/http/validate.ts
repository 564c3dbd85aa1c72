/**
 * Request validation driven by the spec: each operation's query, path and header
 * parameters and JSON body are validated by Ajv validators compiled from
 * `spec/openapi.yaml` (or `spec/sandbox.yaml`). A field whose schema carries `x-error-code`
 * fails with that catalog code, and `x-error-codes-by-keyword` names another code for one
 * failing keyword (`{ maximum: apikeys.rate_limit_above_max }`); any other failure is
 * `api.malformed_request` naming the field (D9, D19).
 */
import type { ValidateFunction } from 'ajv';
import { parse as parseQuery } from 'node:querystring';
import type { NextFunction, Request, Response } from 'express';
import {
  type CatalogCode,
  createAjv,
  type DocumentName,
  type FieldError,
  type Json,
  type OperationSpec,
  type ParameterSpec,
  requireWellFormedText,
  standaloneSchema,
} from '../../spec/load.ts';
import { contextOf, type ValidInput } from './context.ts';
import { errorsDetail, fieldErrors, judge, type Judgement, type Location, MAX_FIELD_ERRORS } from './field-errors.ts';
import { bounded, fieldError, problem } from './problem.ts';

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
// A body is first judged stopping at its first error, then in part (field-errors.ts): Ajv's
// allErrors grows quadratically with the errors inside a referenced schema's array items.
const firstErrorAjv = lazy(() => createAjv({ verbose: true, allErrors: false, wellFormedText: true }));

interface OperationValidators {
  parameters: Record<ParameterLocation, ValidateFunction | null>;
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

/** Arrays are judged on this many leading items when a body's field errors are listed and counted: the count is exact below it. */
const COUNTED_ARRAY_ITEMS = 1000;

// requirement: D8
/** Decimal integer text, as a query parameter of type integer must be (D8): no `0x10`, `1e3`, ` 5`. */
const decimalInteger = /^-?\d+$/;

type ParameterLocation = Exclude<Location, 'body'>;

// requirement: D86
/**
 * An object schema whose properties are the operation's parameters in one location. A
 * parameter sent more than once arrives as a list, which only an array schema (`status`) takes:
 * `since`, `cursor` or `limit` twice is refused naming it. A parameter not listed passes here;
 * the feeds refuse it on their own (`unknownParameter`).
 */
function parametersSchema(parameters: ParameterSpec[], document: DocumentName): object {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, standaloneSchema(p.schema, document)])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * A check of a JSON value against a schema of `document`, answering the field errors the
 * request validation would (field names relative to the value) and how many there are (null:
 * not counted, an array of the value was longer than MAX_FIELD_ERRORS items). For values
 * inside a body that are judged one by one, such as the rows of an import: each costs at most
 * about MAX_FIELD_ERRORS squared beyond its size, and one asked to list a single error only
 * its first error is looked for.
 */
export function makeSchemaCheck(schema: Json, document: DocumentName = 'integration'): (value: unknown, listed?: number) => Judgement {
  const compiled = lazy(() => {
    const standalone = requireWellFormedText(standaloneSchema(schema, document));
    return { first: firstErrorAjv().compile(standalone), all: bodyAjv().compile(standalone) };
  });
  warmUps.push(compiled);
  return (value, listed = MAX_FIELD_ERRORS) => {
    const { first, all } = compiled();
    if (first(value)) return { errors: [], total: 0 };
    return listed > 1 ? judge(value, first.errors ?? [], all, MAX_FIELD_ERRORS) : { errors: fieldErrors(first.errors ?? [], 'body').slice(0, 1), total: null };
  };
}

// requirement: D86
/**
 * The field error of a query parameter `name` that none of `known` is (D86), with a hint where a
 * client's habit is to blame: brackets after a repeatable parameter (`status[]`, axios's way of
 * sending an array) or a name in the wrong case.
 */
function unknownParameter(name: string, value: unknown, known: readonly ParameterSpec[]): FieldError {
  const field = bounded(name);
  const bare = /^(.+?)\[[^\]]*\]$/.exec(name)?.[1];
  const repeatable = known.find((parameter) => parameter.name === bare && (parameter.schema as { type?: unknown }).type === 'array');
  const otherCase = known.find((parameter) => parameter.name.toLowerCase() === name.toLowerCase());
  const message = repeatable !== undefined
    ? `${field} is not a parameter of this operation: send ${repeatable.name} once per value, without brackets (${repeatable.name}=A&${repeatable.name}=B; axios: paramsSerializer: { indexes: null })`
    : otherCase !== undefined
      ? `${field} is not a parameter of this operation: parameter names are case-sensitive, send ${otherCase.name}`
      : `${field} is not a parameter of this operation; it takes ${known.map((parameter) => parameter.name).join(', ')}`;
  return fieldError(field, 'api.malformed_request', message, Array.isArray(value) ? value.join(',') : value);
}

const LOCATIONS = ['query', 'path', 'header'] as const;

/** A request's field errors by `location:field`, or null while it has none (most requests). */
type FieldErrors = Map<string, FieldError> | null;

/** `errors` with `error` added, unless its field already has one; the map is made on the first error. */
function withError(errors: FieldErrors, location: Location, error: FieldError): Map<string, FieldError> {
  const map = errors ?? new Map<string, FieldError>();
  const key = `${location}:${error.field}`;
  if (!map.has(key)) map.set(key, error);
  return map;
}

/** Characters after which parseurl hands a target to Node's legacy `url.parse`, which may change it: Express's own getter reads those. */
const LEGACY_PARSED = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The request's query parameters, a fresh object the validators may coerce: what Express's
 * `req.query` answers with the app's `simple` parser (`querystring.parse` of the text after
 * `?`), read from the URL without the getter's parseurl and settings lookups.
 */
export function queryOf(req: Request): Record<string, unknown> {
  const url = req.url;
  const mark = url.indexOf('?');
  if (mark === -1) return {};
  const text = url.slice(mark + 1);
  return { ...(LEGACY_PARSED.test(text) ? (req.query as Record<string, unknown>) : parseQuery(text)) };
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

// requirement: int.payment.amount-invalid
// requirement: int.payment.currency-invalid
// requirement: int.payment.paymentId-format
// requirement: int.orders-feed.status
// requirement: cat.api.malformed-request
// requirement: cat.validation-errors
// requirement: D9
// requirement: D16
// requirement: D19
/**
 * Middleware validating an operation's parameters and body; the coerced values land in
 * `res.locals.input`. With `refuseUnknownQuery`, a query parameter the operation does not
 * define is refused naming it (the feeds, D86); without, it is ignored.
 */
export function makeValidate(operation: OperationSpec, document: DocumentName = 'integration', options: { refuseUnknownQuery?: boolean } = {}) {
  const compile = (location: ParameterLocation): ValidateFunction | null => {
    const parameters = operation.parameters.filter((p) => p.in === location);
    return parameters.length === 0 ? null : parameterAjv().compile(requireWellFormedText(parametersSchema(parameters, document)));
  };
  const integerQuery = operation.parameters.filter((p) => p.in === 'query' && (p.schema as { type?: unknown }).type === 'integer').map((p) => p.name);
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const queryNames = options.refuseUnknownQuery === true ? new Set(queryParameters.map((p) => p.name)) : null;
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
  // A request of the integration API without a body is judged on its URL and its header
  // parameters alone, and answers the same input for the same ones: a poller sending its
  // cursor again is not judged again.
  const remembered = document === 'integration' && bodySchema === undefined ? new Map<string, ValidInput>() : null;
  // Node's parsed headers by their lower-case names, as Express's `get` reads them (it reads Referer and Referrer as one).
  const lowerNames = headerNames.map((name) => name.toLowerCase());
  const valueOf = (req: Request, name: string) => {
    const value = name === 'referer' || name === 'referrer' ? req.get(name) : req.headers[name];
    return typeof value === 'string' ? value : '\u0000';
  };
  // The URL, then each header parameter's value on a line: Node refuses CR, LF and NUL in a header value, so none is
  // ambiguous as a separator or as the mark of an absent header. No array made (each operation has one: X-Request-Id).
  const rememberedAs = (req: Request) => {
    let as = req.url;
    for (const name of lowerNames) as += `\n${valueOf(req, name)}`;
    return as;
  };

  // The lookup apart from the judging: a small function that V8 optimizes on its own (the two
  // in one ran unoptimized for every request).
  return function validate(req: Request, res: Response, next: NextFunction): void {
    const as = remembered === null ? '' : rememberedAs(req);
    const known = remembered?.get(as);
    if (known === undefined) {
      judgeRequest(req, res, next, as);
      return;
    }
    contextOf(res).input = known;
    next();
  };

  /** Judges the request's parameters and body: on to `next` with its input (remembered as `as`), or a problem. */
  function judgeRequest(req: Request, res: Response, next: NextFunction, as: string): void {
    const { parameters, firstBodyError, validateBody } = validators();
    // Copies: the validators coerce in place, and the request's own objects stay as they came.
    const query = queryOf(req);
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
    if (queryNames !== null) {
      for (const name in query) if (!queryNames.has(name)) errors = withError(errors, 'query', unknownParameter(name, query[name], queryParameters));
    }
    let total: number | null = errors?.size ?? 0;
    if (firstBodyError !== null && !firstBodyError(req.body)) {
      const firstErrors = firstBodyError.errors ?? [];
      if (firstErrors.some((error) => error.instancePath === '' && error.keyword === 'type')) {
        next(problem('api.malformed_request', 'The body must be a JSON object.'));
        return;
      }
      const body = judge(req.body, firstErrors, validateBody!, COUNTED_ARRAY_ITEMS);
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
    const input: ValidInput = { query, params, body: req.body };
    if (remembered !== null && as.length <= REMEMBERED_KEY_LENGTH) {
      if (remembered.size >= REMEMBERED_REQUESTS) remembered.delete(remembered.keys().next().value!);
      remembered.set(as, deepFreeze(input));
    }
    contextOf(res).input = input;
    next();
  }
}

/** How many requests of one operation a validator remembers the input of (the oldest forgotten first), and how long the URL and headers of one may be. */
const REMEMBERED_REQUESTS = 512;
const REMEMBERED_KEY_LENGTH = 2048;

/** `value` frozen through and through: a remembered input is shared by every request with its URL. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
