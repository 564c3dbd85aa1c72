/**
 * The SQL that differs between the engines, one object per engine, and the statements built
 * from it. The store's statements are one text for both engines wherever they can be; where
 * they cannot, they take a piece of this file (`portable\`…${greatest('a', 'b')}…\``), so each
 * engine's own SQL stays in its one place here.
 */
import type { Statement } from './sql.ts';

/** What each engine spells its own way. */
interface Dialect {
  /** The larger of two values (a scalar, not the aggregate). */
  greatest(a: string, b: string): string;
  /** A JSON object's text from `[key, value]` pairs, keys in the order given. */
  jsonObject(pairs: [key: string, value: string][]): string;
  /** A column holding JSON text, as a JSON value inside `jsonObject` (not a string). */
  json(column: string): string;
  /** The elements of a JSON array of strings `param` as a table `alias` of `value` (text) and `key` (index, for ORDER BY). */
  jsonElements(param: string, alias: string): string;
}

const sqlite: Dialect = {
  greatest: (a, b) => `max(${a}, ${b})`,
  jsonObject: (pairs) => `json_object(${pairs.map(([key, value]) => `'${key}', ${value}`).join(', ')})`,
  json: (column) => `json(${column})`,
  jsonElements: (param, alias) => `json_each(${param}) ${alias}`,
};

// A JSON object is spelled out, each value through to_json: json_build_object keeps the keys
// in order but writes `"key" : value, ` where SQLite's json_object writes `"key":value,`
// (jsonb would sort the keys), and the feeds hand the text on as it is, the same bytes on both engines.
const postgres: Dialect = {
  greatest: (a, b) => `greatest(${a}, ${b})`,
  jsonObject: (pairs) => `('{' || ${pairs.map(([key, value], i) => `'${i === 0 ? '' : ','}"${key}":' || coalesce(to_json(${value})::text, 'null')`).join(' || ')} || '}')`,
  json: (column) => `${column}::json`,
  jsonElements: (param, alias) => `json_array_elements_text(CAST(${param} AS json)) WITH ORDINALITY AS ${alias} (value, key)`,
};

/** A piece of a statement: the same text on both engines, or one each. */
type Piece = string | Statement;

const on = (engine: keyof Statement, piece: Piece) => (typeof piece === 'string' ? piece : piece[engine]);

/** A piece built by each engine's dialect from pieces of its own. */
function fromDialects(build: (dialect: Dialect, text: (piece: Piece) => string) => string): Statement {
  return {
    sqlite: build(sqlite, (piece) => on('sqlite', piece)),
    postgres: build(postgres, (piece) => on('postgres', piece)),
  };
}

// requirement: D76
/** A statement written once, with pieces that differ per engine interpolated: `portable\`UPDATE t SET n = ${greatest('n', '?')}\``. */
export function portable(strings: TemplateStringsArray, ...pieces: Piece[]): Statement {
  const join = (engine: keyof Statement) => strings.reduce((text, part, i) => text + on(engine, pieces[i - 1]!) + part);
  return { sqlite: join('sqlite'), postgres: join('postgres') };
}

/** The larger of `a` and `b`. */
export const greatest = (a: Piece, b: Piece): Statement => fromDialects((d, text) => d.greatest(text(a), text(b)));

/** The JSON object text of `pairs` (key → SQL expression), keys in the order given. */
export const jsonObject = (pairs: [key: string, value: Piece][]): Statement =>
  fromDialects((d, text) => d.jsonObject(pairs.map(([key, value]) => [key, text(value)])));

/** The JSON text of `column` as a JSON value (an array or object nested in `jsonObject`). */
export const json = (column: string): Statement => fromDialects((d) => d.json(column));

/** The elements of the JSON array of strings bound at `param` (`?`), as a table `alias (value, key)`. */
export const jsonElements = (param: string, alias: string): Statement => fromDialects((d) => d.jsonElements(param, alias));
