/** `text` as one POSIX shell word in single quotes (replay lines, curl lines, eval lines). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `words` as one command line a POSIX shell reads back into them: a word quoted only when it needs to be. */
export function shellLine(words: readonly string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : shellQuote(word))).join(' ');
}
