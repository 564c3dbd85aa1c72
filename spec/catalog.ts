/** The error catalog (`errors.yaml`): each code's status, title, group, meaning and reach (D24). */
import type { CatalogCode } from './catalog-codes.ts';
import { loadYaml } from './documents.ts';

/** Where a catalog code can be answered (D24). */
export type Reach = 'integration' | 'sandbox' | 'catalog';

/** One code of `errors.yaml`. */
export interface CatalogEntry {
  code: CatalogCode;
  status: number;
  /** The problem's `title` whenever the code is answered: one short summary per code (RFC 9457 §3.1.3). */
  title: string;
  group: string;
  meaning: string;
  reach: Reach;
}

const errorsDocument = loadYaml('errors.yaml').value as unknown as { codes: CatalogEntry[] };

/** The error catalog, by code. */
export const catalog: ReadonlyMap<CatalogCode, CatalogEntry> = new Map(
  errorsDocument.codes.map((entry) => [entry.code, entry]),
);

/** The catalog entry of `code`; throws on a code the catalog does not hold. */
export function catalogEntry(code: string): CatalogEntry {
  const entry = catalog.get(code as CatalogCode);
  if (entry === undefined) throw new Error(`'${code}' is not a code of spec/errors.yaml`);
  return entry;
}

/**
 * The HTTP statuses `entry` may be answered with: its catalog status, plus any status its
 * meaning adds ("Also answered 415 when the request has no Content-Type at all", as for
 * api.malformed_request). Read from the catalog text, so no code is special-cased anywhere.
 */
export function statusesOf(entry: CatalogEntry): number[] {
  const extra = [...entry.meaning.matchAll(/[Aa]lso answered (\d{3})\b/g)].map((match) => Number(match[1]));
  return [entry.status, ...extra];
}
