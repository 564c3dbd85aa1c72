/**
 * What a `--db` value (or `WAYBILL_DB`) names: a SQLite file (a path, or `:memory:`), or a
 * PostgreSQL database (`postgres://` or `postgresql://`). Any other scheme is refused in one
 * line, rather than taken for a file name: `postgres:` once made a folder of that name.
 */

/** The database a sandbox runs on. */
export type DbTarget =
  | { engine: 'sqlite'; file: string }
  /** `shown` is the URL with its password masked: the form for banners, logs and messages. */
  | { engine: 'postgres'; url: string; shown: string };

/** A `--db` value read: its target, or the one line refusing it. */
export type DbTargetResult = { ok: true; target: DbTarget } | { ok: false; message: string };

const SERVED = "waybill serves SQLite (a file path, or ':memory:') and PostgreSQL (postgres:// or postgresql://)";

/** A URL scheme at the start of a value: RFC 3986's `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** `value` with the password of its `user:password@` part, and of a `password=` parameter, masked. */
export function maskPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):[^/?#@]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** Reads a `--db` value. */
export function parseDbTarget(value: string): DbTargetResult {
  if (value.trim() === '') return { ok: false, message: `--db is empty: ${SERVED}` };
  const scheme = SCHEME.exec(value)?.[1];
  // No scheme, or one letter: a path (`C:\sandbox.db` and `C:/sandbox.db` are Windows drives).
  if (scheme === undefined || scheme.length === 1 || value === ':memory:') return { ok: true, target: { engine: 'sqlite', file: value } };
  const shown = maskPassword(value);
  if (/^postgres(ql)?$/i.test(scheme) && value.slice(scheme.length + 1).startsWith('//')) {
    if (!URL.canParse(value)) return { ok: false, message: `--db ${shown}: not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)` };
    return { ok: true, target: { engine: 'postgres', url: value, shown } };
  }
  const hint = value.slice(scheme.length + 1).startsWith('//') ? '' : ` (a file whose name has a colon: ./${shown})`;
  return { ok: false, message: `--db ${shown}: ${SERVED}, not ${scheme.toLowerCase()}:${hint}` };
}
