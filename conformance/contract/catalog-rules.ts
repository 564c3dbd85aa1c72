/**
 * What the error catalog says about one answer: which HTTP statuses a code may come with, and
 * which schema its problem body must match. Shared by the coverage and the problem checks.
 */
import { catalog, type CatalogEntry } from '../../spec/load.ts';

/** The media type of a Content-Type header value, lower case, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export { statusesOf } from '../../spec/load.ts';

/** The catalog entry of a problem `type`, or undefined when it is not a catalog code. */
export function catalogEntryOf(type: unknown): CatalogEntry | undefined {
  return typeof type === 'string' ? catalog.get(type as CatalogEntry['code']) : undefined;
}

/** The component schema a problem body with this HTTP status must match. */
export function problemSchemaFor(status: number): 'ValidationProblem' | 'Problem' {
  return status === 400 ? 'ValidationProblem' : 'Problem';
}
