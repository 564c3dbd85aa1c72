/** `text` as one POSIX shell word in single quotes (replay lines, curl lines, eval lines). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `words` as one command line a POSIX shell reads back into them: a word quoted only when it needs to be. */
export function shellLine(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : shellQuote(word))).join(' ');
}

/**
 * The words a POSIX shell reads from `line` as `shellLine` writes it: words split at blanks,
 * single quotes taken literally, a backslash outside them escaping the next character. Null
 * when the line has what only a shell could read (double quotes, `$`, globs, redirections, an
 * unclosed quote): such a line is never one `shellLine` wrote.
 */
export function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let at = 0; at < line.length; at += 1) {
    const char = line[at]!;
    if (char === ' ' || char === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (char === "'") {
      const end = line.indexOf("'", at + 1);
      if (end === -1) return null;
      word = (word ?? '') + line.slice(at + 1, end);
      at = end;
    } else if (char === '\\') {
      if (at + 1 >= line.length) return null;
      word = (word ?? '') + line[at + 1]!;
      at += 1;
    } else if (/["$`*?[\]{}()<>|;&~#\n]/.test(char)) {
      return null;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== null) words.push(word);
  return words;
}
