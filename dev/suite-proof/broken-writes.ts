/**
 * Broken variants, the requests that change things: payments, cancels and archives, request
 * bodies and media types, 429 answers, and an archived tenant's writes.
 */
import { changedPrincipal } from '../testing/sandbox.ts';
import { answerJson } from '../testing/conformance/proxy.ts';
import { type BrokenVariant, restatusAnswer } from './harness.ts';
import { acceptInstead, dropHeader, editJson, editProblems, firstFieldError, is, orderFeedOver, pathOf, problemAnswer, restatus, setHeader, typeOf, withJson, withKey } from './rewrites.ts';

type JsonObject = Record<string, unknown>;

/** Writes, bodies and media types, 429s, the tenant life cycle. */
export const brokenWrites: Record<string, BrokenVariant> = {
  // ── Writes ──────────────────────────────────────────────────────────────────────────────
  'a payment answered with an empty object': { breaks: ['int.payment.response', 'int.order.all-present'], fails: ['discovery.responses.contract', 'idempotency.tenant-scoped', 'writes.payment.recordedOnce', 'writes.payment.success'], proxy: () => editJson((request, answer) => answer.status === 200 && is.payment(request), () => ({})) },
  'a non-positive amount refused with another code': {
    breaks: ['int.payment.amount-invalid'],
    fails: ['writes.payment.amount.notPositive'],
    proxy: () => editProblems({ type: 'payments.amount.invalid', where: is.payment }, (problem, answer) => (['0', '-1'].includes(String(firstFieldError(answer)?.value)) ? { ...problem, type: 'api.malformed_request' } : problem)),
  },
  'a currency of the wrong shape refused with another code': {
    breaks: ['int.payment.currency-invalid'],
    fails: ['writes.payment.currency.invalid'],
    proxy: () => editProblems({ type: 'payments.currency.invalid', where: is.payment }, (problem, answer) => (String(firstFieldError(answer)?.value).length !== 3 || /[a-z]/.test(String(firstFieldError(answer)?.value)) ? { ...problem, type: 'api.malformed_request' } : problem)),
  },
  'a currency that is not ISO 4217 accepted': { breaks: ['int.payment.currency'], fails: ['writes.payment.currency.notIso'], proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.value === 'ABC') },
  'a payment without a required member accepted': {
    breaks: ['int.payment.body'],
    fails: ['acceptance.refused', 'writes.payment.required'],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && answer.status === 400 && /required|missing/i.test(String((answerJson(answer) as { errors?: { message?: string }[] } | undefined)?.errors?.[0]?.message))),
  },
  'a paymentId that is not a uuid accepted': {
    breaks: ['int.payment.paymentId-format'],
    fails: ['acceptance.refused.should', 'writes.payment.paymentId.format'],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.field === 'paymentId' && firstFieldError(answer)?.value === 'not-a-uuid'),
  },
  'a textual amount coerced to a number': {
    breaks: ['int.payment.amount'],
    fails: ['writes.payment.amount.notNumber', 'writes.payment.amount.type'],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.field === 'amount' && String(firstFieldError(answer)?.value) === '12'),
  },
  'a numeric paymentId accepted': {
    // Any paymentId the reference refuses but as missing or as the one word: numbers and near-miss uuids too.
    breaks: ['int.payment.paymentId', 'cat.api.malformed-request', 'int.payment.paymentId-format'],
    fails: ['acceptance.refused', 'acceptance.refused.should', 'writes.payment.required'],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.field === 'paymentId' && answer.status === 400 && firstFieldError(answer)?.value !== 'not-a-uuid' && !/required|missing/i.test(String((answerJson(answer) as { errors?: { message?: string }[] } | undefined)?.errors?.[0]?.message))),
  },
  'a payment for an unknown order accepted': { breaks: ['int.payment.not-found', 'cat.orders.not-found'], fails: ['auth.tenant.writes', 'writes.archive.gone', 'writes.notFound'], proxy: () => acceptInstead((request, answer) => is.payment(request) && answer.status === 404) },
  'a cancel of an unknown order accepted': { breaks: ['int.cancel.not-found', 'cat.orders.not-found'], fails: ['auth.tenant.writes', 'writes.archive.gone', 'writes.cancel.notFound'], proxy: () => acceptInstead((request, answer) => is.cancel(request) && answer.status === 404) },
  'an archive of an unknown order answered 204': {
    breaks: ['int.archive.not-found', 'cat.orders.not-found'],
    fails: ['auth.tenant.writes', 'discovery.responses.decided', 'writes.archive.gone', 'writes.notFound'],
    proxy: () => ({ answer: (answer, request) => (is.archive(request) && answer.status === 404 ? { status: 204, headers: { 'x-request-id': answer.headers['x-request-id'] ?? 'r' }, body: Buffer.alloc(0) } : answer) }),
  },
  'a cancel answered with an empty object': { breaks: ['int.cancel.response', 'int.order.all-present'], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.cancel.status'], proxy: () => editJson((request, answer) => answer.status === 200 && is.cancel(request), () => ({})) },
  'a cancel without a reason refused': {
    breaks: ['int.cancel.reason'],
    fails: ['writes.cancel.legal'],
    proxy: () => ({
      answer: (answer, request) =>
        is.cancel(request) && answer.status === 200 && request.headers['content-length'] === '2'
          ? withJson({ ...answer, status: 400, headers: { ...answer.headers, 'content-type': 'application/problem+json' } }, { type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: 'reason is required', errors: [{ field: 'reason', code: 'api.malformed_request', value: null, message: 'required' }] })
          : answer,
    }),
  },
  'the cancel reason left out of the history': {
    breaks: ['int.cancel.history'],
    fails: ['writes.cancel.history'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.sandbox(request) && /\/history$/.test(pathOf(request)), (page) => ({ ...page, items: ((page['items'] as JsonObject[] | undefined) ?? []).map((event) => (event['kind'] === 'cancel' ? { ...event, data: { ...(event['data'] as JsonObject), reason: null } } : event)) })),
  },
  'an archive answered 200 with the order': {
    breaks: ['int.archive.no-content'],
    fails: ['discovery.responses.contract', 'writes.archive.noContent'],
    proxy: () => ({ answer: (answer, request) => (is.archive(request) && answer.status === 204 ? { status: 200, headers: { ...answer.headers, 'content-type': 'application/json' }, body: Buffer.from('{"archived":true}') } : answer) }),
  },
  'archived orders in the feed': {
    breaks: ['int.archive.gone-from-feed', 'int.orders-feed.no-archived'],
    // The control plane's order list (D87) reads the same query backwards, so it lists them too.
    fails: ['feeds.orders.archived.hidden', 'feeds.orders.walks.archived', 'sandbox.orders.list', 'writes.archive.feed'],
    wrapStore: (store) => orderFeedOver(store, 'o.tenant_id = ? AND (o.updated_at, o.id) > (?, ?)'),
  },
  'an illegal move refused with another 409 code': {
    breaks: ['int.status.illegal-move'],
    fails: ['writes.archive.onTrip', 'writes.cancel.illegal', 'writes.cancel.illegal.decided', 'writes.cancel.inProgress', 'writes.cancel.status', 'writes.status.refusal'],
    proxy: () => editProblems({ type: 'orders.status.illegal' }, (problem) => ({ ...problem, type: 'orders.status.changedSince' })),
  },

  // ── Bodies and media types ──────────────────────────────────────────────────────────────
  'a wrong media type answered 400': {
    breaks: ['int.body.media-type', 'cat.api.unsupported-media-type', 'cat.status-fixed'],
    fails: ['http.contentEncoding', 'http.mediaType.wrong', 'problems.catalog'],
    proxy: () => restatus((request, answer) => is.integration(request) && typeOf(answer) === 'api.unsupported_media_type', 400),
    answer: restatusAnswer(415, 400, (body) => body.includes('"api.unsupported_media_type"')),
  },
  'no Content-Type answered 400': {
    breaks: ['cat.api.no-content-type'],
    fails: ['http.mediaType.missing'],
    proxy: () => restatus((request, answer) => is.integration(request) && answer.status === 415 && typeOf(answer) === 'api.malformed_request', 400),
    answer: restatusAnswer(415, 400, (body) => body.includes('"api.malformed_request"')),
  },
  'malformed JSON answered 415': {
    breaks: ['int.body.unreadable', 'cat.api.malformed-request'],
    // A payment without a body is refused for it ('A JSON body is required'), whatever its type (D90).
    fails: ['http.body.malformed', 'http.body.missing', 'http.body.none'],
    proxy: () =>
      editJson(
        (request, answer) => is.integration(request) && answer.status === 400 && typeOf(answer) === 'api.malformed_request' && /JSON/.test(String((answerJson(answer) as JsonObject)['detail'])),
        (problem) => ({ ...problem, status: 415 }),
      ),
    answer: restatusAnswer(400, 415, (body) => /"api\.malformed_request"[^}]*JSON/.test(body)),
  },
  'a body far over any limit accepted': {
    breaks: ['cat.api.payload-too-large', 'cat.status-fixed'],
    fails: ['http.body.limit', 'http.body.tooLarge', 'problems.catalog'],
    proxy: () => restatus((request, answer) => is.integration(request) && answer.status === 413 && Number(request.headers['content-length']) > 2 * 1024 * 1024 - 2, 400),
    answer: restatusAnswer(413, 400),
  },
  'a body cut short answered 400': { breaks: ['cat.api.body-incomplete', 'cat.status-fixed'], fails: ['http.body.incomplete', 'http.head.unreadable', 'problems.catalog'], answer: restatusAnswer(408, 400) },

  // ── 429s ────────────────────────────────────────────────────────────────────────────────
  'the rate limit not enforced': {
    breaks: ['int.limits.rate-limit', 'int.errors.rate-limit-429'],
    fails: ['ratelimit.exceeded'],
    wrapStore: (store) => ({ ...store, keys: { ...store.keys, authenticate: (key) => changedPrincipal(store.keys.authenticate(key), (found) => ({ ...found, rateLimit: 6000 })) } }),
  },
  // The D13 and D14 checks of Retry-After's form skip: there is no value to judge, and the MUST checks report its absence.
  'no Retry-After on 429': { breaks: ['int.errors.rate-limit-429', 'int.limits.rate-limit', 'int.idempotency.in-flight'], fails: ['discovery.responses.contract', 'idempotency.inflight', 'ratelimit.exceeded'], proxy: () => dropHeader('retry-after', (_, answer) => answer.status === 429) },
  'a Retry-After of an hour': { breaks: ['int.errors.retry-after-honourable'], fails: ['idempotency.inflight.retryAfter', 'ratelimit.retryAfter.honourable'], proxy: () => setHeader('retry-after', () => '3600', (_, answer) => answer.status === 429) },
  'a rate-limit 429 whose type is not a catalog code': {
    breaks: ['cat.api.rate-limited', 'int.errors.catalog-type', 'cat.type-is-code'],
    fails: ['problems.catalog', 'ratelimit.exceeded', 'ratelimit.exceeded.decided'],
    proxy: () => editProblems({ type: 'api.rate_limited' }, (problem) => ({ ...problem, type: 'rate_limited' })),
  },
  'an in-flight duplicate answered 409': {
    breaks: ['int.idempotency.in-flight', 'cat.idempotency.in-flight', 'cat.status-fixed'],
    fails: ['idempotency.inflight', 'problems.catalog'],
    proxy: () => restatus((request, answer) => is.integration(request) && typeOf(answer) === 'idempotency.inFlight', 409),
  },

  // ── Tenant lifecycle ────────────────────────────────────────────────────────────────────
  "a suspended tenant's writes refused with the archived code": {
    breaks: ['cat.tenants.suspended'],
    fails: ['auth.suspended.writes'],
    proxy: () => editProblems({ type: 'tenants.tenant.suspended' }, (problem) => ({ ...problem, type: 'tenants.tenant.archived' })),
  },
  "a suspended tenant's reads refused": {
    breaks: ['cat.tenants.suspended-reads'],
    fails: ['auth.suspended.reads', 'discovery.responses.decided'],
    proxy: (profile) => ({ answer: (answer, request) => (request.method === 'GET' && is.integration(request) && answer.status === 200 && withKey(profile.keys.suspendedTenant)(request) ? problemAnswer(answer, 409, 'tenants.tenant.suspended', 'suspended') : answer) }),
  },
  "an archived tenant's writes refused with the suspended code": {
    breaks: ['cat.tenants.archived'],
    fails: ['sandbox.tenant.archived'],
    proxy: () => editProblems({ type: 'tenants.tenant.archived' }, (problem) => ({ ...problem, type: 'tenants.tenant.suspended' })),
  },
};
