/**
 * Compares one recorded answer with the contract, in two views of spec/openapi.yaml:
 *
 * - the decided view: exactly what the document declares for the operation (statuses, media
 *   types, body schemas, headers), waybill's decisions included;
 * - the seed view: what the seeds fix, derived from the same document by leaving out what
 *   decisions add: every keyword a schema lists in `x-decided-keywords` (the millisecond
 *   `pattern` of timestamps, D20; the uuid formats and minimum cursor length, D15, D6), the
 *   trip member names (read with the target's own, `profile.choices.tripFields`, D15), every
 *   header but `Retry-After` on a 429 (delta-seconds or an HTTP-date, RFC 9110 §10.2.3), the
 *   401 and 403 bodies ("not shown": any problem object), and the per-operation status lists
 *   (the seeds let every endpoint answer 400, 401, 403, 404, 409, 429, 500, and the catalog
 *   adds 408, 413, 415, 503). It adds the two things the document cannot say: a 400 never
 *   carries `overridable`, and a trip's members come in the seeds' order.
 *
 * Each departure is keyed by what it is about, so the decided view can report only what the
 * seed view does not already report for the same answer.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, type Json, type OperationSpec, openapi, operations, sharedAjv, standaloneSchema } from '../../../spec/load.ts';
import { mediaTypeOf } from '../../contract/catalog-rules.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Finding } from '../../engine/types/check.ts';
import type { ExchangeRecord } from '../../engine/types/exchange.ts';
import type { Profile, TripMember } from '../../engine/types/profile.ts';
import { PROTOCOL_STATUSES } from './expectation.ts';
import { tripFieldNames, tripMembers } from './trip-fields.ts';

type JsonObject = { [key: string]: Json };

/** What a view asks of a body: `errors` lists its departures as `/path message`. */
interface BodyRule {
  name: string;
  expected: string;
  errors(body: unknown): string[];
}

/** What a view asks of one header; `problem` says why a present value is wrong, or null. */
interface HeaderRule {
  name: string;
  required: boolean;
  expected: string;
  problem(value: string): string | null;
}

/** What a view expects of an answer with one status: its bodies by media type (none: no body) and headers. */
interface ExpectedAnswer {
  bodies: Record<string, BodyRule>;
  headers: HeaderRule[];
}

/** One reading of the contract. */
interface ContractView {
  /** How a finding names a status the view does not allow. */
  statusMessage: string;
  statuses(operation: OperationSpec): string[];
  answer(operation: OperationSpec, status: string): ExpectedAnswer | undefined;
}

/** An answer's departures from a view: each finding keyed by its subject, and the body's schema errors. */
interface Departures {
  findings: { about: string; finding: Finding }[];
  body: { rule: BodyRule; errors: string[] } | null;
}

const compiled = new Map<string, ValidateFunction>();

/** The compiled validator of a schema written in the document (cached by its text). */
function validatorOf(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = sharedAjv().compile(standaloneSchema(schema));
    compiled.set(key, validate);
  }
  return validate;
}

/** Ajv errors as `/items/0/id must match format "uuid"`. */
function errorTexts(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

/** Error texts, the first few joined. */
function joined(errors: string[], limit = 5): string {
  return errors.length <= limit ? errors.join('; ') : `${errors.slice(0, limit).join('; ')}; and ${errors.length - limit} more`;
}

/** Ajv errors as `/items/0/id must match format "uuid"`, the first few joined. */
export function schemaErrors(validate: ValidateFunction, limit = 5): string {
  return joined(errorTexts(validate), limit);
}

/** True when `value` is a JSON object (not an array, not null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The name of a `$ref`'d component schema, or undefined for an inline one. */
function componentName(schema: Json): string | undefined {
  const ref = isObject(schema) ? schema['$ref'] : undefined;
  return typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
}

/** A header's text as its schema's type: integer and number headers become numbers when they parse. */
function headerValue(value: string, schema: Json): unknown {
  const type = isObject(schema) ? schema['type'] : undefined;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  return value;
}

// ── The decided view: spec/openapi.yaml as written ─────────────────────────────────────

/**
 * A problem's `type` is never judged here against its response's `type` enum (the codes the
 * operation lists for the status, D91, written for client generators): problems.catalog and
 * problems.blank judge a type that is no catalog code of the status, and the checks of each
 * operation's rules judge which code it answers (writes.cancel.illegal, writes.payment.repeat…),
 * each pointing at the rule it breaks. Judged here too, one wrong code would fail a second check
 * that points at no rule of its own.
 */
const TYPE_ERROR = /^\/type /;

/** The body rule of a schema as the document declares it, for an answer with `status`. */
function declaredBody(schema: Json, status: number): BodyRule {
  const name = componentName(schema) ?? 'the declared schema';
  return {
    name,
    expected: `a body valid against ${name}`,
    errors: (body) => {
      const validate = validatorOf(schema);
      if (validate(body)) return [];
      const errors = errorTexts(validate);
      return status >= 400 && isObject(body) ? errors.filter((error) => !TYPE_ERROR.test(error)) : errors;
    },
  };
}

/** The decided view: every status, media type, schema and header spec/openapi.yaml declares. */
const decidedView: ContractView = {
  statusMessage: 'status not declared for',
  statuses: (operation) => Object.keys(operation.responses),
  answer(operation, status) {
    const declared = operation.responses[status];
    if (declared === undefined) return undefined;
    return {
      bodies: Object.fromEntries(Object.entries(declared.content).map(([type, schema]) => [type, declaredBody(schema, Number(status))])),
      headers: Object.entries(declared.headers).map(([name, header]) => ({
        name,
        required: header.required,
        expected: `${name} valid against ${show(header.schema)}`,
        problem: (value) => {
          const validate = validatorOf(header.schema);
          return validate(headerValue(value, header.schema)) ? null : `${name}: ${value} (${schemaErrors(validate)})`;
        },
      })),
    };
  },
};

// ── The seed view: the document without what decisions add ────────────────────────────

/** Failure statuses the seeds let every integration endpoint answer (Endpoints rule 2), and those the catalog adds. */
export const seedFailureStatuses = ['400', '401', '403', '404', '408', '409', '413', '415', '429', '500', '503'];

const imfFixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const rfc850Date = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const asctimeDate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/** True when `value` is a `Retry-After` HTTP defines: delay-seconds or an HTTP-date (RFC 9110 §10.2.3, §5.6.7). */
export function isRetryAfter(value: string): boolean {
  const text = value.trim();
  if (/^\d+$/.test(text)) return true;
  return (imfFixdate.test(text) || rfc850Date.test(text) || asctimeDate.test(text)) && !Number.isNaN(Date.parse(text));
}

/** The seeds' one header rule: a 429 carries `Retry-After` (Limits; Status codes of the integration endpoints). */
const retryAfterRule: HeaderRule = {
  name: 'Retry-After',
  required: true,
  expected: 'Retry-After as delay-seconds or an HTTP-date',
  problem: (value) => (isRetryAfter(value) ? null : `Retry-After: ${value} (neither delay-seconds nor an HTTP-date)`),
};

/** Every schema object of `value` without the keywords its `x-decided-keywords` lists. */
function withoutDecidedKeywords(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutDecidedKeywords);
  if (!isObject(value)) return value;
  const decided = new Set([value['x-decided-keywords'] ?? []].flat().map(String));
  return Object.fromEntries(Object.entries(value as JsonObject).filter(([key]) => !decided.has(key)).map(([key, child]) => [key, withoutDecidedKeywords(child)]));
}

/** Every `#/components/schemas/X` reference of `value` as `#/$defs/X`. */
function localRefs(value: Json): Json {
  if (Array.isArray(value)) return value.map(localRefs);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value as JsonObject).map(([key, child]) => [key, key === '$ref' && typeof child === 'string' ? child.replace('#/components/schemas/', '#/$defs/') : localRefs(child)]));
}

/** The document's Trip with its members under the target's names, in the seeds' order (its properties are written in that order). */
function namedTrip(trip: JsonObject, names: Record<TripMember, string>): JsonObject {
  const properties = Object.values(trip['properties'] as JsonObject);
  if (properties.length !== tripMembers.length) throw new Error(`spec/openapi.yaml's Trip has ${properties.length} properties, the seeds ${tripMembers.length} members`);
  return {
    ...trip,
    required: tripMembers.map((member) => names[member]),
    properties: Object.fromEntries(tripMembers.map((member, index) => [names[member], properties[index]!])),
  };
}

/** The component schemas as the seeds fix them, trips read with `names`. */
function seedComponents(names: Record<TripMember, string>): JsonObject {
  const schemas = withoutDecidedKeywords((openapi['components'] as JsonObject)['schemas'] as Json) as JsonObject;
  const validation = schemas['ValidationProblem'] as JsonObject;
  // "never by integration endpoints" (Body of a 400 response): the member must be absent.
  const withoutOverridable = { ...validation, properties: { ...(validation['properties'] as JsonObject), overridable: false } };
  return localRefs({ ...schemas, ValidationProblem: withoutOverridable, Trip: namedTrip(schemas['Trip'] as JsonObject, names) }) as JsonObject;
}

let seedAjv: ReturnType<typeof createAjv> | undefined;
const seedDocuments = new Map<string, string>();
const seedValidators = new Map<string, ValidateFunction>();

/** The validator of component `name` in the seed view with trips read as `names` (compiled once per naming). */
function seedValidator(name: string, names: Record<TripMember, string>): ValidateFunction {
  const naming = JSON.stringify(names);
  let id = seedDocuments.get(naming);
  if (id === undefined) {
    seedAjv ??= createAjv();
    id = `urn:waybill:seed:${seedDocuments.size}`;
    seedAjv.addSchema({ $id: id, $defs: seedComponents(names) });
    seedDocuments.set(naming, id);
  }
  const key = `${id}#${name}`;
  let validate = seedValidators.get(key);
  if (validate === undefined) {
    validate = seedAjv!.compile({ $ref: `${id}#/$defs/${name}` });
    seedValidators.set(key, validate);
  }
  return validate;
}

/** Where `trip`'s members leave the seeds' order ("A trip item carries, in this order: …"); empty when they keep it. */
function tripOrderErrors(trip: unknown, names: Record<TripMember, string>, path: string): string[] {
  if (!isObject(trip)) return [];
  const expected = tripMembers.map((member) => names[member]).filter((name) => name in trip);
  const received = Object.keys(trip).filter((name) => expected.includes(name));
  return received.join() === expected.join() ? [] : [`${path || '/'} members are not in the seeds' order (${expected.join(', ')}): ${received.join(', ')}`];
}

/**
 * The ways `value` departs from what the seeds fix for the component `schema` (`Order`,
 * `KeyIdentity`, …): members, types, nullability, required members and the enums the seeds fix,
 * read with the target's own names (`profile.choices`); waybill's decided shape (D15, D20, …)
 * is not asked for. Empty when it conforms.
 */
export function seedContractErrors(schema: string, value: unknown, profile: Pick<Profile, 'choices'>): string[] {
  const names = tripFieldNames(profile);
  const validate = seedValidator(schema, names);
  const errors = validate(value) ? [] : errorTexts(validate);
  if (schema === 'Trip') errors.push(...tripOrderErrors(value, names, ''));
  if (schema === 'TripPage' && isObject(value) && Array.isArray(value['items'])) {
    value['items'].forEach((trip, index) => errors.push(...tripOrderErrors(trip, names, `/items/${index}`)));
  }
  return errors;
}

/** The seed view's body rule for component `name`. */
function seedBody(name: string, profile: Pick<Profile, 'choices'>): BodyRule {
  return { name: `the seeds' ${name}`, expected: `a body with the members, types and values the seeds fix for ${name}`, errors: (body) => seedContractErrors(name, body, profile) };
}

/** A 401 or 403 body: the seeds show none, so any problem object will do. */
const anyProblem: BodyRule = {
  name: 'a problem object',
  expected: 'a JSON object (RFC 9457)',
  errors: (body) => (isObject(body) ? [] : ['/ must be object']),
};

/** The seed view, reading trips with the profile's names. */
function seedView(profile: Pick<Profile, 'choices'>): ContractView {
  const statuses = (operation: OperationSpec) => [...Object.keys(operation.responses).filter((status) => status.startsWith('2')), ...seedFailureStatuses, ...PROTOCOL_STATUSES];
  return {
    statusMessage: 'a status the seeds do not list for',
    statuses,
    answer(operation, status) {
      if (!statuses(operation).includes(status)) return undefined;
      const problem = (rule: BodyRule): ExpectedAnswer => ({ bodies: { 'application/problem+json': rule }, headers: status === '429' ? [retryAfterRule] : [] });
      if (status === '400') return problem(seedBody('ValidationProblem', profile));
      if (status === '401' || status === '403') return problem(anyProblem);
      if (!status.startsWith('2')) return problem(seedBody('Problem', profile));
      const content = operation.responses[status]!.content;
      return { bodies: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, componentName(schema) ? seedBody(componentName(schema)!, profile) : declaredBody(schema, Number(status))])), headers: [] };
    },
  };
}

// ── Comparing an answer with a view ───────────────────────────────────────────────────

/** Every way `exchange`'s answer departs from `view`. */
function departuresFrom(exchange: ExchangeRecord, view: ContractView): Departures {
  const none: Departures = { findings: [], body: null };
  const operation = exchange.operationId === null ? undefined : operations.get(exchange.operationId);
  const response = exchange.response;
  if (operation === undefined || response === null) return none;
  const where = describeExchange(exchange);
  const expected = view.answer(operation, String(response.status));
  if (expected === undefined) {
    return { findings: [{ about: 'status', finding: finding(`${where}: ${view.statusMessage} ${operation.operationId}`, `one of ${view.statuses(operation).join(', ')}`, String(response.status), exchange) }], body: null };
  }
  const findings: Departures['findings'] = [];
  for (const header of expected.headers) {
    const value = response.headers[header.name.toLowerCase()];
    const about = `header ${header.name.toLowerCase()}`;
    if (value === undefined) {
      if (header.required) findings.push({ about, finding: finding(`${where}: required header ${header.name} missing`, `a ${header.name} header`, 'no such header', exchange) });
      continue;
    }
    const problem = header.problem(value);
    if (problem !== null) findings.push({ about, finding: finding(`${where}: header ${header.name} does not match its schema`, header.expected, problem, exchange) });
  }
  const mediaTypes = Object.keys(expected.bodies);
  if (mediaTypes.length === 0) {
    if (response.bodyBytes > 0) findings.push({ about: 'body present', finding: finding(`${where}: a ${response.status} answer carries no body`, 'no body', `${response.bodyBytes} bytes: ${show(response.body, 200)}`, exchange) });
    return { findings, body: null };
  }
  const rule = expected.bodies[mediaTypeOf(response.headers['content-type'])];
  if (rule === undefined) {
    findings.push({ about: 'media type', finding: finding(`${where}: wrong Content-Type`, mediaTypes.join(' or '), response.headers['content-type'] ?? 'no Content-Type', exchange) });
    return { findings, body: null };
  }
  if (response.bodyTruncated || response.bodyEncoding === 'base64') return { findings, body: null };
  let body: unknown;
  try {
    body = JSON.parse(response.body ?? '');
  } catch {
    findings.push({ about: 'not JSON', finding: finding(`${where}: the body is not JSON`, `a JSON body (${rule.name})`, show(response.body, 200), exchange) });
    return { findings, body: null };
  }
  const errors = rule.errors(body);
  return { findings, body: errors.length === 0 ? null : { rule, errors } };
}

/** What a body error is about: the member it names (`body /items/0/createdAtUtc`), whatever is wrong with it. */
function bodySubject(error: string): string {
  return `body ${error.split(' ')[0]}`;
}

/** The findings of `departures`, leaving out those about a subject in `except`. */
function findingsOf(exchange: ExchangeRecord, departures: Departures, except: ReadonlySet<string> = new Set()): Finding[] {
  const findings = departures.findings.filter((departure) => !except.has(departure.about)).map((departure) => departure.finding);
  const errors = (departures.body?.errors ?? []).filter((error) => !except.has(bodySubject(error)));
  if (departures.body !== null && errors.length > 0) {
    const { rule } = departures.body;
    findings.push(finding(`${describeExchange(exchange)}: the body does not match ${rule.name}`, rule.expected, joined(errors), exchange));
  }
  return findings;
}

/** The subjects `departures` is about: `status`, `header retry-after`, `media type`, `body /items/0/tags`, … */
function subjectsOf(departures: Departures): Set<string> {
  return new Set([...departures.findings.map((departure) => departure.about), ...(departures.body?.errors ?? []).map(bodySubject)]);
}

/** Every way `exchange`'s answer departs from its operation's declared responses in spec/openapi.yaml; empty when it conforms. */
export function responseViolations(exchange: ExchangeRecord): Finding[] {
  return findingsOf(exchange, departuresFrom(exchange, decidedView));
}

/** Every way `exchange`'s answer departs from what the seeds fix for its operation, trips read with the profile's names. */
export function seedResponseViolations(exchange: ExchangeRecord, profile: Pick<Profile, 'choices'>): Finding[] {
  return findingsOf(exchange, departuresFrom(exchange, seedView(profile)));
}

/**
 * The ways `exchange`'s answer departs from spec/openapi.yaml that the seed view does not
 * report for the same answer: the departures from waybill's decisions alone. A member the seed
 * view finds wrong is left out whatever the decided view says of it (a `createdAtUtc` that is
 * no date-time also misses D20's pattern, but that is one breakage, the seeds').
 */
export function decidedResponseViolations(exchange: ExchangeRecord, profile: Pick<Profile, 'choices'>): Finding[] {
  const seed = subjectsOf(departuresFrom(exchange, seedView(profile)));
  return findingsOf(exchange, departuresFrom(exchange, decidedView), seed);
}
