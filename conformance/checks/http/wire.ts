/**
 * Answers given before any operation (D60), as a client sees them on the wire: an `Expect` the
 * target cannot meet is 417, a request that cannot be read as HTTP/1.1 is 400 and one whose head
 * is cut short 408, both closing the connection, and answers to requests pipelined on one
 * connection come back in order, a bad request's 400 after the answers before it, even when the
 * client has half-closed. Hand-written bytes over raw sockets: fetch sends none of these. What
 * D60 says of the server's own closing (it reads and drops what still comes, for 5 seconds) is
 * not judged: a client sees it only as answers lost to a reset, and only now and then.
 * Writes go to an external id no order carries, so nothing changes whatever the target does.
 */
import { ExchangeError } from '../../transport/exchange.ts';
import { describeExchange, finding } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { RawResponse } from '../../engine/types/exchange.ts';
import { aboutBlankFindings, absentExternalId, expectProblem, objectOf, paths, paymentBody, received } from '../support/order-requests.ts';

/** An expectation no server meets: any `Expect` but `100-continue` is 417 (D60). */
const UNMET_EXPECTATION = 'waybill-unmet';
/** Bytes no HTTP/1.1 server can read as a request: its version is no `HTTP/x.y`. */
const UNREADABLE = 'this is not http\r\n\r\n';

/** Raw HTTP/1.1 request bytes for `path` under the target, with the full key; `body` goes as JSON with its length. */
function rawRequest(ctx: CheckContext, method: string, path: string, options: { headers?: string[]; body?: string; host?: boolean } = {}): string {
  const base = new URL(ctx.target);
  const lines = [`${method} ${base.pathname.replace(/\/+$/, '')}${path} HTTP/1.1`, ...(options.host === false ? [] : [`Host: ${base.host}`]), ctx.authHeader('full'), ...(options.headers ?? [])];
  if (options.body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(options.body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${options.body ?? ''}`;
}

/** True when an answer says the connection closes after it. */
function saysClose(response: RawResponse): boolean {
  return (response.headers['connection'] ?? '').split(',').some((option) => option.trim().toLowerCase() === 'close');
}

/** The answer to raw `bytes`, or a finding when none came. */
async function rawAnswer(ctx: CheckContext, bytes: string, what: string, halfClose = false): Promise<RawResponse | Finding> {
  try {
    return await ctx.raw(bytes, { halfClose });
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    return finding(`${what}: no answer`, 'an HTTP answer', error.message, error.exchange);
  }
}

/** An Expect other than 100-continue, on every operation: 417 about:blank; 100-continue is met (D60). */
export const expectUnmet: Check = {
  id: 'http.expect.unmet',
  family: 'http',
  title: `a request of each operation with Expect: ${UNMET_EXPECTATION} is answered 417 as an about:blank problem; Expect: 100-continue is met`,
  verifies: ['D60'],
  fix: 'answer an Expect other than 100-continue with 417 as an about:blank problem before reading the request, and meet Expect: 100-continue (D60)',
  requires: [],
  async run(ctx) {
    const externalId = absentExternalId(ctx);
    const expect = [`Expect: ${UNMET_EXPECTATION}`];
    const probes: [string, string][] = [
      ['orderFeed', rawRequest(ctx, 'GET', `${paths.orderFeed}?limit=1`, { headers: expect })],
      ['tripFeed', rawRequest(ctx, 'GET', `${paths.tripFeed}?limit=1`, { headers: expect })],
      ['attachPayment', rawRequest(ctx, 'POST', paths.payment(externalId), { headers: expect, body: JSON.stringify(paymentBody()) })],
      ['cancelOrder', rawRequest(ctx, 'POST', paths.cancel(externalId), { headers: expect, body: JSON.stringify({ reason: 'waybill conformance' }) })],
      ['archiveOrder', rawRequest(ctx, 'DELETE', paths.archive(externalId), { headers: expect })],
      ['whoami', rawRequest(ctx, 'GET', paths.whoami, { headers: expect })],
    ];
    const findings: Finding[] = [];
    for (const [operation, bytes] of probes) {
      const what = `${operation} with Expect: ${UNMET_EXPECTATION}`;
      const response = await rawAnswer(ctx, bytes, what);
      if (!('status' in response)) findings.push(response);
      else if (response.status !== 417) findings.push(finding(`${what}: ${describeExchange(response.exchange)}`, '417 (the expectation cannot be met)', received(response), response.exchange));
      else findings.push(...aboutBlankFindings(response, what));
    }
    const what = 'whoami with Expect: 100-continue';
    const met = await rawAnswer(ctx, rawRequest(ctx, 'GET', paths.whoami, { headers: ['Expect: 100-continue'] }), what);
    if (!('status' in met)) findings.push(met);
    else if (met.status === 417) findings.push(finding(`${what}: ${describeExchange(met.exchange)}`, 'served as without Expect (200 here; a 100 Continue before it is fine)', received(met), met.exchange));
    return findings;
  },
};

/** What each answer of the pipeline should be, in order. */
const PIPELINE: { describe: string; is: (response: RawResponse) => boolean }[] = [
  { describe: 'whoami: 200 with keyId', is: (response) => response.status === 200 && typeof objectOf(response)?.['keyId'] === 'string' },
  { describe: 'the order feed: 200 with items', is: (response) => response.status === 200 && Array.isArray(objectOf(response)?.['items']) },
  { describe: '400 api.malformed_request', is: (response) => response.status === 400 && objectOf(response)?.['type'] === 'api.malformed_request' },
];

/** Requests pipelined on one connection, the last unreadable, then a half-close: every answer, in order, then the close (D60). */
export const pipelineOrder: Check = {
  id: 'http.pipeline.order',
  family: 'http',
  title: 'whoami, an order feed page and an unreadable request pipelined on one connection, then a half-close, are answered in that order (200, 200, 400 api.malformed_request), then the connection closes',
  verifies: ['D60'],
  fix: 'answer pipelined requests one by one in the order they came, an unreadable one included, then close the connection once the client has half-closed it (D60)',
  requires: [],
  async run(ctx) {
    const requests = [rawRequest(ctx, 'GET', paths.whoami), rawRequest(ctx, 'GET', `${paths.orderFeed}?limit=1`), UNREADABLE];
    const { answers, exchanges, end } = await ctx.rawPipeline(requests, { halfClose: true });
    const expected = PIPELINE.map((answer) => answer.describe).join(', ');
    // A key out of its quota, or a target out of breath, answers either read alike: no order to judge.
    const busy = answers.slice(0, PIPELINE.length - 1).find((answer) => answer.status === 429 || answer.status === 503);
    if (busy !== undefined) return ctx.skip(`a read of the pipeline was answered ${busy.status}, so which answer is whose cannot be told (see the ratelimit family)`);
    const findings: Finding[] = [];
    for (const [index, answer] of answers.slice(0, PIPELINE.length).entries()) {
      const wanted = PIPELINE[index]!;
      if (!wanted.is(answer)) {
        findings.push(finding(`answer ${index + 1} of ${PIPELINE.length} on the connection: ${describeExchange(answer.exchange)}`, `${wanted.describe} (the answers in the order of the requests: ${expected})`, received(answer), answer.exchange));
      }
      // A target may close after any answer, saying so (RFC 9112 §9.6): the requests behind it are
      // left unanswered, to be sent again, and what it writes after is no answer to them.
      if (saysClose(answer) && index < PIPELINE.length - 1) {
        return findings.length > 0 ? findings : ctx.skip(`the target closes the connection after answer ${index + 1} (Connection: close), so no pipeline could be judged`);
      }
    }
    const seen = answers.map((answer) => answer.status).join(', ') || 'none';
    if (answers.length < PIPELINE.length) {
      findings.push(finding(`${PIPELINE.length} requests pipelined, then a half-close: ${answers.length} answered before the connection ${end === 'timeout' ? 'went silent' : 'closed'}`, `${PIPELINE.length} answers: ${expected}`, `answers ${seen}; ${end === 'timeout' ? `no more within ${ctx.timeoutMs} ms` : end === 'partial' ? 'the connection closed in the middle of an answer' : 'the connection closed'}`, exchanges[answers.length]));
    } else if (end !== 'closed') {
      findings.push(finding(`after the 400 to the unreadable request: the connection ${end === 'timeout' ? 'stayed open' : 'closed in the middle of another answer'}`, 'the connection closed after the 400', end === 'timeout' ? `still open after ${ctx.timeoutMs} ms` : `answers ${seen}, then part of another`, answers.at(-1)?.exchange));
    }
    return findings;
  },
};

/** A request without Host and one whose head is cut short: 400 and 408, each closing the connection (D60). */
export const headUnreadable: Check = {
  id: 'http.head.unreadable',
  family: 'http',
  title: 'an HTTP/1.1 request without Host is answered 400 api.malformed_request, and a head cut short by a half-close 408 api.request_body_incomplete, both with Connection: close',
  verifies: ['D60'],
  fix: 'answer an HTTP/1.1 request without Host with 400 api.malformed_request, a head cut short with 408 api.request_body_incomplete, both with Connection: close (D60)',
  requires: [],
  async run(ctx) {
    const probes = [
      { what: 'whoami without Host', bytes: rawRequest(ctx, 'GET', paths.whoami, { host: false }), halfClose: false, status: 400, type: 'api.malformed_request' },
      // The head stops before its empty line; the half-close says nothing more is coming.
      { what: 'whoami whose head stops before its end, then a half-close', bytes: rawRequest(ctx, 'GET', paths.whoami, { headers: ['X-Waybill: cut'] }).slice(0, -4), halfClose: true, status: 408, type: 'api.request_body_incomplete' },
    ];
    const findings: Finding[] = [];
    for (const probe of probes) {
      const response = await rawAnswer(ctx, probe.bytes, probe.what, probe.halfClose);
      if (!('status' in response)) {
        findings.push(response);
        continue;
      }
      const refused = expectProblem(response, { status: probe.status, type: probe.type }, probe.what);
      findings.push(...refused);
      if (refused.length === 0 && !saysClose(response)) {
        const connection = response.headers['connection'];
        findings.push(finding(`${probe.what}: ${describeExchange(response.exchange)}: the connection is kept`, 'Connection: close', connection === undefined ? 'no Connection header' : `Connection: ${connection}`, response.exchange));
      }
    }
    return findings;
  },
};

/** The checks of D60, in the order they run. */
export const wireChecks: Check[] = [expectUnmet, pipelineOrder, headUnreadable];
