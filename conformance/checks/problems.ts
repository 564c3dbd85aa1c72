/**
 * Problems: every failed answer of the run is an RFC 9457 problem whose `type` is a catalog code
 * with that code's status (or `about:blank` where D3 and D21 put it).
 */
import { validateSchema } from '../../spec/load.ts';
import { catalogEntryOf, mediaTypeOf, statusesOf } from '../catalog-rules.ts';
import { describeExchange, finding, show } from '../findings.ts';
import type { Check, ExchangeRecord, Finding } from '../types.ts';

/** Statuses answered `about:blank` on any route (D3: 401, 403, 500; D21: 405); 404 only off the contract's routes (D21). */
const aboutBlankStatuses = [401, 403, 405, 500];

/** Ajv errors as one line. */
function errorsText(errors: ReturnType<typeof validateSchema>): string {
  return errors.map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`).join('; ');
}

/** Every way one failed answer breaks the problem rules. */
function problemViolations(exchange: ExchangeRecord): Finding[] {
  const response = exchange.response;
  if (response === null) return [];
  const where = describeExchange(exchange);
  const findings: Finding[] = [];
  const mediaType = mediaTypeOf(response.headers['content-type']);
  if (mediaType !== 'application/problem+json') {
    findings.push(finding(`${where}: a failure that is not a problem body`, 'Content-Type: application/problem+json', response.headers['content-type'] ?? 'no Content-Type', exchange));
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body ?? '');
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    findings.push(finding(`${where}: the problem body is not a JSON object`, 'a JSON object with type, title, status', show(response.body, 200), exchange));
    return findings;
  }
  const problem = body as Record<string, unknown>;
  const type = problem['type'];
  const entry = catalogEntryOf(type);
  if (type === 'about:blank') {
    const allowed = aboutBlankStatuses.includes(response.status) || (response.status === 404 && exchange.operationId === null);
    if (!allowed) {
      findings.push(finding(`${where}: about:blank where the catalog has a code`, `a catalog code for ${response.status} on ${exchange.operationId ?? 'this route'} (about:blank only for 401, 403, 405, 500 and 404 on an unknown route)`, 'type: about:blank', exchange));
    }
  } else if (entry === undefined) {
    findings.push(finding(`${where}: type is not a catalog code`, 'type: a code of spec/errors.yaml, or about:blank', `type: ${show(type)}`, exchange));
  } else if (!statusesOf(entry).includes(response.status)) {
    findings.push(finding(`${where}: ${entry.code} answered with the wrong HTTP status`, `HTTP ${statusesOf(entry).join(' or ')} (the catalog's status for ${entry.code})`, `HTTP ${response.status}`, exchange));
  }
  if (problem['status'] !== response.status) {
    findings.push(finding(`${where}: the problem's status member differs from the HTTP status`, `status: ${response.status}`, `status: ${show(problem['status'])}`, exchange));
  }
  if ('overridable' in problem) {
    findings.push(finding(`${where}: an integration answer carries overridable`, 'no overridable member', `overridable: ${show(problem['overridable'])}`, exchange));
  }
  if (response.status === 400) {
    const { errors: fieldErrors, ...rest } = problem;
    const errors = validateSchema('ValidationProblem', rest);
    if (errors.length > 0) findings.push(finding(`${where}: the 400 body does not match ValidationProblem`, 'type, title, status 400, detail (string or null)', errorsText(errors), exchange));
    if (fieldErrors !== undefined && !Array.isArray(fieldErrors)) {
      findings.push(finding(`${where}: errors is not an array`, 'errors: an array of field errors, or no errors member', `errors: ${show(fieldErrors)}`, exchange));
    }
    for (const [index, fieldError] of (Array.isArray(fieldErrors) ? fieldErrors : []).entries()) {
      const entryErrors = validateSchema('FieldError', fieldError);
      if (entryErrors.length > 0) {
        findings.push(finding(`${where}: errors[${index}] does not match FieldError`, 'field, code, message (strings) and value (string or null)', `${errorsText(entryErrors)} in ${show(fieldError)}`, exchange));
      }
    }
  }
  return findings;
}

/** Run-level: every failed answer is a catalog problem with the code's status. */
export const problemsCatalog: Check = {
  id: 'problems.catalog',
  family: 'problems',
  title: "every failure is application/problem+json with a catalog type, the type's status and a matching body",
  verifies: ['int.errors.problem-json', 'int.errors.catalog-type', 'cat.type-is-code', 'cat.status-fixed', 'int.errors.status-by-kind', 'int.endpoints.error-bodies'],
  requires: [],
  after: 'all',
  async run(ctx) {
    const failures = ctx.exchanges().filter((exchange) => exchange.channel !== 'sandbox' && exchange.response !== null && (exchange.response.status < 200 || exchange.response.status > 299));
    if (failures.length === 0) ctx.skip('no answer outside 2xx was recorded in this run');
    return failures.flatMap(problemViolations);
  },
};

/** The problems family. */
export const problemsChecks: Check[] = [problemsCatalog];
