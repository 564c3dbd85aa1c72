/**
 * Broken variants, the errors: problem bodies that break the catalog or RFC 9457, and
 * authentication that lets the wrong request through or refuses it with the wrong answer.
 */
import type { BrokenVariant } from './harness.ts';
import { editProblems, is, restatus, setHeader, typeOf, withKey } from './rewrites.ts';

type JsonObject = Record<string, unknown>;

/** Problem bodies and authentication. */
export const brokenErrors: Record<string, BrokenVariant> = {
  // ── Problem bodies ──────────────────────────────────────────────────────────────────────
  'a 400 without title': { breaks: ['int.errors.validation-title'], fails: ['discovery.responses.contract'], proxy: () => editProblems({ status: 400 }, ({ title: _gone, ...problem }) => problem) },
  'a 400 whose status is text': { breaks: ['int.errors.validation-status'], fails: ['discovery.responses.contract', 'problems.catalog'], proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, status: '400' })) },
  'a 400 without detail': { breaks: ['int.errors.validation-detail'], fails: ['discovery.responses.contract'], proxy: () => editProblems({ status: 400 }, ({ detail: _gone, ...problem }) => problem) },
  'a 400 with errors as an object': {
    breaks: ['int.errors.validation-errors', 'cat.validation-errors'],
    fails: ['discovery.responses.contract', 'feeds.orders.cursor.unissued', 'feeds.orders.limit.invalid', 'feeds.orders.since.invalid', 'feeds.orders.status.unknown-field', 'feeds.trips.cursor.unissued', 'feeds.trips.limit.invalid', 'feeds.trips.since.invalid', 'feeds.trips.status.unknown-field', 'http.body.depth', 'idempotency.key.format', 'idempotency.reuse', 'writes.body.unknownFields', 'writes.payment.amount.notNumber', 'writes.payment.amount.notPositive', 'writes.payment.currency.invalid', 'writes.payment.currency.notIso', 'writes.payment.required'],
    proxy: () => editProblems({ status: 400 }, (problem) => (Array.isArray(problem['errors']) ? { ...problem, errors: Object.fromEntries((problem['errors'] as { field: string }[]).map((error) => [error.field, error])) } : problem)),
  },
  'a 400 with overridable': { breaks: ['int.errors.no-overridable'], fails: ['discovery.responses.contract'], proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, overridable: false })) },
  'field errors without code': {
    breaks: ['int.errors.field-error-code'],
    fails: ['discovery.responses.contract'],
    proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, ...(Array.isArray(problem['errors']) ? { errors: (problem['errors'] as JsonObject[]).map(({ code: _gone, ...error }) => error) } : {}) })),
  },
  'field errors without value': {
    breaks: ['int.errors.field-error-value'],
    fails: ['discovery.responses.contract'],
    proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, ...(Array.isArray(problem['errors']) ? { errors: (problem['errors'] as JsonObject[]).map(({ value: _gone, ...error }) => error) } : {}) })),
  },
  'field errors whose message is a number': {
    breaks: ['int.errors.field-error-message'],
    fails: ['discovery.responses.contract'],
    proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, ...(Array.isArray(problem['errors']) ? { errors: (problem['errors'] as JsonObject[]).map((error) => ({ ...error, message: 1 })) } : {}) })),
  },
  'field errors without field': {
    breaks: ['int.errors.field-error', 'cat.validation-errors'],
    fails: ['discovery.responses.contract', 'feeds.orders.cursor.unissued', 'feeds.orders.limit.invalid', 'feeds.orders.since.invalid', 'feeds.orders.status.unknown-field', 'feeds.trips.cursor.unissued', 'feeds.trips.limit.invalid', 'feeds.trips.since.invalid', 'feeds.trips.status.unknown-field', 'http.body.depth', 'idempotency.key.format', 'idempotency.reuse', 'writes.body.unknownFields', 'writes.payment.amount.notNumber', 'writes.payment.amount.notPositive', 'writes.payment.currency.invalid', 'writes.payment.currency.notIso', 'writes.payment.required'],
    proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, ...(Array.isArray(problem['errors']) ? { errors: (problem['errors'] as JsonObject[]).map(({ field: _gone, ...error }) => error) } : {}) })),
  },
  'a 404 whose status is text': { breaks: ['int.errors.other-bodies'], fails: ['discovery.responses.contract', 'http.route.unknown', 'problems.catalog'], proxy: () => editProblems({ status: 404 }, (problem) => ({ ...problem, status: '404' })) },
  'a 400 whose type is a number': {
    breaks: ['int.errors.validation-body', 'int.errors.catalog-type', 'cat.type-is-code'],
    fails: ['discovery.responses.contract', 'feeds.trips.cursor.unissued', 'feeds.trips.limit.invalid', 'feeds.trips.since.invalid', 'feeds.trips.status.unknown-field', 'problems.catalog'],
    proxy: () => editProblems({ status: 400, where: is.tripFeed }, (problem) => ({ ...problem, type: 400 })),
  },
  'errors as plain JSON, not problem+json': {
    breaks: ['int.errors.problem-json', 'int.endpoints.error-bodies', 'int.service.json'],
    fails: ['auth.problem.forbidden', 'auth.problem.unauthorized', 'discovery.responses.contract', 'http.method.notAllowed', 'http.route.unknown', 'problems.catalog', 'sandbox.tenant.archived'],
    proxy: () => setHeader('content-type', () => 'application/json', (request, answer) => is.integration(request) && answer.headers['content-type']?.startsWith('application/problem+json') === true),
  },
  'a type that is not in the catalog': {
    breaks: ['int.errors.catalog-type', 'cat.type-is-code', 'cat.orders.not-found'],
    fails: ['auth.tenant.writes', 'problems.catalog', 'writes.archive.gone', 'writes.notFound'],
    proxy: () => editProblems({ type: 'orders.notFound' }, (problem) => ({ ...problem, type: 'order_not_found' })),
  },
  // "Bodies of 401 and 403 responses: not shown" leaves their members open, not the rule that a type is a catalog code (or about:blank).
  'a 401 whose type is an invented code': {
    breaks: ['int.errors.catalog-type', 'cat.type-is-code'],
    fails: ['auth.problem.unauthorized', 'problems.blank', 'problems.catalog'],
    proxy: () => editProblems({ status: 401 }, (problem) => ({ ...problem, type: 'auth.unauthorized' })),
  },
  'a wrong status for a catalog code': {
    breaks: ['cat.status-fixed', 'int.errors.status-by-kind', 'int.endpoints.error-bodies', 'cat.orders.not-found', 'int.payment.not-found', 'int.archive.not-found', 'int.cancel.not-found'],
    fails: ['auth.tenant.writes', 'discovery.responses.contract', 'problems.catalog', 'writes.archive.gone', 'writes.cancel.notFound', 'writes.notFound'],
    proxy: () => restatus((request, answer) => is.integration(request) && typeOf(answer) === 'orders.notFound', 410),
  },

  // ── Authentication ──────────────────────────────────────────────────────────────────────
  'a request without a key served as the full key': {
    breaks: ['int.auth.unauthenticated'],
    fails: ['acceptance.refused', 'auth.key.missing'],
    proxy: (profile) => ({ request: (request) => (is.integration(request) && request.headers['x-api-key'] === undefined && request.headers['authorization'] === undefined ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },
  'a revoked key accepted': {
    breaks: ['int.auth.revoked'],
    fails: ['auth.key.revoked'],
    proxy: (profile) => ({ request: (request) => (withKey(profile.keys.revoked)(request) ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },
  'the trip feed without its scope': {
    breaks: ['int.auth.scope', 'int.trips-feed.scope'],
    fails: ['auth.scope.feeds'],
    proxy: (profile) => ({ request: (request) => (is.tripFeed(request) && (withKey(profile.keys.ordersRead)(request) || withKey(profile.keys.noScopes)(request)) ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },
  'the order feed without its scope': {
    breaks: ['int.auth.scope', 'int.orders-feed.scope'],
    fails: ['auth.scope.feeds'],
    proxy: (profile) => ({ request: (request) => (is.orderFeed(request) && (withKey(profile.keys.tripsRead)(request) || withKey(profile.keys.noScopes)(request)) ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },
};
