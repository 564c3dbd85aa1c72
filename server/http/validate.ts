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
  standaloneSchema,
} from '../../spec/load.ts';
import { contextOf } from './context.ts';
import { fieldError, problem } from './problem.ts';

// Parameters arrive as text and are coerced to their schema types; bodies are JSON and are not.
const parameterAjv = createAjv({ coerceTypes: 'array', verbose: true });
const bodyAjv = createAjv({ verbose: true });

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
function fieldErrors(errors: ErrorObject[], location: Location | 'body'): FieldError[] {
  const byField = new Map<string, FieldError>();
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
  const check = bodyAjv.compile(standaloneSchema(schema, document));
  return (value) => (check(value) ? [] : fieldErrors(check.errors ?? [], 'body'));
}

/** Middleware validating an operation's parameters and body; the coerced values land in `res.locals.input`. */
export function makeValidate(operation: OperationSpec, document: DocumentName = 'integration') {
  const compile = (location: Location): ValidateFunction | null => {
    const parameters = operation.parameters.filter((p) => p.in === location);
    return parameters.length === 0 ? null : parameterAjv.compile(parametersSchema(parameters, document));
  };
  const validators = { query: compile('query'), path: compile('path'), header: compile('header') };
  const headerNames = operation.parameters.filter((p) => p.in === 'header').map((p) => p.name);
  const bodySchema = operation.requestBody?.content['application/json'];
  const validateBody = bodySchema === undefined ? null : bodyAjv.compile(standaloneSchema(bodySchema, document));

  return function validate(req: Request, res: Response, next: NextFunction): void {
    const query = { ...(req.query as Record<string, unknown>) };
    const params = { ...req.params } as Record<string, string>;
    const headers = Object.fromEntries(headerNames.flatMap((name) => (req.get(name) === undefined ? [] : [[name, req.get(name)]])));
    const errors: FieldError[] = [];
    for (const [location, value] of [['query', query], ['path', params], ['header', headers]] as const) {
      const check = validators[location];
      if (check !== null && !check(value)) errors.push(...fieldErrors(check.errors ?? [], location));
    }
    if (validateBody !== null && !validateBody(req.body)) {
      const bodyErrors = validateBody.errors ?? [];
      if (bodyErrors.some((error) => error.instancePath === '' && error.keyword === 'type')) {
        next(problem('api.malformed_request', 'The body must be a JSON object.'));
        return;
      }
      errors.push(...fieldErrors(bodyErrors, 'body'));
    }
    const first = errors[0];
    if (first !== undefined) {
      next(problem(first.code as CatalogCode, errors.length === 1 ? first.message : `${errors.length} fields are invalid.`, errors));
      return;
    }
    contextOf(res).input = { query, params, body: req.body };
    next();
  };
}
