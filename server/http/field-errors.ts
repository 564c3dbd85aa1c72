/**
 * Field errors from Ajv's errors (D19, D28, D44), and how a JSON value with many of them is
 * judged in time linear in its size. Ajv's `allErrors` costs the square of the errors inside
 * an array whose items are a referenced schema (each failing item concatenates every error
 * before it: 40,000 bad lines took 4 s), so a value is first judged stopping at its first
 * error, then with every array cut to a bounded number of items, and its errors are counted
 * exactly only when nothing was cut.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { type CatalogCode, catalogEntry, type FieldError } from '../../spec/load.ts';
import { fieldError } from './problem.ts';

// requirement: D59
/** At most this many field errors are listed for one body, or for one row of an import. */
export const MAX_FIELD_ERRORS = 50;

/** Where a field error was found: a parameter's location, or the body. */
export type Location = 'query' | 'path' | 'header' | 'body';

interface CodedSchema {
  'x-error-code'?: CatalogCode;
  'x-error-codes-by-keyword'?: Record<string, CatalogCode>;
}

// requirement: D28
// requirement: D44
/** The catalog code a schema names for a failure of `keyword`: by keyword first, then `x-error-code`. */
function codeOf(schema: unknown, keyword: string): CatalogCode | undefined {
  const coded = schema as CodedSchema | undefined;
  return coded?.['x-error-codes-by-keyword']?.[keyword] ?? coded?.['x-error-code'];
}

// requirement: int.errors.field-error
/** A body field's name as the request spells it: `lines[0].quantity`. */
function bodyField(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

/** The field errors found so far by field, and how many other fields failed too (counted, not made). */
interface Found {
  byField: Map<string, FieldError | null>;
  made: number;
}

/**
 * Adds Ajv's `errors` to `found`, one per field in schema order: the first `limit` fields
 * get their field error; the others are only counted, since making one (its name, code and
 * echoed value) costs far more than counting it, and a value can fail 100,000 times.
 */
function addErrors(errors: ErrorObject[], location: Location, found: Found, limit: number): void {
  for (const error of errors) {
    const missing = error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : undefined;
    const pointer = missing === undefined ? error.instancePath : `${error.instancePath}/${missing}`;
    // A parameter is one field however deep the failure (`status/1` is the `status` parameter).
    const key = location === 'body' ? pointer : `/${pointer.split('/')[1] ?? ''}`;
    if (key === '/' || key === '' || found.byField.has(key)) continue;
    if (found.made >= limit) {
      found.byField.set(key, null);
      continue;
    }
    const field = location === 'body' ? bodyField(pointer) : key.slice(1);
    const schema = missing === undefined ? error.parentSchema : (error.parentSchema as { properties?: Record<string, unknown> })?.properties?.[missing];
    const code = codeOf(schema, error.keyword) ?? 'api.malformed_request';
    const message = code === 'api.malformed_request' ? (missing === undefined ? `${field} ${error.message ?? 'is invalid'}` : `${field} is required`) : catalogEntry(code).meaning;
    found.byField.set(key, fieldError(field, code, message, missing === undefined ? error.data : undefined));
    found.made += 1;
  }
}

/** The field errors made in `found`, in order. */
function madeErrors(found: Found): FieldError[] {
  const errors: FieldError[] = [];
  for (const error of found.byField.values()) if (error !== null) errors.push(error);
  return errors;
}

/** Turns Ajv errors into the seed's field errors, one per field, in schema order. */
export function fieldErrors(errors: ErrorObject[], location: Location): FieldError[] {
  const found: Found = { byField: new Map(), made: 0 };
  addErrors(errors, location, found, Infinity);
  return madeErrors(found);
}

/**
 * `value` with every array cut to its first `items` items, at any depth, and whether anything
 * was cut. Only what holds a cut array is copied: a wide object without one is passed as it is.
 */
function pruneArrays(value: unknown, items: number): { value: unknown; cut: boolean } {
  let cut = false;
  // Bodies are at most 64 levels deep (D58), so the recursion is shallow.
  const prune = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      let out: unknown[] | null = null;
      if (node.length > items) [cut, out] = [true, node.slice(0, items)];
      const kept = Math.min(node.length, items);
      for (let i = 0; i < kept; i += 1) {
        const child = prune(node[i]);
        if (child !== node[i]) (out ??= node.slice(0, items))[i] = child;
      }
      return out ?? node;
    }
    let out: Record<string, unknown> | null = null;
    for (const key in node) {
      const child = (node as Record<string, unknown>)[key];
      const pruned = prune(child);
      // defineProperty: a member named `__proto__` stays a member.
      if (pruned !== child) Object.defineProperty((out ??= { ...node }), key, { value: pruned, enumerable: true, writable: true, configurable: true });
    }
    return out ?? node;
  };
  return { value: prune(value), cut };
}

/** A value's first field errors (at most MAX_FIELD_ERRORS), with how many fields failed in all (null: not counted, arrays were cut). */
export interface Judgement {
  errors: FieldError[];
  total: number | null;
}

/**
 * The field errors of `value`, which `firstError` (stopping at the first error) has refused
 * with `firstErrors`: `allErrors` run on the value with each array cut to `arrayItems`
 * items, so that the cost stays linear in the value and bounded by `arrayItems` squared.
 */
export function judge(value: unknown, firstErrors: ErrorObject[], allErrors: ValidateFunction, arrayItems: number): Judgement {
  const pruned = pruneArrays(value, arrayItems);
  const found: Found = { byField: new Map(), made: 0 };
  // The first error is real even when it lies past the cut; schema order puts it first.
  addErrors(firstErrors, 'body', found, MAX_FIELD_ERRORS);
  if (!allErrors(pruned.value)) addErrors(allErrors.errors ?? [], 'body', found, MAX_FIELD_ERRORS);
  return { errors: madeErrors(found), total: pruned.cut ? null : found.byField.size };
}

/** The detail of a 400 (or a refused import row) listing `listed` of `found` field errors of `total` (null: not all counted). */
export function errorsDetail(first: FieldError, found: number, total: number | null, listed = Math.min(found, MAX_FIELD_ERRORS), what = 'body'): string {
  if (found === 1 && total === 1) return first.message;
  if (total === null) return `${listed} field ${listed === 1 ? 'error is' : 'errors are'} listed, …and more field errors that were not counted in so large a ${what}.`;
  if (total <= listed) return `${total} fields are invalid.`;
  return `${total.toLocaleString('en-US')} fields are invalid: the first ${listed} are listed, …and ${(total - listed).toLocaleString('en-US')} more field errors.`;
}
