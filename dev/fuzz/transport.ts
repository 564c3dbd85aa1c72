/**
 * How the fuzz campaign sends its cases to a running sandbox: fetch for requests to an
 * operation, a raw socket for byte-level ones, reading every answer until the server closes.
 */
import { connect } from 'node:net';
import { type Credential, GARBAGE_KEY, type HttpCase } from '../../conformance/fuzz/cases.ts';
import type { FuzzAnswer, RawOutcome } from '../../conformance/fuzz/oracle.ts';
import { fillRaw, type RawCase } from '../../conformance/fuzz/raw-cases.ts';
import { parseHead } from '../../conformance/transport/http-message.ts';

/** Where the cases go and the secrets their credential names stand for. */
export interface FuzzTarget {
  url: string;
  keys: Record<Exclude<Credential, 'garbage' | 'none'>, string>;
  adminToken: string;
  timeoutMs: number;
}

/** The credential header of `item`, if any. */
function credentialHeader(item: HttpCase, target: FuzzTarget): Record<string, string> {
  if (item.credential === 'none') return {};
  if (item.document === 'sandbox') return { Authorization: `Bearer ${item.credential === 'garbage' ? GARBAGE_KEY : target.adminToken}` };
  return { 'X-Api-Key': item.credential === 'garbage' ? GARBAGE_KEY : target.keys[item.credential] };
}

/** The URL of a fetch case. */
export function caseUrl(item: HttpCase, base: string): string {
  const search = new URLSearchParams(item.query).toString();
  return `${base}${item.document === 'sandbox' ? '/sandbox/v1' : ''}${item.path}${search ? `?${search}` : ''}`;
}

/** Sends a fetch case: its answer, `dropped` when the connection failed, or `unsendable` when fetch refused to send it. */
export async function sendHttp(item: HttpCase, target: FuzzTarget): Promise<FuzzAnswer | { dropped: string } | { unsendable: string }> {
  let response: Response;
  try {
    response = await fetch(caseUrl(item, target.url), {
      method: item.method,
      headers: { ...item.headers, ...credentialHeader(item, target) },
      ...(item.body === undefined ? {} : { body: item.body }),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (error) {
    const { message, cause } = error as Error & { cause?: Error };
    if (message === 'fetch failed' || (error as Error).name === 'TimeoutError') return { dropped: `${message}${cause ? `: ${cause.message}` : ''}` };
    return { unsendable: message };
  }
  // A stream of events (the request log's) never ends by itself: its head is the answer.
  if (response.status === 200 && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, headers: Object.fromEntries(response.headers), text: '' };
  }
  const text = await response.text().catch((error: Error) => `\u0000body cut off: ${error.message}`);
  return { status: response.status, headers: Object.fromEntries(response.headers), text };
}

/** The complete answers in `data`, and whether bytes of another one follow. */
function answersIn(data: Buffer): { answers: FuzzAnswer[]; rest: number } {
  const answers: FuzzAnswer[] = [];
  let at = 0;
  for (;;) {
    const head = parseHead(data.subarray(at));
    if (head === null) break;
    const length = Number(head.headers['content-length'] ?? 0);
    const end = at + head.bodyStart + length;
    if (!/^\d+$/.test(head.headers['content-length'] ?? '0') || end > data.length) break;
    const status = Number(head.startLine[1]);
    at = end;
    // An interim answer (100 Continue) is not the answer to the request.
    if (status >= 100 && status < 200) continue;
    answers.push({ status, headers: head.headers, text: data.subarray(end - length, end).toString('utf8') });
  }
  return { answers, rest: data.length - at };
}

/** Writes a raw case on a fresh connection and reads until the server closes it (or `timeoutMs` passes). */
export function sendRaw(item: RawCase, target: FuzzTarget): Promise<RawOutcome> {
  const { hostname, port, host } = new URL(target.url);
  const bytes = Buffer.from(fillRaw(item.bytes, { base: '', host, auth: `X-Api-Key: ${target.keys.full}` }), 'latin1');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let timedOut = false;
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(bytes);
      if (item.halfClose) socket.end();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, target.timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answers (the server closed while bytes it never read were still coming) loses nothing.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const { answers, rest } = answersIn(Buffer.concat(chunks));
      resolve({ answers, end: timedOut ? 'timeout' : rest > 0 ? 'partial' : 'closed' });
    });
  });
}
