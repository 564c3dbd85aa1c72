/**
 * How the store's PostgreSQL connections read values (D78): each row as better-sqlite3
 * reads SQLite's, so the store's code reads one shape whatever the engine.
 */
import pg from 'pg';

const { builtins } = pg.types;

/** An integer PostgreSQL prints (a bigint, a sum): a number, as SQLite's; a BigInt past 2^53, where a number would be wrong. */
function integer(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

/** A `numeric` (what `sum` and `avg` of integers answer): a number, as SQLite's. */
function numeric(text: string): number | bigint {
  return /^-?\d+$/.test(text) ? integer(text) : Number(text);
}

/** A boolean (a comparison, `EXISTS`): 1 or 0, as SQLite answers one. */
const flag = (text: string): number => (text === 't' ? 1 : 0);

/** JSON built by PostgreSQL (`json_build_object`): its text, as SQLite's `json_object` answers it; the feeds hand it straight on. */
const json = (text: string): string => text;

/** A `timestamptz` (none of the sandbox's own columns: its times are RFC 3339 text): the same RFC 3339 text. */
const timestamp = (text: string): string => new Date(text).toISOString();

const parsers = new Map<number, (text: string) => unknown>([
  [builtins.INT8, integer],
  [builtins.NUMERIC, numeric],
  [builtins.BOOL, flag],
  [builtins.JSON, json],
  [builtins.JSONB, json],
  [builtins.TIMESTAMPTZ, timestamp],
]);

// requirement: D78
/** The type parsers of the store's statements (pg's `types` option); every other type as `pg` reads it. */
export const rowTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    const parser = format === 'binary' ? undefined : parsers.get(oid);
    return parser ?? pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};
