/**
 * A refused control-plane request, as data: the catalog code, a detail, and the field it
 * concerns. Domain rules and the store throw it without knowing HTTP; the control plane's
 * routes answer it as a problem with the code's catalog status.
 */
import type { CatalogCode } from '../../spec/load.ts';

/** The request field a refusal is about, as the request spells it, with the rejected value. */
export interface RefusedField {
  name: string;
  value: unknown;
}

/** A rule of the sandbox refused the request. */
export class Refusal extends Error {
  constructor(
    readonly code: CatalogCode,
    readonly detail: string,
    readonly field?: RefusedField,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'Refusal';
  }
}

/** Throws a refusal with `code`; `field` names what the request got wrong (required for 400 codes). */
export function refuse(code: CatalogCode, detail: string, field?: string, value: unknown = null): never {
  throw new Refusal(code, detail, field === undefined ? undefined : { name: field, value });
}
