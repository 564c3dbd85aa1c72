/**
 * The problem `waybill mock` answers to a request Prism finds invalid. Prism answers such a
 * request with the first 400 example of the operation (a payment's blames `amount`, whatever
 * was wrong), listing what it found in its `sl-violations` header; the mock answers instead
 * what the sandbox answers (D9, D19, D28): a 400 naming each field that failed, with the code
 * the contract gives the field (`x-error-code`) or `api.malformed_request`.
 */
import { type CatalogCode, catalogEntry, type FieldError, type Json, type OperationSpec, resolveRef, type ValidationProblem } from '../spec/load.ts';

/** One violation as Prism lists it in `sl-violations`: where (`request`, `body`, `amount`), the Ajv keyword, its sentence. */
export interface PrismViolation {
  location: string[];
  code: string | number;
  message: string;
}

/** A request the mock received, as the problem needs it. */
export interface ViolatingRequest {
  /** The path, without the query. */
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, undefined when there was none or it was not JSON. */
  body: unknown;
  /** The request's `Prefer` header. */
  prefer: string | undefined;
}

/**
 * The violations of the request itself in Prism's `sl-violations` header: those of its body,
 * query, path and headers (an Ajv keyword as code), not a missing key (401) or media type (415),
 * which Prism answers with the contract's own examples.
 */
export function requestViolations(header: string | undefined): PrismViolation[] {
  if (header === undefined) return [];
  try {
    const listed = JSON.parse(header) as PrismViolation[];
    return Array.isArray(listed) ? listed.filter((violation) => violation.location?.[0] === 'request' && typeof violation.code === 'string') : [];
  } catch {
    return [];
  }
}

/** `lines/0/quantity` spelled as the request spells it: `lines[0].quantity`. */
function fieldName(segments: readonly string[]): string {
  return segments.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/** The schema of the body member at `segments`, references resolved; undefined when the body schema does not name it. */
function memberSchema(operation: OperationSpec, segments: readonly string[]): Record<string, Json> | undefined {
  const body = operation.requestBody?.content['application/json'];
  let schema = body === undefined ? undefined : resolveRef<Record<string, Json>>(body);
  for (const part of segments) {
    if (schema === undefined || schema === null) return undefined;
    const next = /^\d+$/.test(part) ? schema['items'] : (schema['properties'] as Record<string, Json> | undefined)?.[part];
    schema = next === undefined ? undefined : resolveRef<Record<string, Json>>(next);
  }
  return schema ?? undefined;
}

/** The value at `segments` inside `value`, or undefined. */
function valueAt(value: unknown, segments: readonly string[]): unknown {
  return segments.reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), value);
}

/** A rejected value as a field error echoes it: text, or null for what is not safe to echo (objects, long or control-laden text). */
function echo(value: unknown): string | null {
  if (value === undefined || value === null || typeof value === 'object') return null;
  const text = String(value);
  // eslint-disable-next-line no-control-regex
  return text.length > 200 || /[\u0000-\u001f\u007f]/.test(text) ? null : text;
}

/** Prism's sentence without its lead (`Request body property amount `), leaving the rule: `must be number`. */
function rule(violation: PrismViolation): string {
  const [, where = '', ...inner] = violation.location;
  const lead = `Request ${where} ${inner.length > 0 ? `${where === 'body' ? 'property' : 'parameter'} ${inner.join('.')} ` : ''}`;
  return violation.message.startsWith(lead) ? violation.message.slice(lead.length) : violation.message;
}

/** The field error of one violation of `operation`'s request, or null for one of the body as a whole. */
function fieldErrorOf(operation: OperationSpec, request: ViolatingRequest, violation: PrismViolation): FieldError | null {
  const [, where, ...inner] = violation.location;
  const missing = violation.code === 'required' ? /required property '(.+)'$/.exec(violation.message)?.[1] : undefined;
  const segments = missing === undefined ? inner : [...inner, missing];
  // No body at all (Prism: `request`, "Body parameter is required"), or one that is not an object.
  if (where === undefined || (where === 'body' && segments.length === 0)) return null;
  if (where === 'body') {
    const field = fieldName(segments);
    const code = (memberSchema(operation, segments)?.['x-error-code'] as CatalogCode | undefined) ?? 'api.malformed_request';
    const message = code !== 'api.malformed_request' ? catalogEntry(code).meaning : missing === undefined ? `${field} ${rule(violation)}` : `${field} is required`;
    return { field, code, value: missing === undefined ? echo(valueAt(request.body, segments)) : null, message };
  }
  // A parameter is one field however deep the failure (`status.0` is the `status` parameter).
  const named = operation.parameters.find((parameter) => parameter.in === where && parameter.name.toLowerCase() === (segments[0] ?? '').toLowerCase());
  const field = named?.name ?? segments[0] ?? where;
  const value = where === 'query' ? request.query.getAll(field).join(',') || null : null;
  return { field, code: 'api.malformed_request', value: missing === undefined ? echo(value) : null, message: missing === undefined ? `${field} ${rule(violation)}` : `${field} is required` };
}

/** A sentence saying a `Prefer: code=…` other than 400 was not honoured, or '' when none was asked. */
function preferNotHonoured(prefer: string | undefined): string {
  const code = /(?:^|[,;\s])code=(\d{3})\b/.exec(prefer ?? '')?.[1];
  if (code === undefined || code === '400') return '';
  return ` Prefer: code=${code} is not honoured: the mock answers a chosen status only to a request the contract accepts, as the API judges a request before anything else.`;
}

/** A 400 problem without field errors (the body as a whole), as the sandbox words and titles it (D89). */
export function bodyProblem(detail: string, path: string, requestId: string | undefined, prefer?: string): ValidationProblem {
  return { type: 'api.malformed_request', title: catalogEntry('api.malformed_request').title, status: 400, detail: `${detail}${preferNotHonoured(prefer)}`, instance: `${path}${requestId ? `#${requestId}` : ''}` };
}

/**
 * The problem the sandbox answers to a request with `violations`: a 400 whose `errors` name
 * each field that failed, once, in Prism's order (`required` first, as Ajv's); its type the
 * first field's code, titled as the catalog titles it (D89). A `Prefer: code=…` the request
 * asked for is said not to be honoured.
 */
export function violationProblem(operation: OperationSpec, request: ViolatingRequest, violations: readonly PrismViolation[], requestId: string | undefined): ValidationProblem {
  const errors = new Map<string, FieldError>();
  for (const violation of violations) {
    const error = fieldErrorOf(operation, request, violation);
    if (error === null) {
      const whole = request.body === undefined ? 'A JSON body is required.' : 'The body must be a JSON object.';
      return bodyProblem(whole, request.path, requestId, request.prefer);
    }
    if (!errors.has(error.field)) errors.set(error.field, error);
  }
  const listed = [...errors.values()];
  const first = listed[0]!;
  const detail = listed.length === 1 ? first.message : `${listed.length} fields are invalid.`;
  return {
    type: first.code,
    title: catalogEntry(first.code).title,
    status: 400,
    detail: `${detail}${preferNotHonoured(request.prefer)}`,
    instance: `${request.path}${requestId ? `#${requestId}` : ''}`,
    errors: listed,
  };
}
