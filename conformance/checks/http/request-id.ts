/**
 * HTTP, the request id: every answer carries its own `X-Request-Id`, echoes a usable one the
 * client sent and replaces an unusable one, and a problem's `instance` names it (D23).
 */
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../../engine/types/check.ts';
import type { HttpRequest } from '../../engine/types/exchange.ts';
import { absentExternalId, objectOf, paths, paymentBody, received } from '../support/order-requests.ts';

/** Answers of several kinds, to look at their request ids: a 200, a 401, a 404 on an order, a 404 on a path. */
function requestIdProbes(ctx: CheckContext): [HttpRequest, string][] {
  return [
    [{ method: 'GET', path: paths.whoami }, 'whoami'],
    [{ method: 'GET', path: paths.whoami, key: null }, 'whoami without a key'],
    [{ method: 'POST', path: paths.payment(absentExternalId(ctx)), body: paymentBody() }, 'a payment on an absent order'],
    [{ method: 'GET', path: '/api/v1/integration/waybill-no-such-operation' }, 'a path with no operation'],
  ];
}

/** Every answer carries its own X-Request-Id (D23). */
export const requestIdPresent: Check = {
  id: 'http.requestId.present',
  family: 'http',
  title: 'every answer (success or failure) carries its own X-Request-Id',
  verifies: ['D23'],
  fix: 'give every answer, success or failure, 401 included, an X-Request-Id of its own (D23)',
  requires: [],
  async run(ctx) {
    const findings: Finding[] = [];
    const seen = new Map<string, string>();
    for (const [probe, what] of requestIdProbes(ctx)) {
      const response = await ctx.http.request(probe);
      const id = response.headers['x-request-id'];
      if (id === undefined || id.trim() === '') {
        findings.push(finding(`${what}: ${describeExchange(response.exchange)}: no request id`, 'an X-Request-Id header', 'no X-Request-Id header', response.exchange));
      } else if (seen.has(id)) {
        findings.push(finding(`${what}: ${describeExchange(response.exchange)}: the request id of another answer`, `an X-Request-Id other than that of ${seen.get(id)}`, `X-Request-Id: ${id}`, response.exchange, "make each answer's X-Request-Id new, never one given to another answer (D23)"));
      } else seen.set(id, what);
    }
    return findings;
  },
};

/** A client's X-Request-Id is echoed (D23). */
export const requestIdEcho: Check = {
  id: 'http.requestId.echo',
  family: 'http',
  title: "the client's X-Request-Id is echoed on success and failure",
  verifies: ['D23'],
  fix: "echo the client's X-Request-Id on the answer, success or failure, when it is 1 to 128 visible ASCII characters (D23)",
  requires: [],
  async run(ctx) {
    const findings: Finding[] = [];
    for (const [probe, what] of requestIdProbes(ctx)) {
      const sent = `waybill-${Math.floor(ctx.random() * 2 ** 48).toString(36)}`;
      const response = await ctx.http.request({ ...probe, headers: { 'X-Request-Id': sent } });
      const id = response.headers['x-request-id'];
      if (id !== sent) findings.push(finding(`${what} sent with X-Request-Id ${sent}: ${describeExchange(response.exchange)}`, `X-Request-Id: ${sent}`, id === undefined ? 'no X-Request-Id header' : `X-Request-Id: ${id}`, response.exchange));
    }
    return findings;
  },
};

/** A client X-Request-Id that is not 1–128 visible ASCII characters is replaced, never echoed or refused (D29). */
export const requestIdUnusable: Check = {
  id: 'http.requestId.unusable',
  family: 'http',
  title: 'an X-Request-Id that is not 1–128 visible ASCII characters (129 characters, a space) is replaced by an id of the server, not echoed or refused',
  verifies: ['D23'],
  fix: "replace an X-Request-Id that is not 1 to 128 visible ASCII characters by an id of the server's, neither echoing it nor refusing the request (D23)",
  requires: [],
  async run(ctx) {
    const token = () => Math.floor(ctx.random() * 2 ** 48).toString(36);
    const long = `waybill-${token()}-`;
    const unusable: [string, string][] = [
      ['an X-Request-Id of 129 characters', `${long}${'x'.repeat(129 - long.length)}`],
      ['an X-Request-Id with a space', `waybill ${token()}`],
    ];
    const findings: Finding[] = [];
    for (const [what, sent] of unusable) {
      const response = await ctx.http.request({ method: 'GET', path: paths.whoami, headers: { 'X-Request-Id': sent } });
      const where = `whoami sent with ${what}: ${describeExchange(response.exchange)}`;
      const id = response.headers['x-request-id'];
      if (response.status !== 200) findings.push(finding(`${where}: the request was refused over its request id`, '200 with an X-Request-Id of the server', received(response), response.exchange, 'serve a request whatever its X-Request-Id: an unusable one is replaced, never a reason to refuse (D23)'));
      else if (id === undefined || id.trim() === '') findings.push(finding(`${where}: no request id`, 'an X-Request-Id of the server', 'no X-Request-Id header', response.exchange));
      else if (id === sent) findings.push(finding(`${where}: the unusable id was echoed`, `an X-Request-Id other than ${show(sent)}`, `X-Request-Id: ${id}`, response.exchange));
    }
    return findings;
  },
};

/** A problem's instance names its request id (D23). */
export const problemInstance: Check = {
  id: 'http.problem.instance',
  family: 'http',
  title: "a problem's instance contains the answer's request id",
  verifies: ['D23'],
  fix: "write the answer's request id into every problem's instance, as the request path with the id (D23)",
  requires: [],
  async run(ctx) {
    const findings: Finding[] = [];
    const probes = requestIdProbes(ctx).slice(1);
    let problems = 0;
    for (const [index, [probe, what]] of probes.entries()) {
      // Half the probes send their own id, half leave it to the target.
      const headers: Record<string, string> = index % 2 === 0 ? { 'X-Request-Id': `waybill-${Math.floor(ctx.random() * 2 ** 48).toString(36)}` } : {};
      const response = await ctx.http.request({ ...probe, headers });
      const id = response.headers['x-request-id'];
      // Whether there is a request id at all is http.requestId.present's rule.
      if (response.status < 400 || id === undefined) continue;
      problems += 1;
      const instance = objectOf(response)?.['instance'];
      if (typeof instance !== 'string' || !instance.includes(id)) {
        findings.push(finding(`${what}: ${describeExchange(response.exchange)}: the instance does not name the request`, `instance containing ${id} (e.g. ${new URL(response.exchange.request.url).pathname}#${id})`, `instance ${show(instance)}`, response.exchange));
      }
    }
    if (problems === 0) return ctx.skip('no failed answer with an X-Request-Id came back (see http.requestId.present)');
    return findings;
  },
};

/** The request-id checks, in the order they run. */
export const requestIdChecks: Check[] = [requestIdPresent, requestIdEcho, requestIdUnusable, problemInstance];
