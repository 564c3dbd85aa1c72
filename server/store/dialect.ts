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
  /** A JSON object's text from `key, value` pairs, keys in the order given. */
  jsonObject(pairs: string): string;
  /** A column holding JSON text, as a JSON value inside `jsonObject` (not a string). */
  json(column: string): string;
  /** The elements of a JSON array of strings `param` as a table `alias` of `value` (text) and `key` (index, for ORDER BY). */
  jsonElements(param: string, alias: string): string;
}

const sqlite: Dialect = {
  greatest: (a, b) => `max(${a}, ${b})`,
  jsonObject: (pairs) => `json_object(${pairs})`,
  json: (column) => `json(${column})`,
  jsonElements: (param, alias) => `json_each(${param}) ${alias}`,
};

// json_build_object keeps the keys in order (jsonb would sort them); ::text hands the text over.
const postgres: Dialect = {
  greatest: (a, b) => `greatest(${a}, ${b})`,
  jsonObject: (pairs) => `json_build_object(${pairs})::text`,
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

/** A statement written once, with pieces that differ per engine interpolated: `portable\`UPDATE t SET n = ${greatest('n', '?')}\``. */
export function portable(strings: TemplateStringsArray, ...pieces: Piece[]): Statement {
  const join = (engine: keyof Statement) => strings.reduce((text, part, i) => text + on(engine, pieces[i - 1]!) + part);
  return { sqlite: join('sqlite'), postgres: join('postgres') };
}

/** The larger of `a` and `b`. */
export const greatest = (a: Piece, b: Piece): Statement => fromDialects((d, text) => d.greatest(text(a), text(b)));

/** The JSON object text of `pairs` (key → SQL expression), keys in the order given. */
export const jsonObject = (pairs: [key: string, value: Piece][]): Statement =>
  fromDialects((d, text) => d.jsonObject(pairs.map(([key, value]) => `'${key}', ${text(value)}`).join(', ')));

/** The JSON text of `column` as a JSON value (an array or object nested in `jsonObject`). */
export const json = (column: string): Statement => fromDialects((d) => d.json(column));

/** The elements of the JSON array of strings bound at `param` (`?`), as a table `alias (value, key)`. */
export const jsonElements = (param: string, alias: string): Statement => fromDialects((d) => d.jsonElements(param, alias));
