/**
 * Just enough HTTP/1.1 parsing for raw exchanges: the head of a request or an answer, and an
 * answer's body framed by Content-Length, chunked encoding or the end of the connection.
 */

/** The start line and headers of a message, and where its body begins. */
export interface MessageHead {
  startLine: [string, string, string];
  /** Names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  bodyStart: number;
}

/** Parses the head of `data`, or null while it is incomplete. */
export function parseHead(data: Buffer): MessageHead | null {
  const crlf = data.indexOf('\r\n\r\n');
  const lf = data.indexOf('\n\n');
  const end = crlf !== -1 && (lf === -1 || crlf < lf) ? crlf + 4 : lf !== -1 ? lf + 2 : -1;
  if (end === -1) return null;
  const [startLine = '', ...lines] = data.subarray(0, end).toString('latin1').trim().split(/\r?\n/);
  const first = startLine.indexOf(' ');
  const second = startLine.indexOf(' ', first + 1);
  const parts: [string, string, string] =
    first === -1 ? [startLine, '', ''] : second === -1 ? [startLine.slice(0, first), startLine.slice(first + 1), ''] : [startLine.slice(0, first), startLine.slice(first + 1, second), startLine.slice(second + 1)];
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { startLine: parts, headers, bodyStart: end };
}

/** Decodes a chunked body and where it ends (after its trailer); null while the last chunk has not arrived. */
function dechunk(data: Buffer): { body: Buffer; end: number } | null {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return null;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (Number.isNaN(size)) return { body: Buffer.concat([...chunks, data.subarray(at)]), end: data.length };
    if (size === 0) {
      // The last chunk, then trailer lines, if any, up to an empty line.
      const end = data.subarray(lineEnd + 2, lineEnd + 4).toString('latin1') === '\r\n' ? lineEnd + 4 : data.indexOf('\r\n\r\n', lineEnd + 2) + 4;
      return end < 4 ? null : { body: Buffer.concat(chunks), end };
    }
    if (data.length < lineEnd + 2 + size + 2) return null;
    chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** A parsed answer. */
export interface Answer {
  httpVersion: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** The final answer at the start of `data` (interim 1xx answers skipped), where it ends, and whether all of it came. */
function answerAt(data: Buffer, closed: boolean, requestMethod: string): { answer: Answer; end: number; complete: boolean } | null {
  let at = 0;
  for (;;) {
    const head = parseHead(data.subarray(at));
    if (head === null) return null;
    const [httpVersion, code, statusText] = head.startLine;
    const status = Number(code);
    const bodyStart = at + head.bodyStart;
    const bodyData = data.subarray(bodyStart);
    if (status >= 100 && status < 200 && status !== 101) {
      at = bodyStart;
      continue;
    }
    const answer = { httpVersion, status, statusText, headers: head.headers };
    const whole = (body: Buffer, end: number) => ({ answer: { ...answer, body }, end, complete: true });
    // Cut off by the end of the connection: what came is the answer, incomplete.
    const cut = closed ? { answer: { ...answer, body: bodyData }, end: data.length, complete: false } : null;
    if (requestMethod === 'HEAD' || status === 204 || status === 304) return whole(Buffer.alloc(0), bodyStart);
    if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) {
      const chunked = dechunk(bodyData);
      return chunked === null ? cut : whole(chunked.body, bodyStart + chunked.end);
    }
    const length = head.headers['content-length'];
    if (length !== undefined && /^\d+$/.test(length)) {
      const size = Number(length);
      return bodyData.length >= size ? whole(bodyData.subarray(0, size), bodyStart + size) : cut;
    }
    // Framed by the end of the connection alone.
    return closed ? whole(bodyData, data.length) : null;
  }
}

/**
 * The final answer in `data` (interim 1xx answers skipped) once it is complete; `closed` says the
 * connection has ended, which completes a body framed by neither length nor chunks.
 */
export function parseAnswer(data: Buffer, closed: boolean, requestMethod: string): Answer | null {
  return answerAt(data, closed, requestMethod)?.answer ?? null;
}

/**
 * The complete answers in `data`, in order, to requests of `requestMethods` (GET past the
 * last), and whether an answer was cut off: bytes of one more came, but not all of it.
 */
export function parseAnswers(data: Buffer, closed: boolean, requestMethods: readonly string[]): { answers: Answer[]; partial: boolean } {
  const answers: Answer[] = [];
  let at = 0;
  while (at < data.length) {
    const found = answerAt(data.subarray(at), closed, requestMethods[answers.length] ?? 'GET');
    if (found === null || !found.complete) return { answers, partial: true };
    answers.push(found.answer);
    at += found.end;
  }
  return { answers, partial: false };
}

/** Method, request target, headers and body of raw request bytes (for the record). */
export function parseRequest(bytes: Buffer): { method: string; target: string; headers: Record<string, string>; body: Buffer | null } {
  const head = parseHead(bytes);
  if (head === null) return { method: '?', target: '', headers: {}, body: bytes.length > 0 ? bytes : null };
  const body = bytes.subarray(head.bodyStart);
  return { method: head.startLine[0], target: head.startLine[1], headers: head.headers, body: body.length > 0 ? body : null };
}
