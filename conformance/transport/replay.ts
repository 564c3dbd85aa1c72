/**
 * Shell lines that replay a recorded exchange: `curl` for requests made through fetch,
 * `printf … | nc` for raw ones. Secrets appear only as `"$WAYBILL_…"` placeholders.
 */
import { shellQuote } from '../../cli/shell-quote.ts';
import type { Redactor } from './redaction.ts';

/** What a replay line needs of a request; `body` is what was sent, in full. */
export interface ReplayRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** Bodies up to this size are written into the line; larger ones are referred to as a file. */
const inlineBodyLimit = 64 * 1024;


/** One shell word for `text`, each secret in it left to the shell as `"$VAR"`; `escape` is applied to literal parts. */
function shellWord(text: string, redactor: Redactor, escape: (literal: string) => string = (literal) => literal): string {
  const pieces = redactor.segments(text);
  if (pieces.length === 0) return "''";
  return pieces.map((piece) => ('literal' in piece ? shellQuote(escape(piece.literal)) : `"$${piece.secret.envVar}"`)).join('');
}

/** True when `bytes` round-trips through UTF-8 unchanged. */
export function isUtf8(bytes: Buffer): boolean {
  return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

/** A curl line that sends the same request (`-i` so the answer's status and headers show). */
export function curlLine(request: ReplayRequest, redactor: Redactor): string {
  const words = ['curl', '-i'];
  if (request.method !== 'GET') words.push('-X', shellWord(request.method, redactor));
  words.push(shellWord(request.url, redactor));
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'user-agent') continue;
    words.push('-H', shellWord(`${name}: ${value}`, redactor));
  }
  if (request.body === null) return words.join(' ');
  // curl adds a form Content-Type to --data-binary unless told to send none.
  if (!Object.keys(request.headers).includes('content-type')) words.push('-H', shellWord('Content-Type:', redactor));
  if (request.body.length > inlineBodyLimit) {
    return `${words.join(' ')} --data-binary @body.bin # the ${request.body.length}-byte body was not recorded in full; put it in body.bin`;
  }
  if (!isUtf8(request.body)) {
    return `printf %s ${shellQuote(redactor.redactBytes(request.body).toString('base64'))} | base64 -d | ${words.join(' ')} --data-binary @-`;
  }
  words.push('--data-binary', shellWord(request.body.toString('utf8'), redactor));
  return words.join(' ');
}

/** Escapes text for a printf format: backslash, percent, and every byte outside printable ASCII. */
function printfEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x25) out += '%%';
    else if (byte === 0x0d) out += '\\r';
    else if (byte === 0x0a) out += '\\n';
    else if (byte < 0x20 || byte > 0x7e) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return out;
}

/** A `printf … | nc host port` line that writes the same bytes (openssl s_client for https). */
export function rawLine(bytes: Buffer, target: URL, redactor: Redactor): string {
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const connect = target.protocol === 'https:' ? `openssl s_client -quiet -connect ${target.hostname}:${port}` : `nc ${target.hostname} ${port}`;
  if (bytes.length > inlineBodyLimit) return `${connect} < request.bin # the ${bytes.length}-byte request was not recorded in full`;
  const format = isUtf8(bytes)
    ? shellWord(bytes.toString('utf8'), redactor, printfEscape)
    : shellQuote([...redactor.redactBytes(bytes)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join(''));
  return `printf ${format} | ${connect}`;
}
