/**
 * Problems: every failed answer of the run is an RFC 9457 problem whose `type` is a catalog
 * code answered with that code's status (MUST). A 401, 403 or 500 of the integration
 * endpoints may carry `about:blank` instead: their bodies are "not shown", the catalog has no
 * code that reaches them (D24), and `about:blank` is RFC 9457's type that adds nothing to the
 * status. Any other type there is still invented, which the seeds' Errors rule forbids (MUST).
 * That it is `about:blank` rather than a catalog code is D3's (DECISION), as is D21's
 * `about:blank` for paths and methods outside the contract. The members and types of problem
 * bodies are discovery.responses.contract's rule.
 */
import { operations } from '../../spec/load.ts';
import { catalogEntryOf, mediaTypeOf, statusesOf } from '../contract/catalog-rules.ts';
import { describeExchange, finding, show } from '../engine/findings.ts';
import type { Check, CheckContext, Finding } from '../engine/types/check.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import { isProtocolStatus } from './support/expectation.ts';

/** Statuses whose problem `type` may be `about:blank` on the integration endpoints (their bodies are not shown, no catalog code reaches them). */
const openTypeStatuses = [401, 403, 500];

/** RFC 9457 §4.2.1: the type of a problem with no meaning beyond its HTTP status. */
const ABOUT_BLANK = 'about:blank';

/** Each contract operation's method and a pattern matching the end of its paths. */
const contractRoutes = [...operations.values()].map((operation) => ({
  operationId: operation.operationId,
  method: operation.method,
  pattern: new RegExp(`${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/**
 * The contract operation `exchange` addressed, by method and path whatever the origin (a
 * request some check sent past a proxy, straight to the implementation, is still one), or
 * null; `anyMethod` matches the path alone.
 */
function operationOf(exchange: ExchangeRecord, anyMethod = false): string | null {
  if (exchange.operationId !== null) return exchange.operationId;
  const { pathname } = new URL(exchange.request.url);
  const method = exchange.request.method.toUpperCase();
  return contractRoutes.find((route) => (anyMethod || route.method === method) && route.pattern.test(pathname))?.operationId ?? null;
}

/** The problem body of `exchange`'s answer, or undefined when it is not a JSON object. */
function problemOf(exchange: ExchangeRecord): Record<string, unknown> | undefined {
  try {
    const body: unknown = JSON.parse(exchange.response?.body ?? '');
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the seeds allow as this failure's `type`: on a contract operation a catalog code, or for
 * a 401, 403 or 500 also `about:blank`; off the contract's operations, null (D21 decides those),
 * as for HTTP's own answers (a 417 to an Expect no operation meets: support/expectation.ts).
 */
function typeRuleOf(exchange: ExchangeRecord): 'catalog' | 'catalog-or-blank' | null {
  if (operationOf(exchange) === null || isProtocolStatus(exchange.response!.status)) return null;
  return openTypeStatuses.includes(exchange.response!.status) ? 'catalog-or-blank' : 'catalog';
}

/** Every way one failed answer breaks the seeds' problem rules. */
function problemViolations(exchange: ExchangeRecord): Finding[] {
  const response = exchange.response!;
  const where = describeExchange(exchange);
  const findings: Finding[] = [];
  const mediaType = mediaTypeOf(response.headers['content-type']);
  if (mediaType !== 'application/problem+json') {
    findings.push(finding(`${where}: a failure that is not a problem body`, 'Content-Type: application/problem+json', response.headers['content-type'] ?? 'no Content-Type', exchange, 'serve every failure with Content-Type: application/problem+json (int.errors.problem-json)'));
  }
  const problem = problemOf(exchange);
  if (problem === undefined) {
    findings.push(finding(`${where}: the problem body is not a JSON object`, 'a JSON object (RFC 9457)', show(response.body, 200), exchange, "write every failure's body as an RFC 9457 problem, a JSON object (int.errors.problem-json)"));
    return findings;
  }
  const type = problem['type'];
  const entry = catalogEntryOf(type);
  if (entry !== undefined && !statusesOf(entry).includes(response.status)) {
    const fix = `answer ${entry.code} with HTTP ${statusesOf(entry).join(' or ')}, the status the catalog fixes for it (cat.status-fixed)`;
    findings.push(finding(`${where}: ${entry.code} answered with the wrong HTTP status`, `HTTP ${statusesOf(entry).join(' or ')} (the catalog's status for ${entry.code})`, `HTTP ${response.status}`, exchange, fix));
  } else if (entry === undefined) {
    const rule = typeRuleOf(exchange);
    if (rule === 'catalog') findings.push(finding(`${where}: type is not a catalog code`, `type: a code of the error catalog (a ${response.status} of ${operationOf(exchange)})`, `type: ${show(type)}`, exchange, "put the catalog code of the error in the problem's type, as spec/errors.yaml spells it (int.errors.catalog-type, cat.type-is-code)"));
    if (rule === 'catalog-or-blank' && type !== ABOUT_BLANK) {
      findings.push(finding(`${where}: type is neither a catalog code nor about:blank`, `type: a code of the error catalog, or about:blank (a ${response.status} of ${operationOf(exchange)}, whose body the seeds do not show)`, `type: ${show(type)}`, exchange, "type such a failure with its catalog code, or about:blank where the catalog has none: never a type of the server's own (int.errors.catalog-type, cat.type-is-code)"));
    }
  }
  const status = problem['status'];
  // RFC 9457 §3.1.2: the status member, when there is one, is the HTTP status (the seeds let it be null).
  if (status !== undefined && status !== null && status !== response.status) {
    findings.push(finding(`${where}: the problem's status member differs from the HTTP status`, `status: ${response.status}`, `status: ${show(status)}`, exchange, "set the problem's status member to the answer's HTTP status, or leave it null (int.errors.other-bodies, int.errors.validation-status)"));
  }
  return findings;
}

/** Every failed answer of the run outside the control plane; skips the check when there is none. */
function failures(ctx: CheckContext): ExchangeRecord[] {
  const failed = ctx.exchanges().filter((exchange) => exchange.channel !== 'sandbox' && exchange.response !== null && (exchange.response.status < 200 || exchange.response.status > 299));
  if (failed.length === 0) ctx.skip('no answer outside 2xx was recorded in this run');
  return failed;
}

/** Run-level: every failure is problem+json; where the seeds tie its type to the catalog, a catalog code with the code's status. */
export const problemsCatalog: Check = {
  id: 'problems.catalog',
  family: 'problems',
  title: "every failure is application/problem+json; its type is a catalog code answered with the code's status (a 401, 403 or 500 may say about:blank)",
  // It also holds the body's `status` member to the answer's status: the rows of the 400 body and of the others.
  verifies: ['int.errors.problem-json', 'int.errors.catalog-type', 'cat.type-is-code', 'cat.status-fixed', 'int.errors.status-by-kind', 'int.endpoints.error-bodies', 'int.errors.validation-status', 'int.errors.other-bodies'],
  fix: 'answer every failure as application/problem+json whose type is the catalog code of the error, with the HTTP status the catalog gives that code and the same status in the body (int.errors.problem-json, int.errors.catalog-type, cat.status-fixed)',
  requires: [],
  after: 'all',
  async run(ctx) {
    return failures(ctx).flatMap(problemViolations);
  },
};

/** The decision that sets a failure's type to about:blank, if any: D3 for 401, 403, 500; D21 for 405 and a 404 off the contract's routes. */
function blankBy(exchange: ExchangeRecord): 'D3' | 'D21' | null {
  const status = exchange.response!.status;
  if (openTypeStatuses.includes(status)) return 'D3';
  if (status === 405 || (status === 404 && operationOf(exchange, true) === null)) return 'D21';
  return null;
}

/** Run-level: the failures whose type the seeds leave open are about:blank (D3: 401, 403, 500; D21: 405, unknown paths). */
export const problemsBlank: Check = {
  id: 'problems.blank',
  family: 'problems',
  title: 'a 401, 403, 500, 405 or unknown-path 404 is an about:blank problem',
  verifies: ['D3', 'D21'],
  fix: 'answer a 401, 403 or 500, and a 405 or a 404 for a path that is no operation, as a problem of type about:blank (D3, D21)',
  requires: [],
  after: 'all',
  async run(ctx) {
    return failures(ctx).flatMap((exchange) => {
      const decision = blankBy(exchange);
      const type = problemOf(exchange)?.['type'];
      if (decision === null || type === ABOUT_BLANK) return [];
      const fix = `type a ${exchange.response!.status}${decision === 'D21' ? " off the contract's operations" : ''} about:blank, the type that adds nothing to its status (${decision})`;
      return [finding(`${describeExchange(exchange)}: not an about:blank problem`, `type: about:blank (${decision})`, `type: ${show(type)}`, exchange, fix)];
    });
  },
};

/** The problems family. */
export const problemsChecks: Check[] = [problemsCatalog, problemsBlank];
