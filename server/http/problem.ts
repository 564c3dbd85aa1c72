/**
 * Problem details (RFC 9457). `problem()` builds one from a catalog code, taking the
 * status and title from `spec/errors.yaml`; `aboutBlank()` builds the `about:blank` ones of
 * D3/D21, titled with the status's reason phrase.
 * Both are thrown (or passed to `next`) and written by the one error handler.
 */
import { STATUS_CODES } from 'node:http';
import { type CatalogCode, catalogEntry, type FieldError, statusesOf } from '../../spec/load.ts';

/** A problem on its way to the client: status, body members and extra headers. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail: string | null,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${type}${detail ? `: ${detail}` : ''}`);
    this.name = 'ProblemError';
  }
}


/** The HTTP reason phrase of `status`, the title of an `about:blank` problem (RFC 9457 §4.2.1). */
function reason(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

// requirement: int.errors.catalog-type
// requirement: int.errors.status-by-kind
// requirement: int.errors.validation-title
// requirement: int.errors.validation-status
// requirement: int.errors.validation-detail
// requirement: cat.type-is-code
// requirement: cat.status-fixed
// requirement: D89
/**
 * A problem of the catalog `code`: status and title from the catalog (one title per code,
 * whatever the occurrence, D89), detail the given text or the catalog's meaning.
 */
export function problem(
  code: CatalogCode,
  detail?: string,
  errors?: FieldError[],
  options: { status?: number; headers?: Record<string, string> } = {},
): ProblemError {
  const entry = catalogEntry(code);
  const status = options.status ?? entry.status;
  if (!statusesOf(entry).includes(status)) {
    throw new Error(`${code} is a ${entry.status} code, not ${status}`);
  }
  return new ProblemError(status, code, entry.title, detail ?? (entry.meaning || null), errors, options.headers);
}

// requirement: D3
/** A problem with `type: about:blank` (401, 403, 404 and 405 of unknown routes, 500; D3, D21; 409 of the test clock, D52; 503 of a fault, D51). */
export function aboutBlank(status: 401 | 403 | 404 | 405 | 409 | 500 | 503, detail: string, headers: Record<string, string> = {}): ProblemError {
  return new ProblemError(status, 'about:blank', reason(status), detail, undefined, headers);
}

/** At most `max` characters of a value echoed in a detail, with "…" when it was longer. */
export function bounded(text: string, max = 100): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

// requirement: int.errors.field-error-code
// requirement: int.errors.field-error-value
// requirement: int.errors.field-error-message
/** One field error of a 400 body; `value` is echoed as text, null when not safe to echo. */
export function fieldError(field: string, code: CatalogCode, message: string, value: unknown): FieldError {
  return { field, code, value: echo(value), message };
}

/** An API key (`wbk_…`) or admin token (`wba_…`) where none belongs: a secret is never echoed, even to its sender. */
const SECRET = /\bwb[ak]_[A-Za-z0-9_-]{20,}/;

/** The text of a rejected value, or null for what cannot be echoed safely (objects, huge or control-laden strings, a key). */
function echo(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return null;
  const text = String(value);
  // eslint-disable-next-line no-control-regex
  if (text.length > 200 || /[\u0000-\u001f\u007f]/.test(text) || SECRET.test(text)) return null;
  return text;
}
