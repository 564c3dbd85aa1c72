/** `text` as one POSIX shell word in single quotes (replay lines, curl lines, eval lines). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
