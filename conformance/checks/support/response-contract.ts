/**
 * Compares one recorded answer with what spec/openapi.yaml declares for its operation: the
 * status, the media type, the body's schema and the headers.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajv, type Json, operations, standaloneSchema, validateSchema } from '../../../spec/load.ts';
import { mediaTypeOf } from '../../catalog-rules.ts';
import { describeExchange, finding, show } from '../../findings.ts';
import type { ExchangeRecord, Finding, Profile } from '../../types.ts';

const compiled = new Map<string, ValidateFunction>();

/** The compiled validator of a schema written in the document (cached by its text). */
function validatorOf(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = ajv.compile(standaloneSchema(schema));
    compiled.set(key, validate);
  }
  return validate;
}

/** Ajv errors as `/items/0/id must match format "uuid"`, the first few joined. */
export function schemaErrors(validate: ValidateFunction, limit = 5): string {
  const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
  return errors.length <= limit ? errors.join('; ') : `${errors.slice(0, limit).join('; ')}; and ${errors.length - limit} more`;
}

/** The name of a `$ref`'d component schema, or a short description of an inline one. */
function schemaName(schema: Json): string {
  const ref = schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? schema['$ref'] : undefined;
  return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : 'the declared schema';
}

/** A header's text as its schema's type: integer and number headers become numbers when they parse. */
function headerValue(value: string, schema: Json): unknown {
  const type = schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? schema['type'] : undefined;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  return value;
}

/** Every way `exchange`'s answer departs from its operation's declared responses; empty when it conforms. */
export function responseViolations(exchange: ExchangeRecord): Finding[] {
  const operation = exchange.operationId === null ? undefined : operations.get(exchange.operationId);
  const response = exchange.response;
  if (operation === undefined || response === null) return [];
  const where = describeExchange(exchange);
  const declared = operation.responses[String(response.status)];
  if (declared === undefined) {
    const statuses = Object.keys(operation.responses).join(', ');
    return [finding(`${where}: status not declared for ${operation.operationId}`, `one of ${statuses}`, String(response.status), exchange)];
  }
  const findings: Finding[] = [];
  for (const [name, header] of Object.entries(declared.headers)) {
    const value = response.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) findings.push(finding(`${where}: required header ${name} missing`, `a ${name} header`, 'no such header', exchange));
      continue;
    }
    const validate = validatorOf(header.schema);
    if (!validate(headerValue(value, header.schema))) {
      findings.push(finding(`${where}: header ${name} does not match its schema`, `${name} valid against ${show(header.schema)}`, `${name}: ${value} (${schemaErrors(validate)})`, exchange));
    }
  }
  const mediaTypes = Object.keys(declared.content);
  if (mediaTypes.length === 0) {
    if (response.bodyBytes > 0) findings.push(finding(`${where}: a ${response.status} answer carries no body`, 'no body', `${response.bodyBytes} bytes: ${show(response.body, 200)}`, exchange));
    return findings;
  }
  const mediaType = mediaTypeOf(response.headers['content-type']);
  const schema = declared.content[mediaType];
  if (schema === undefined) {
    findings.push(finding(`${where}: wrong Content-Type`, mediaTypes.join(' or '), response.headers['content-type'] ?? 'no Content-Type', exchange));
    return findings;
  }
  if (response.bodyTruncated || response.bodyEncoding === 'base64') return findings;
  let body: unknown;
  try {
    body = JSON.parse(response.body ?? '');
  } catch {
    findings.push(finding(`${where}: the body is not JSON`, `a JSON body (${schemaName(schema)})`, show(response.body, 200), exchange));
    return findings;
  }
  const validate = validatorOf(schema);
  if (!validate(body)) {
    findings.push(finding(`${where}: the body does not match ${schemaName(schema)}`, `a body valid against ${schemaName(schema)}`, schemaErrors(validate), exchange));
  }
  return findings;
}

/**
 * The ways `value` departs from what the seeds fix for the component `schema` (`Order`,
 * `KeyIdentity`, …): members, types, nullability, required members and the enums the seeds fix,
 * read with the target's own names (`profile.choices`); waybill's decided shape (D15, D20, …)
 * is not asked for. Empty when it conforms.
 */
export function seedContractErrors(schema: string, value: unknown, _profile: Profile): string[] {
  return validateSchema(schema, value).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}
