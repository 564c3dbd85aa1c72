/**
 * The nesting limit of request bodies (D58): JSON text is read once, byte by byte, before
 * it is parsed, and a body that nests arrays and objects deeper than the limit is refused
 * without being parsed. Parsing 1 MiB of `[[[[…` alone blocks the process for about 300 ms,
 * and every recursive walk after it (validation, pruning, logging) could overflow the stack.
 */

/** The deepest nesting of arrays and objects a request body may have (D58). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** What `tooDeep` found: the top-level member whose value nests too deep, null when the body is no object. */
export interface TooDeep {
  member: string | null;
}

/** The index of the quote that closes the string opened at `start`, or -1 when none does. */
function stringEnd(bytes: Uint8Array, start: number): number {
  let at = bytes.indexOf(QUOTE, start + 1);
  while (at !== -1) {
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes += 1;
    // An even run of backslashes escapes itself, not the quote.
    if (backslashes % 2 === 0) return at;
    at = bytes.indexOf(QUOTE, at + 1);
  }
  return -1;
}

/** A member name as JSON text spells it, decoded; the raw text when it is no valid JSON string. */
function memberName(bytes: Uint8Array, start: number, end: number): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start + 1).toString('utf8');
  try {
    return JSON.parse(text) as string;
  } catch {
    return text.slice(1, -1);
  }
}

// requirement: D58
/**
 * Where JSON text first nests arrays and objects more than `max` deep, or null when it never
 * does. Linear in the text and without recursion; text that is not JSON is judged as far as
 * its brackets go (the parser refuses it afterwards when it is within the limit).
 */
export function tooDeep(bytes: Uint8Array, max = MAX_JSON_DEPTH): TooDeep | null {
  let depth = 0;
  let topIsObject = false;
  // The last string read at depth 1, and the member name it became when a colon followed it.
  let lastString: [number, number] | null = null;
  let member: [number, number] | null = null;
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      const end = stringEnd(bytes, at);
      if (end === -1) return null;
      if (depth === 1) lastString = [at, end];
      at = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === 0) topIsObject = byte === OPEN_OBJECT;
      depth += 1;
      if (depth > max) return { member: topIsObject && member !== null ? memberName(bytes, member[0], member[1]) : null };
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth -= 1;
      // More closed than opened: not JSON, which the parser refuses at that byte.
      if (depth < 0) return null;
    } else if (byte === COLON && depth === 1) {
      member = lastString;
    }
  }
  return null;
}
