/**
 * The acceptance oracles' cases, generated from the contract: for every query parameter,
 * header parameter and body member of the integration API's six operations, values its schema
 * refuses — near misses of each enum value (other case, a space before or after, a character
 * added, the empty string), wrong JSON types, numbers out of range or not finite, malformed
 * uuid, date-time and cursor values, single-valued parameters sent twice, missing required
 * members and credentials — and values it allows: every enum value, the edges of each range,
 * the longest strings. Each case names the requirement of the register that makes the target
 * refuse or accept it (`rules.ts`), which gives the check grading it its level. The random parts
 * (the letter a near miss turns, the character it adds) come from `seed`, so a run replays.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { type Json, listOperations, openapi, type OperationSpec, resolveRef, sharedAjv, standaloneSchema } from '../../spec/load.ts';
import { type CaseClass, type Expectation, ruleOf } from './acceptance-rules.ts';

type JsonObject = { [key: string]: Json };

export type { Expectation };

/** How a case changes its operation's valid request. */
export type CaseChange =
  /** The query parameter `name` sent with these values (one per occurrence), in place of the valid request's. */
  | { in: 'query'; name: string; values: string[] }
  /** The header `name` with `value`. */
  | { in: 'header'; name: string; value: string }
  /** The body member `name` written as the JSON text `json` (raw, so that `1e999` is sent as written), or left out when null. */
  | { in: 'body'; name: string; json: string | null }
  /** No credentials at all. */
  | { in: 'credentials' }
  /** The query parameter `cursor` with a cursor the target issued, as is or edited (filled in at run time). */
  | { in: 'cursor'; issued: 'as issued' | 'edited' };

/** One generated case. */
export interface AcceptanceCase {
  operationId: string;
  /** `query status`, `body amount`, `header Idempotency-Key`, `credentials`. */
  field: string;
  /** What the value is, in words: `a near miss of New (other case)`. */
  kind: string;
  /** The value as a finding shows it. */
  shown: string;
  expect: Expectation;
  /** The register's id of the requirement that asks for `expect`. */
  requirement: string;
  change: CaseChange;
}

/** The valid value each body member is sent with when a case changes another. */
export type BodyBaseline = Record<string, Json>;

/** `schema` with its `$ref` followed. */
function resolved(schema: Json | undefined): JsonObject {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return {};
  return '$ref' in schema ? resolveRef<JsonObject>(schema, openapi) : schema;
}

/** The body schema of `operation` and the first example of its JSON body in the contract, or null for an operation without a JSON body. */
function bodyOf(operation: OperationSpec): { schema: JsonObject; example: JsonObject } | null {
  const schema = operation.requestBody?.content['application/json'];
  if (schema === undefined) return null;
  const paths = openapi['paths'] as JsonObject;
  const declared = resolved(((paths[operation.path] as JsonObject)[operation.method.toLowerCase()] as JsonObject)['requestBody']);
  const media = resolved((declared['content'] as JsonObject | undefined)?.['application/json']);
  const examples = Object.values((media['examples'] as JsonObject | undefined) ?? {}).map((example) => resolved(resolved(example)['value']));
  return { schema: resolved(schema), example: examples[0] ?? {} };
}

/** The seeded choices a generation makes. */
interface Draw {
  /** One character of `from`. */
  character(from: string): string;
  /** An index below `length`. */
  index(length: number): number;
}

/** Draws seeded by `seed`, one fast-check sample each, in the order asked. */
function drawsFrom(seed: number): Draw {
  let next = 0;
  const sample = <T>(arbitrary: fc.Arbitrary<T>): T => fc.sample(arbitrary, { seed: seed + (next += 1), numRuns: 1 })[0]!;
  return {
    character: (from) => sample(fc.constantFrom(...from)),
    index: (length) => sample(fc.integer({ min: 0, max: Math.max(0, length - 1) })),
  };
}

/** `value` with the letter at a drawn position of its letters in the other case. */
function flipOne(value: string, draw: Draw): string {
  const letters = [...value].map((character, index) => ({ character, index })).filter(({ character }) => character.toLowerCase() !== character.toUpperCase());
  if (letters.length === 0) return `${value}x`;
  const { character, index } = letters[draw.index(letters.length)]!;
  const flipped = character === character.toLowerCase() ? character.toUpperCase() : character.toLowerCase();
  return `${value.slice(0, index)}${flipped}${value.slice(index + 1)}`;
}

/** Near misses of `value`: in another case (all of it, and one drawn letter), with a space before and after, with a drawn character added. */
export function nearMisses(value: string, draw: Draw): { kind: string; value: string }[] {
  const whole = value === value.toLowerCase() ? value.toUpperCase() : value.toLowerCase();
  const misses = [
    { kind: `a near miss of ${value} (other case)`, value: whole },
    { kind: `a near miss of ${value} (one letter in the other case)`, value: flipOne(value, draw) },
    { kind: `a near miss of ${value} (a space before)`, value: ` ${value}` },
    { kind: `a near miss of ${value} (a space after)`, value: `${value} ` },
    { kind: `a near miss of ${value} (a character added)`, value: `${value}${draw.character('abcdefghijklmnopqrstuvwxyz0123456789_-')}` },
  ];
  return misses.filter((miss, index) => miss.value !== value && misses.findIndex((other) => other.value === miss.value) === index);
}

/** JSON values of every type but the ones `types` allows, by name. */
function otherTypes(types: readonly string[]): { kind: string; json: string }[] {
  const all: [string, string, string][] = [
    ['string', 'a string', '"12.5"'],
    ['number', 'a number', '42'],
    ['boolean', 'a boolean', 'true'],
    ['null', 'null', 'null'],
    ['array', 'an array', '[]'],
    ['object', 'an object', '{}'],
  ];
  return all.filter(([type]) => !types.includes(type) && !(type === 'number' && types.includes('integer'))).map(([, kind, json]) => ({ kind: `${kind} (a wrong JSON type)`, json }));
}

/** The JSON types `schema` allows. */
function typesOf(schema: JsonObject): string[] {
  const type = schema['type'];
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

/** A builder that names the case's requirement from its class (`acceptance-rules.ts`) and leaves out a class no rule covers. */
function caseMaker(operation: OperationSpec, field: string) {
  return (cls: CaseClass, kind: string, shown: string, change: CaseChange): AcceptanceCase[] => {
    const rule = ruleOf(operation.operationId, field, cls);
    return rule === null ? [] : [{ operationId: operation.operationId, field, kind, shown, expect: rule.expect, requirement: rule.requirement, change }];
  };
}

/** Cases of a string value from its schema: enum values and their near misses, formats, patterns, lengths. */
function stringCases(schema: JsonObject, sample: string | undefined, draw: Draw, make: (cls: CaseClass, kind: string, value: string) => AcceptanceCase[]): AcceptanceCase[] {
  const cases: AcceptanceCase[] = [];
  const values = (schema['enum'] as string[] | undefined)?.filter((value): value is string => typeof value === 'string');
  if (values !== undefined) {
    for (const value of values) {
      cases.push(...make('valid', `${value}, a listed value`, value));
      for (const miss of nearMisses(value, draw)) cases.push(...make('near-miss', miss.kind, miss.value));
    }
    cases.push(...make('empty', 'the empty string', ''));
    return cases;
  }
  if (schema['format'] === 'date-time') {
    for (const [kind, value] of [['a date-time in UTC with milliseconds', '2026-11-20T09:30:00.000Z'], ['a date-time in UTC without milliseconds', '2026-11-20T09:30:00Z'], ['a date-time with an offset', '2026-11-20T11:30:00+02:00']]) cases.push(...make('valid', kind!, value!));
    for (const [kind, value] of [['a date without a time', '2026-11-20'], ['month 13', '2026-13-20T09:30:00Z'], ['hour 25', '2026-11-20T25:30:00Z'], ['words', 'yesterday'], ['the empty string', '']]) cases.push(...make('malformed', kind!, value!));
    return cases;
  }
  if (schema['format'] === 'uuid') {
    // A new uuid each time: a paymentId once recorded may be answered otherwise when sent again (D10).
    const uuid = randomUUID();
    cases.push(...make('valid', 'a uuid in lower case', uuid), ...make('valid', 'a uuid in upper case', uuid.toUpperCase()));
    for (const [kind, value] of [['words', 'not-a-uuid'], ['a uuid with a character added', `${uuid}${draw.character('0123456789abcdef')}`], ['a uuid in braces', `{${uuid}}`], ['a uuid without its dashes', uuid.replaceAll('-', '')], ['the empty string', '']]) cases.push(...make('malformed', kind!, value!));
    return cases;
  }
  if (typeof schema['pattern'] === 'string' && sample !== undefined) {
    cases.push(...make('valid', `${sample}, the contract's example`, sample));
    for (const miss of nearMisses(sample, draw)) cases.push(...make('near-miss', miss.kind, miss.value));
    cases.push(...make('near-miss', `${sample} cut short`, sample.slice(0, -1)), ...make('empty', 'the empty string', ''));
  }
  const longest = schema['maxLength'];
  if (typeof longest === 'number') {
    cases.push(...make('longest', `${longest} characters, the longest allowed`, 'x'.repeat(longest)), ...make('too-long', `${longest + 1} characters, one more than allowed`, 'x'.repeat(longest + 1)));
  }
  return cases;
}

/** Cases of a query parameter's text, from its schema. */
function queryCases(operation: OperationSpec, name: string, schema: JsonObject, repeatable: boolean, draw: Draw): AcceptanceCase[] {
  const make = caseMaker(operation, `query ${name}`);
  const sent = (cls: CaseClass, kind: string, value: string) => make(cls, kind, JSON.stringify(value), { in: 'query', name, values: [value] });
  const cases: AcceptanceCase[] = [];
  const item = repeatable ? resolved(schema['items']) : schema;
  if (item['type'] === 'integer') {
    const minimum = (item['minimum'] as number | undefined) ?? 0;
    const int32 = item['format'] === 'int32';
    for (const [kind, value] of [['the minimum', minimum], ['one above the minimum', minimum + 1], ['100', 100], ['101', 101], ['1000', 1000], ...(int32 ? [['the largest int32', 2 ** 31 - 1]] : [])] as [string, number][]) cases.push(...sent(value > 100 ? 'above-cap' : 'valid', kind, String(value)));
    for (const [kind, value] of [['one below the minimum', String(minimum - 1)], ['a negative number', '-1'], ...(int32 ? [['one above the largest int32', String(2 ** 31)]] : []), ['a decimal', '1.5'], ['an exponent', '1e2'], ['hexadecimal', '0x10'], ['a plus sign', '+5'], ['a space before', ' 5'], ['words', 'ten'], ['the empty string', '']] as [string, string][]) cases.push(...sent('malformed', kind, value));
  } else if (name === 'cursor') {
    cases.push(...make('valid', 'a cursor the target issued', '(the nextCursor of a page)', { in: 'cursor', issued: 'as issued' }));
    cases.push(...make('tampered', 'a cursor the target issued, its middle character changed', '(an edited nextCursor)', { in: 'cursor', issued: 'edited' }));
    cases.push(...sent('malformed', 'a garbage string', `***not-a-cursor-${draw.character('abcdefghijklmnopqrstuvwxyz')}***`), ...sent('empty', 'the empty string', ''));
  } else {
    cases.push(...stringCases(item, undefined, draw, sent));
  }
  if (!repeatable && name !== 'cursor') cases.push(...make('repeated', `${name} sent twice`, `${name} twice`, { in: 'query', name, values: name === 'limit' ? ['1', '2'] : ['2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z'] }));
  if (name === 'cursor') cases.push(...make('repeated', 'cursor sent twice', 'cursor twice', { in: 'query', name, values: ['a', 'b'] }));
  return cases;
}

/** Cases of a header parameter, from its schema. */
function headerCases(operation: OperationSpec, name: string, schema: JsonObject, draw: Draw): AcceptanceCase[] {
  const make = caseMaker(operation, `header ${name}`);
  const sent = (cls: CaseClass, kind: string, value: string) => make(cls, kind, JSON.stringify(value), { in: 'header', name, value });
  const cases: AcceptanceCase[] = [];
  const longest = schema['maxLength'];
  if (typeof longest === 'number') {
    // A key of its own for every case: one key sent with two requests is a reuse (D13), refused whatever its length.
    const unique = (length: number) => `waybill-${randomUUID()}`.padEnd(length, 'k');
    cases.push(...sent('longest', `${longest} visible characters, the longest allowed`, unique(longest)), ...sent('too-long', `${longest + 1} characters, one more than allowed`, unique(longest + 1)));
    cases.push(...sent('malformed', 'a space inside', `waybill ${randomUUID()}`));
  } else {
    cases.push(...sent('longest', '200 visible characters', 'r'.repeat(200)), ...sent('malformed', 'a space inside', 'request id with spaces'));
  }
  return cases;
}

/** Cases of one body member, from its schema; `sample` is the contract example's value. */
function memberCases(operation: OperationSpec, name: string, schema: JsonObject, required: boolean, sample: Json | undefined, draw: Draw): AcceptanceCase[] {
  const make = caseMaker(operation, `body ${name}`);
  const sent = (cls: CaseClass, kind: string, json: string) => make(cls, kind, json, { in: 'body', name, json });
  const cases: AcceptanceCase[] = [];
  const types = typesOf(schema);
  if (types.includes('string')) cases.push(...stringCases(schema, typeof sample === 'string' ? sample : undefined, draw, (cls, kind, value) => sent(cls, kind, JSON.stringify(value))));
  if (types.includes('number')) {
    const exclusive = schema['exclusiveMinimum'];
    if (typeof exclusive === 'number') {
      for (const [kind, json] of [['the least a cent above the minimum', String(exclusive + 0.01)], ['a whole number', '1'], ['a large number', '1000000']]) cases.push(...sent('valid', kind!, json!));
      for (const [kind, json] of [['the minimum, excluded', String(exclusive)], ['a cent below the minimum', String(exclusive - 0.01)], ['a negative number', '-1']]) cases.push(...sent('out-of-range', kind!, json!));
    }
    cases.push(...sent('not-finite', 'a number too large for a double (not finite)', '1e999'));
  }
  for (const other of otherTypes(types)) cases.push(...sent(other.json === 'null' ? (required ? 'wrong-type' : 'null') : 'wrong-type', other.kind, other.json));
  // The valid value wrapped: a lenient reader that unwraps it takes a list or an object for the member.
  if (sample !== undefined) cases.push(...sent('wrong-type', 'the example value in an array of one (a wrong JSON type)', `[${JSON.stringify(sample)}]`), ...sent('wrong-type', 'the example value in an object (a wrong JSON type)', `{"value":${JSON.stringify(sample)}}`));
  if (required) cases.push(...make('missing', 'left out (a required member)', '(absent)', { in: 'body', name, json: null }));
  return cases;
}

/** Every case of `operation`. */
function operationCases(operation: OperationSpec, draw: Draw): AcceptanceCase[] {
  const cases: AcceptanceCase[] = [];
  for (const parameter of operation.parameters) {
    const schema = resolved(parameter.schema);
    if (parameter.in === 'query') cases.push(...queryCases(operation, parameter.name, schema, schema['type'] === 'array', draw));
    if (parameter.in === 'header') cases.push(...headerCases(operation, parameter.name, schema, draw));
  }
  if (operation.parameters.some((parameter) => parameter.in === 'query')) {
    const unknown = caseMaker(operation, 'query (unknown)');
    cases.push(...unknown('unknown', 'a parameter the operation does not define', 'waybillUnknown=1', { in: 'query', name: 'waybillUnknown', values: ['1'] }));
    // axios's way of sending an array: the parameter's name with brackets, which names no parameter.
    for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'query' && resolved(candidate.schema)['type'] === 'array')) {
      const first = (resolved(resolved(parameter.schema)['items'])['enum'] as Json[] | undefined)?.find((value): value is string => typeof value === 'string') ?? 'x';
      cases.push(...unknown('unknown', `${parameter.name}[] (an array in brackets, as axios sends one)`, `${parameter.name}[]=${first}`, { in: 'query', name: `${parameter.name}[]`, values: [first] }));
    }
  }
  const body = bodyOf(operation);
  if (body !== null) {
    const required = (body.schema['required'] as string[] | undefined) ?? [];
    for (const [name, member] of Object.entries((body.schema['properties'] as JsonObject | undefined) ?? {})) {
      cases.push(...memberCases(operation, name, resolved(member), required.includes(name), body.example[name], draw));
    }
    cases.push(...caseMaker(operation, 'body (unknown)')('unknown', 'a member the body does not define', '"waybillUnknown": {"nested": [1, "two"]}', { in: 'body', name: 'waybillUnknown', json: '{"nested":[1,"two"]}' }));
  }
  cases.push(...caseMaker(operation, 'credentials')('missing', 'no API key', '(none)', { in: 'credentials' }));
  return cases;
}

/**
 * `value` changed by one drawn edit that keeps it a near miss: a character inserted, removed,
 * replaced or repeated, or one of its letters in the other case.
 */
function mutated(value: string, draw: Draw): { kind: string; value: string } {
  const at = draw.index(value.length + 1);
  const character = draw.character('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:/%');
  const edits = [
    { kind: `a character inserted at ${at}`, value: `${value.slice(0, at)}${character}${value.slice(at)}` },
    { kind: `the character at ${Math.min(at, value.length - 1)} removed`, value: `${value.slice(0, Math.min(at, value.length - 1))}${value.slice(Math.min(at, value.length - 1) + 1)}` },
    { kind: `the character at ${Math.min(at, value.length - 1)} replaced`, value: `${value.slice(0, Math.min(at, value.length - 1))}${character}${value.slice(Math.min(at, value.length - 1) + 1)}` },
    { kind: `the character at ${Math.min(at, value.length - 1)} doubled`, value: `${value.slice(0, Math.min(at, value.length - 1) + 1)}${value.slice(Math.min(at, value.length - 1))}` },
    { kind: 'one letter in the other case', value: flipOne(value, draw) },
  ];
  return edits[draw.index(edits.length)]!;
}

/** True when the contract's schema of `field` (`query status`, `body currency`) of `operationId` takes `value`: such a value is no near miss. */
function allowedBy(operationId: string, field: string, value: string): boolean {
  const operation = listOperations(openapi).find((candidate) => candidate.operationId === operationId)!;
  const [where, name] = field.split(' ') as [string, string];
  const parameter = operation.parameters.find((candidate) => candidate.in === where && candidate.name === name);
  const schema = parameter !== undefined ? resolved(parameter.schema) : resolved((bodyOf(operation)?.schema['properties'] as JsonObject | undefined)?.[name]);
  const item = schema['type'] === 'array' ? resolved(schema['items']) : schema;
  return sharedAjv().validate(standaloneSchema(item), value);
}

/**
 * `count` more near misses, drawn: a listed value of a field with near-miss cases, changed by one
 * drawn edit (`mutated`), kept only when the field's schema refuses it (an edit can land on a
 * valid value: `EUR` with its first letter replaced may be `MUR`, another ISO 4217 code).
 */
function drawnNearMisses(cases: readonly AcceptanceCase[], count: number, draw: Draw): AcceptanceCase[] {
  const fields = cases.filter((item) => item.kind.startsWith('a near miss of ') && item.expect === 'refused');
  const listed = new Set(cases.filter((item) => item.kind.endsWith(', a listed value') || item.kind.endsWith(", the contract's example")).map((item) => `${item.operationId} ${item.field} ${item.shown}`));
  const drawn: AcceptanceCase[] = [];
  for (let attempt = 0; drawn.length < count && attempt < count * 3 && fields.length > 0; attempt += 1) {
    const template = fields[draw.index(fields.length)]!;
    const original = /^a near miss of (.*?) \(/.exec(template.kind)?.[1] ?? '';
    const miss = mutated(original, draw);
    const shown = JSON.stringify(miss.value);
    if (miss.value === original || listed.has(`${template.operationId} ${template.field} ${shown}`) || allowedBy(template.operationId, template.field, miss.value)) continue;
    const change = template.change.in === 'query' ? { ...template.change, values: [miss.value] } : template.change.in === 'body' ? { ...template.change, json: shown } : template.change;
    drawn.push({ ...template, kind: `a drawn near miss of ${original} (${miss.kind})`, shown, change });
  }
  return drawn;
}

/** Every case of the integration API's operations, drawn with `seed`, in the contract's order, and `extra` more near misses drawn at random (`--fuzz`). */
export function acceptanceCases(seed: number, extra = 0): AcceptanceCase[] {
  const draw = drawsFrom(seed);
  const cases = listOperations(openapi).flatMap((operation) => operationCases(operation, draw));
  return extra > 0 ? [...cases, ...drawnNearMisses(cases, extra, draw)] : cases;
}

/** The valid body of `operationId` from its contract example, with `fresh` overriding members (a new paymentId), or null without a body. */
export function bodyBaseline(operationId: string, fresh: BodyBaseline = {}): BodyBaseline | null {
  const operation = listOperations(openapi).find((candidate) => candidate.operationId === operationId);
  const body = operation === undefined ? null : bodyOf(operation);
  return body === null ? null : { ...body.example, ...fresh };
}
