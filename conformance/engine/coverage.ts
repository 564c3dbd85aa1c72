/**
 * Catalog coverage of a run: each of the catalog's codes is `exercised` (answered with its
 * status and a valid body), `expected-not-seen` (the tested interface can answer it but did
 * not), or `not-reachable` (nothing the run could reach answers it). None is left out.
 */
import { catalog, type CatalogEntry, validateSchema } from '../../spec/load.ts';
import { catalogEntryOf, mediaTypeOf, problemSchemaFor, statusesOf } from '../contract/catalog-rules.ts';
import type { CoverageEntry } from './types/contract.ts';
import type { ExchangeRecord } from './types/exchange.ts';
import type { Profile } from './types/profile.ts';

/** Every object inside a JSON value, the value itself included. */
function* objectsIn(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* objectsIn(item);
  else if (value !== null && typeof value === 'object') {
    yield value as Record<string, unknown>;
    for (const child of Object.values(value)) yield* objectsIn(child);
  }
}

/** The JSON body of a recorded answer, or undefined. */
function jsonBody(exchange: ExchangeRecord): unknown {
  const body = exchange.response?.body;
  if (body === null || body === undefined || exchange.response?.bodyEncoding === 'base64') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The codes one answer carries, each marked valid or not: a problem body's `type`, or, in a
 * success body, any object whose `code` or `type` is a code the catalog reports inside a 2xx
 * answer (`import.row.invalid`, reported per row).
 */
function codesIn(exchange: ExchangeRecord): { entry: CatalogEntry; valid: boolean }[] {
  const response = exchange.response;
  if (response === null) return [];
  const body = jsonBody(exchange);
  if (response.status >= 200 && response.status < 300) {
    const found: { entry: CatalogEntry; valid: boolean }[] = [];
    for (const object of objectsIn(body)) {
      for (const member of [object['code'], object['type']]) {
        const entry = catalogEntryOf(member);
        if (entry !== undefined && entry.status < 300) found.push({ entry, valid: true });
      }
    }
    return found;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const entry = catalogEntryOf((body as Record<string, unknown>)['type']);
  if (entry === undefined) return [];
  // Valid: the code's status, a problem media type, a status member that agrees, and the body schema.
  const valid =
    statusesOf(entry).includes(response.status) &&
    (body as Record<string, unknown>)['status'] === response.status &&
    mediaTypeOf(response.headers['content-type']) === 'application/problem+json' &&
    validateSchema(problemSchemaFor(response.status), body).length === 0;
  return [{ entry, valid }];
}

/** The coverage of every catalog code by `exchanges`; sandbox codes are expected only when the profile has a sandbox. */
export function catalogCoverage(exchanges: readonly ExchangeRecord[], profile: Profile): CoverageEntry[] {
  const seen = new Map<string, { seen: number; mismatched: number }>();
  for (const exchange of exchanges) {
    for (const { entry, valid } of codesIn(exchange)) {
      const tally = seen.get(entry.code) ?? { seen: 0, mismatched: 0 };
      if (valid) tally.seen += 1;
      else tally.mismatched += 1;
      seen.set(entry.code, tally);
    }
  }
  return [...catalog.values()].map((entry): CoverageEntry => {
    const tally = seen.get(entry.code) ?? { seen: 0, mismatched: 0 };
    const reachable = entry.reach === 'integration' || (entry.reach === 'sandbox' && profile.sandbox !== undefined);
    return {
      code: entry.code,
      status: entry.status,
      group: entry.group,
      reach: entry.reach,
      state: tally.seen > 0 ? 'exercised' : reachable ? 'expected-not-seen' : 'not-reachable',
      ...tally,
    };
  });
}
