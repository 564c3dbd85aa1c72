/**
 * The length rule of the project's style: no hand-written source file over 400 lines. A file a
 * generator wrote says so on its first line (`// Generated from spec/openapi.yaml by
 * \`npm run gen:types\`. Do not edit by hand.`), and only such a file may be longer.
 */
import { type SourceFile, sourceFiles } from './source-files.ts';

/** The most lines a hand-written source file may have. */
export const MAX_LINES = 400;

/** A first line that says a generator wrote the file and it is not to be edited by hand. */
const GENERATED_HEADER = /^\/\/.*\bgenerated\b.*\bdo not edit\b/i;

/** True when `file` was written by a generator: its first line says so. */
export function isGenerated(file: Pick<SourceFile, 'text'>): boolean {
  return GENERATED_HEADER.test(file.text.slice(0, file.text.indexOf('\n') >>> 0));
}

/** How many lines a text has: its newlines, plus a last line that does not end in one. */
export function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text === '' || text.endsWith('\n') ? newlines : newlines + 1;
}

/** A source file over the limit, and its length. */
export interface LongFile {
  path: string;
  lines: number;
}

/** The hand-written source files of the project at `root` longer than `max` lines, longest first. */
export function longFiles(root: string, max = MAX_LINES): LongFile[] {
  return sourceFiles(root)
    .filter((file) => !isGenerated(file))
    .map((file) => ({ path: file.path, lines: lineCount(file.text) }))
    .filter((file) => file.lines > max)
    .sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path));
}
