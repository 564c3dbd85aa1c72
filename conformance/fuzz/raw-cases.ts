/**
 * Byte-level fuzz cases, written on a raw socket: bad request lines, bad and duplicate headers,
 * bad chunked framing, oversized heads and unmet expectations (to any operation given), bodies
 * and heads cut short, garbage on a keep-alive
 * connection after a good request, pipelined requests and random bytes. The text holds
 * placeholders the transport fills in: `{{base}}` (the target's base path), `{{host}}` and
 * `{{auth}}` (the full key's header line), so that a case prints without a secret.
 */
import fc from 'fast-check';

/** Bytes on one fresh connection. */
export interface RawCase {
  transport: 'raw';
  kind: string;
  /** Latin-1 text with the placeholders `{{base}}`, `{{host}}`, `{{auth}}`. */
  bytes: string;
  /** The client ends its side after writing, as one whose request got cut off. */
  halfClose: boolean;
  /** Nothing that asks for an answer was sent (no bytes, or blank lines only): closing without one is right. */
  unanswerable: boolean;
}

/** Placeholders of a raw case's text. */
export const placeholders = { base: '{{base}}', host: '{{host}}', auth: '{{auth}}' } as const;

/** Fills a raw case's placeholders. */
export function fillRaw(bytes: string, values: { base: string; host: string; auth: string }): string {
  return bytes.replaceAll(placeholders.base, values.base).replaceAll(placeholders.host, values.host).replaceAll(placeholders.auth, values.auth);
}

const crlf = '\r\n';

/** A request's text: start line, `Host`, the given header lines, and the body. */
function request(method: string, target: string, headerLines: readonly string[], body = ''): string {
  return `${method} ${target} HTTP/1.1${crlf}Host: ${placeholders.host}${crlf}${headerLines.map((line) => `${line}${crlf}`).join('')}${crlf}${body}`;
}

/** Paths of harmless requests: reads, and writes to an external id no order carries. */
function goodTargets(externalIds: readonly string[]): fc.Arbitrary<{ method: string; target: string; body: string }> {
  const absent = fc.constantFrom('fuzz-absent-1', 'fuzz-absent-2', ...externalIds);
  return fc.oneof(
    fc.constantFrom('/api/v1/integration/whoami', '/api/v1/integration/orders?limit=2', '/api/v1/integration/trips?limit=1').map((path) => ({ method: 'GET', target: `${placeholders.base}${path}`, body: '' })),
    absent.map((id) => ({ method: 'POST', target: `${placeholders.base}/api/v1/integration/orders/externalid/${encodeURIComponent(id)}/cancel`, body: '{}' })),
    absent.map((id) => ({ method: 'POST', target: `${placeholders.base}/api/v1/integration/orders/externalid/${encodeURIComponent(id)}/payments`, body: '{"paymentId":"fuzz","amount":1,"currency":"EUR"}' })),
  );
}

/** A complete, valid request on `target`; `close` asks the server to close after answering. */
function goodRequest(good: { method: string; target: string; body: string }, close: boolean): string {
  const lines = [placeholders.auth, ...(good.body === '' ? [] : ['Content-Type: application/json', `Content-Length: ${good.body.length}`]), ...(close ? ['Connection: close'] : [])];
  return request(good.method, good.target, lines, good.body);
}

/** Latin-1 text of any bytes. */
const bytes = (maxLength: number) => fc.uint8Array({ maxLength }).map((array) => Buffer.from(array).toString('latin1'));
/** A short token-ish or garbage word. */
const word = fc.oneof(fc.constantFrom('GET', 'get', 'POST', 'G@T', 'PRI', 'HTTP/1.1', '*', '/', ' ', '', '\t', '\u0000', 'é'), fc.string({ maxLength: 8 }).map((text) => Buffer.from(text, 'utf8').toString('latin1')));

/** A bad start line, then a plausible rest of the head. */
const badRequestLine = fc
  .oneof(
    fc.constantFrom('GET', 'GET /', 'GET / HTTP/9.9', 'GET / HTTP/1', 'GET / http/1.1', 'GET  / HTTP/1.1', 'GET /\u0000 HTTP/1.1', 'GET /a b HTTP/1.1', 'GET http://[::1/ HTTP/1.1', 'GET * HTTP/1.1', 'PRI * HTTP/2.0', ' GET / HTTP/1.1', 'GET / HTTP/1.1 extra', 'DELETE{{base}}/api/v1/integration/whoami HTTP/1.1'),
    fc.tuple(word, word, word).map(([method, target, version]) => `${method} ${target} ${version}`),
    fc.tuple(fc.stringMatching(/^[A-Z]{1,12}$/), fc.constantFrom('/api/v1/integration/whoami', '/api/v1/integration/orders', '/sandbox/v1/reset')).map(([method, path]) => `${method} ${placeholders.base}${path} HTTP/1.1`),
  )
  .map((line) => ({ transport: 'raw' as const, kind: 'bad-request-line', bytes: `${line}${crlf}Host: ${placeholders.host}${crlf}Connection: close${crlf}${crlf}`, halfClose: true, unanswerable: false }));

/** A good request with one header line broken. */
function badHeader(externalIds: readonly string[]) {
  const line = fc.oneof(
    fc.constantFrom('NoColon', ' Leading: space', 'Trailing : space', ': no-name', 'X-Fold: a\r\n continued', 'X-Ctl: a\u0001b', 'X-Nul: a\u0000b', 'X-Del: \u007f', 'Naïve: header', 'X-Api-Key:', 'Content-Length: -1', 'Content-Length: 1e3', 'Content-Length: 0x10', 'Content-Length: 99999999999999999999', 'Transfer-Encoding: chunked', 'Transfer-Encoding: gzip', 'Expect: 100-continue', 'Expect: nothing', 'Upgrade: websocket', 'Content-Type: application/json; charset=utf-16', 'Host: two hosts'),
    fc.tuple(fc.string({ maxLength: 12 }), bytes(40)).map(([name, value]) => `${name}: ${value.replace(/\r?\n/g, ' ')}`),
  );
  const lineEnd = fc.constantFrom(crlf, '\n');
  return fc.tuple(goodTargets(externalIds), line, lineEnd).map(([good, broken, end]) => ({
    transport: 'raw' as const,
    kind: 'bad-header',
    bytes: goodRequest(good, true).replace(`Host: ${placeholders.host}${crlf}`, `Host: ${placeholders.host}${crlf}${broken}${end}`),
    halfClose: true,
    unanswerable: false,
  }));
}

/** A good request with a header repeated, the same or another value. */
function duplicateHeader(externalIds: readonly string[]) {
  const pair = fc.constantFrom(
    ['Content-Length: 2', 'Content-Length: 2'],
    ['Content-Length: 2', 'Content-Length: 3'],
    ['Host: a.test', 'Host: b.test'],
    ['Content-Type: application/json', 'Content-Type: text/plain'],
    ['Transfer-Encoding: chunked', 'Content-Length: 2'],
    ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'],
    ['X-Api-Key: wbk_AAAA', 'X-Api-Key: wbk_BBBB'],
    ['Idempotency-Key: a', 'Idempotency-Key: b'],
    ['X-Request-Id: a', 'X-Request-Id: b'],
    ['Authorization: Bearer a', 'Authorization: Bearer b'],
  );
  return fc.tuple(goodTargets(externalIds), pair).map(([good, [first, second]]) => ({
    transport: 'raw' as const,
    kind: 'duplicate-header',
    bytes: goodRequest(good, true).replace(`Host: ${placeholders.host}${crlf}`, `Host: ${placeholders.host}${crlf}${first}${crlf}${second}${crlf}`),
    halfClose: true,
    unanswerable: false,
  }));
}

/** A chunked body framed wrongly. */
function badChunked(externalIds: readonly string[]) {
  const framing = fc.oneof(
    fc.constantFrom('zz\r\n{}\r\n0\r\n\r\n', '2\r\n{}0\r\n\r\n', '-2\r\n{}\r\n0\r\n\r\n', 'ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n', '2;ext="\u0000"\r\n{}\r\n0\r\n\r\n', '2\n{}\n0\n\n', '3\r\n{}\r\n0\r\n\r\n', '2\r\n{}\r\n0\r\nX-Trailer: a\r\n\r\n', '2\r\n{}\r\n', '0\r\n\r\n', ''),
    fc.tuple(fc.nat(40).map((size) => size.toString(16)), bytes(30)).map(([size, data]) => `${size}\r\n${data}\r\n0\r\n\r\n`),
  );
  const encoding = fc.constantFrom('chunked', 'gzip, chunked', 'chunked, gzip', 'identity', 'CHUNKED', 'chunked ', 'x-chunked');
  return fc.tuple(goodTargets(externalIds).filter((good) => good.method === 'POST'), encoding, framing).map(([good, te, body]) => ({
    transport: 'raw' as const,
    kind: 'bad-chunked',
    bytes: request(good.method, good.target, [placeholders.auth, 'Content-Type: application/json', `Transfer-Encoding: ${te}`, 'Connection: close'], body),
    halfClose: true,
    unanswerable: false,
  }));
}

/** A request to any of `targets` (a method and a path under `{{base}}`), as a good request would send it. */
function anyTarget(targets: readonly RequestTarget[]): fc.Arbitrary<RequestTarget> {
  return fc.constantFrom(...targets);
}

/** A head over any sensible size: one long header, many headers, or a long target, to any operation. */
function oversized(targets: readonly RequestTarget[]) {
  return fc.tuple(anyTarget(targets), fc.constantFrom('one-header', 'many-headers', 'long-target'), fc.integer({ min: 8_000, max: 80_000 })).map(([{ method, path }, shape, size]) => {
    const target = `${placeholders.base}${path}`;
    const bytes =
      shape === 'one-header'
        ? request(method, target, [placeholders.auth, `X-Big: ${'a'.repeat(size)}`, 'Connection: close'])
        : shape === 'many-headers'
          ? request(method, target, [placeholders.auth, ...Array.from({ length: Math.floor(size / 12) }, (_, i) => `X-H${i}: v`), 'Connection: close'])
          : request(method, `${target}?x=${'a'.repeat(size)}`, [placeholders.auth, 'Connection: close']);
    return { transport: 'raw' as const, kind: 'oversized-head', bytes, halfClose: true, unanswerable: false };
  });
}

/** A request to any operation with an `Expect` the server may not meet (RFC 9110 §10.1.1), with a small body or none. */
function expectation(targets: readonly RequestTarget[]) {
  const expect = fc.constantFrom('foo', 'nothing', '100-continue', '100-Continue', '200-ok', '', 'foo, 100-continue');
  return fc.tuple(anyTarget(targets), expect, fc.boolean()).map(([{ method, path }, value, withBody]) => ({
    transport: 'raw' as const,
    kind: 'expectation',
    bytes: request(method, `${placeholders.base}${path}`, [placeholders.auth, `Expect: ${value}`, ...(withBody ? ['Content-Type: application/json', 'Content-Length: 2'] : []), 'Connection: close'], withBody ? '{}' : ''),
    halfClose: true,
    unanswerable: false,
  }));
}

/** A request cut short, in its head or its body, after which the client closes its side. */
function truncated(externalIds: readonly string[]) {
  return fc.tuple(goodTargets(externalIds), fc.double({ min: 0.05, max: 0.95, noNaN: true }), fc.boolean()).map(([good, share, inBody]) => {
    const whole = goodRequest({ ...good, method: 'POST', body: good.body || '{}' }, true);
    const headEnd = whole.indexOf(`${crlf}${crlf}`) + 4;
    const at = inBody ? headEnd + Math.floor(share * (whole.length - headEnd)) : Math.max(1, Math.floor(share * headEnd));
    return { transport: 'raw' as const, kind: inBody ? 'truncated-body' : 'truncated-head', bytes: whole.slice(0, Math.min(at, whole.length - 1)), halfClose: true, unanswerable: false };
  });
}

/** A good request on a keep-alive connection followed by garbage, or by a second good request. */
function afterGood(externalIds: readonly string[]) {
  const garbage = fc.oneof(bytes(200).filter((text) => text.replace(/[\r\n]/g, '') !== ''), fc.constantFrom('GARBAGE\r\n\r\n', '\u0000\u0001\u00ff\r\n\r\n', 'GET\r\n\r\n', 'HTTP/1.1 200 OK\r\n\r\n'));
  return fc.oneof(
    fc.tuple(goodTargets(externalIds), garbage).map(([good, rest]) => ({ transport: 'raw' as const, kind: 'garbage-after-good', bytes: `${goodRequest(good, false)}${rest}`, halfClose: true, unanswerable: false })),
    fc.tuple(goodTargets(externalIds), goodTargets(externalIds)).map(([first, second]) => ({ transport: 'raw' as const, kind: 'pipelined', bytes: `${goodRequest(first, false)}${goodRequest(second, true)}`, halfClose: false, unanswerable: false })),
  );
}

/** Random bytes, or nothing but blank lines (which ask for nothing). */
const noise = fc.oneof(
  bytes(300)
    .filter((text) => text.replace(/[\r\n]/g, '') !== '')
    .map((text) => ({ transport: 'raw' as const, kind: 'random-bytes', bytes: text, halfClose: true, unanswerable: false })),
  fc.constantFrom('', '\r\n', '\r\n\r\n').map((text) => ({ transport: 'raw' as const, kind: 'empty', bytes: text, halfClose: true, unanswerable: true })),
);

/** A method and a path (under `{{base}}`, with its parameters filled) of an operation. */
export interface RequestTarget {
  method: string;
  path: string;
}

/**
 * Any byte-level case; `externalIds` are ids that the good requests in them may name, and
 * `targets` the operations that the cases about heads and expectations may be sent to.
 */
export function rawCase(externalIds: readonly string[] = [], targets: readonly RequestTarget[] = DEFAULT_TARGETS): fc.Arbitrary<RawCase> {
  return fc.oneof(badRequestLine, badHeader(externalIds), duplicateHeader(externalIds), badChunked(externalIds), oversized(targets), expectation(targets), truncated(externalIds), afterGood(externalIds), noise);
}

/** The reads of the integration API, when no targets are given. */
const DEFAULT_TARGETS: readonly RequestTarget[] = ['/api/v1/integration/whoami', '/api/v1/integration/orders?limit=1'].map((path) => ({ method: 'GET', path }));
