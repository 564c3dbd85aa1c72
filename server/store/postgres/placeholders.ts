/**
 * SQLite's `?` placeholders as PostgreSQL's `$1, $2, …`: the store's statements are written
 * once with `?` (server/store/sql.ts) and numbered here for PostgreSQL, once per text.
 */

/**
 * `text` with each `?` outside quotes and comments numbered `$n` in order. A `?` inside a
 * string literal (`'…'`), a quoted identifier (`"…"`) or a comment (`-- …`, `/* … *\/`) is
 * text, not a placeholder, as on SQLite.
 */
export function numberPlaceholders(text: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const end = skipQuoted(text, i);
    if (end > i) {
      out += text.slice(i, end);
      i = end;
    } else if (c === '?') {
      out += `$${++n}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Where the quoted string or comment starting at `i` ends (past its closing mark), or `i` when none starts there. */
function skipQuoted(text: string, i: number): number {
  const c = text[i];
  if (c === "'" || c === '"') {
    // A doubled quote is an escaped one, inside the same literal.
    let j = i + 1;
    while (j < text.length) {
      if (text[j] === c) {
        if (text[j + 1] === c) j += 2;
        else return j + 1;
      } else j++;
    }
    return text.length;
  }
  if (c === '-' && text[i + 1] === '-') {
    const newline = text.indexOf('\n', i);
    return newline === -1 ? text.length : newline + 1;
  }
  if (c === '/' && text[i + 1] === '*') {
    const close = text.indexOf('*/', i + 2);
    return close === -1 ? text.length : close + 2;
  }
  return i;
}
