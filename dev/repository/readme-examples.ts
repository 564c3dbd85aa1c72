/**
 * The README's shell examples and the outputs it quotes, read from the Markdown for
 * readme-examples.test.ts. A command is a complete statement of a ```sh block (a quoted string
 * or a `\` may carry it over several lines). The README quotes an output in two ways:
 * - `# → TEXT` after a command, on its line or on the comment lines right below it: one line
 *   each of what that command prints;
 * - `<!-- output of: COMMAND -->` in the prose, naming a command of a ```sh block: the code
 *   span or fenced block that follows is (a part of) what it prints.
 * In a quote, `…` stands for any text within a line.
 */

/** One command of a ```sh block. */
export interface ReadmeCommand {
  /** As written: its lines, the trailing comment left out. */
  text: string;
  /** On one line, each run of white space (line breaks too) as one space: how the test names it. */
  key: string;
  /** The README line it starts on (1-based). */
  line: number;
  /** The `# → ` lines quoting its output. */
  quoted: string[];
}

/** An output the prose quotes, and the command it is the output of. */
export interface QuotedOutput {
  command: string;
  quote: string[];
  line: number;
}

/** `text` on one line: white space runs as one space, trimmed. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Where the comment of `line` starts given the quote state it begins in, and the state it ends in. */
function scan(line: string, state: 'none' | 'single' | 'double'): { comment: number; state: 'none' | 'single' | 'double' } {
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (state === 'single') {
      if (char === "'") state = 'none';
    } else if (char === '\\') {
      index += 1;
    } else if (state === 'double') {
      if (char === '"') state = 'none';
    } else if (char === "'") {
      state = 'single';
    } else if (char === '"') {
      state = 'double';
    } else if (char === '#' && (index === 0 || /\s/.test(line[index - 1]!))) {
      return { comment: index, state };
    }
  }
  return { comment: -1, state };
}

/** The commands of one ```sh block whose first line is README line `first`. */
function blockCommands(lines: readonly string[], first: number): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let pending: { lines: string[]; line: number } | null = null;
  let state: 'none' | 'single' | 'double' = 'none';
  let last: ReadmeCommand | null = null;
  for (const [offset, raw] of lines.entries()) {
    const scanned = scan(raw, state);
    state = scanned.state;
    const code = (scanned.comment === -1 ? raw : raw.slice(0, scanned.comment)).trimEnd();
    const comment = scanned.comment === -1 ? '' : raw.slice(scanned.comment);
    if (pending === null && code.trim() === '') {
      // A comment line: a quote of the command right above when it starts with `# → `.
      if (last !== null && comment.startsWith('# → ')) last.quoted.push(comment.slice(4));
      else last = null;
      continue;
    }
    pending ??= { lines: [], line: first + offset };
    pending.lines.push(code);
    if (state !== 'none' || code.endsWith('\\')) continue;
    const text = pending.lines.join('\n');
    last = { text, key: oneLine(text.replaceAll('\\\n', ' ')), line: pending.line, quoted: comment.startsWith('# → ') ? [comment.slice(4)] : [] };
    commands.push(last);
    pending = null;
  }
  if (pending !== null) throw new Error(`README line ${pending.line}: a command that never ends (an open quote or a trailing \\)`);
  return commands;
}

/** Every command of every ```sh block of `markdown`, in order. */
export function readmeCommands(markdown: string): ReadmeCommand[] {
  const lines = markdown.split('\n');
  const commands: ReadmeCommand[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index] !== '```sh') continue;
    const end = lines.indexOf('```', index + 1);
    commands.push(...blockCommands(lines.slice(index + 1, end), index + 2));
    index = end;
  }
  return commands;
}

/** Every `<!-- output of: … -->` marker of `markdown` with the code span or fenced block after it. */
export function quotedOutputs(markdown: string): QuotedOutput[] {
  const found: QuotedOutput[] = [];
  for (const match of markdown.matchAll(/<!-- output of: (.+?) -->\s*/g)) {
    const after = markdown.slice(match.index + match[0].length);
    const fenced = /^```[a-z]*\n([\s\S]*?)\n```/.exec(after);
    const span = /^`([^`]+)`/.exec(after);
    const quote = fenced?.[1]?.split('\n') ?? (span ? [span[1]!] : null);
    const line = markdown.slice(0, match.index).split('\n').length;
    if (quote === null) throw new Error(`README line ${line}: an output marker not followed by a code span or fenced block`);
    found.push({ command: oneLine(match[1]!), quote, line });
  }
  return found;
}

/** A quoted line as a pattern: `…` matches any text, the rest literally, white space at the ends ignored. */
function linePattern(quote: string): RegExp {
  return new RegExp(`^${quote.trim().split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')}$`);
}

/** True when `quote`'s lines are consecutive lines of `output` (each line's surrounding white space ignored). */
export function quoteHolds(output: string, quote: readonly string[]): boolean {
  const lines = output.split('\n').map((line) => line.trim());
  const patterns = quote.map(linePattern);
  return lines.some((_, start) => patterns.every((pattern, offset) => pattern.test(lines[start + offset] ?? '\u0000')));
}
