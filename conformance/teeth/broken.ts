/**
 * Deliberately broken variants of the reference: each breaks the seed requirements it names
 * (MUST or SHOULD) and must fail exactly the checks it lists. Together they break every
 * testable seed requirement of the register at least once (teeth/matrix.test.ts holds them to it).
 */
import { makeFeedPage, ORDER_JSON } from '../../server/store/feed-sql.ts';
import type { Store } from '../../server/store/index.ts';
import { answerJson, type ProxyRewrite } from '../testing/proxy.ts';
import type { BrokenVariant } from './harness.ts';
import {
  acceptInstead,
  both,
  dropHeader,
  editJson,
  editOrders,
  editProblems,
  editTrips,
  firstFieldError,
  is,
  overrideOrders,
  pathOf,
  queryOf,
  resendChanged,
  restatus,
  setHeader,
  typeOf,
  withJson,
  withQuery,
} from './rewrites.ts';

type JsonObject = Record<string, unknown>;

/** The order feed of a store, over `where` instead of the real filter. */
function orderFeedOver(store: Store, where: string): Store {
  const feedPage = makeFeedPage(store.db, { select: `SELECT o.updated_at, o.id, ${ORDER_JSON} FROM orders o WHERE ${where}`, orderBy: 'o.updated_at, o.id', statusColumn: 'o.status' });
  return overrideOrders(store, () => ({ feedPage }));
}

/** A request made with the profile key `key` (its secret in X-Api-Key). */
const withKey = (key: string | undefined) => (request: { headers: Record<string, string> }) => key !== undefined && request.headers['x-api-key'] === key;

/** Problem answers of a control-plane request matching `path` and `type`, turned into 200 `{}`: the sandbox accepts what it should refuse. */
function sandboxAccepts(method: string, path: RegExp, type: string): ProxyRewrite {
  return {
    answer: (answer, request) =>
      request.method === method && path.test(pathOf(request)) && typeOf(answer) === type ? { status: 200, headers: { ...answer.headers, 'content-type': 'application/json' }, body: Buffer.from('{}') } : answer,
  };
}

/** Every end status of an order of `type` in the feed replaced by `replace`'s. */
function endStatusSwapped(type: string, replace: Record<string, string>): ProxyRewrite {
  return editOrders((order) => {
    if (order['type'] === type && typeof order['status'] === 'string' && order['status'] in replace) order['status'] = replace[order['status']];
  });
}

export const brokenVariants: Record<string, BrokenVariant> = {
  // ── Tenancy ─────────────────────────────────────────────────────────────────────────────
  'the order feed serves every tenant': {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    fails: [],
    wrapStore: (store) => orderFeedOver(store, '? IS NOT NULL AND o.archived_at IS NULL AND (o.updated_at, o.id) > (?, ?)'),
  },
  'the order feed leaks other tenants under a status filter only': {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    fails: [],
    wrapStore: (store) => {
      const leaky = orderFeedOver(store, '? IS NOT NULL AND o.archived_at IS NULL AND (o.updated_at, o.id) > (?, ?)').orders.feedPage;
      return overrideOrders(store, (orders) => ({ feedPage: (tenantId, query) => ((query.statuses?.length ?? 0) > 0 ? leaky(tenantId, query) : orders.feedPage(tenantId, query)) }));
    },
  },
  'the trip feed serves every tenant': {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    fails: [],
    wrapStore: (store) => {
      const feedPage = makeFeedPage(store.db, {
        select: `SELECT t.updated_at, t.id, json_object('id', t.id, 'shortId', t.short_id, 'status', t.status, 'warehouseId', t.warehouse_id, 'driverId', t.driver_id, 'vehicleId', t.vehicle_id, 'stopCount', t.stop_count, 'plannedAtUtc', t.planned_at, 'updatedAtUtc', t.updated_at) FROM trips t WHERE ? IS NOT NULL AND (t.updated_at, t.id) > (?, ?)`,
        orderBy: 't.updated_at, t.id',
        statusColumn: 't.status',
      });
      return { ...store, trips: { ...store.trips, feedPage } };
    },
  },
  "a write reaches another tenant's order": {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    fails: [],
    wrapStore: (store) => {
      const ownerOf = store.db.prepare<[string], string>('SELECT tenant_id FROM orders WHERE external_id = ? AND archived_at IS NULL').pluck();
      const anyTenant = (tenantId: string, externalId: string) => ownerOf.get(externalId) ?? tenantId;
      return overrideOrders(store, (orders) => ({
        attachPayment: (tenantId, externalId, payment) => orders.attachPayment(anyTenant(tenantId, externalId), externalId, payment),
        cancel: (tenantId, externalId, reason) => orders.cancel(anyTenant(tenantId, externalId), externalId, reason),
      }));
    },
  },

  // ── Order fields ────────────────────────────────────────────────────────────────────────
  'orders without miniStatus': { breaks: ['int.order.all-present'], fails: [], proxy: () => editOrders((order) => void delete order['miniStatus']) },
  'order ids that are not uuids': { breaks: ['int.order.id'], fails: [], proxy: () => editOrders((order) => void (order['id'] = `ord_${String(order['id']).replaceAll('-', '')}`)) },
  'a numeric externalId on Closed orders': { breaks: ['int.order.externalId'], fails: [], proxy: () => editOrders((order) => void (order['status'] === 'Closed' && (order['externalId'] = 4711))) },
  'a numeric shortId': { breaks: ['int.order.shortId'], fails: [], proxy: () => editOrders((order) => void (order['shortId'] = 1234)) },
  'the status of Closed orders by number': { breaks: ['int.order.status', 'int.status.by-name'], fails: [], proxy: () => editOrders((order) => void (order['status'] === 'Closed' && (order['status'] = 12))) },
  'a numeric miniStatus': { breaks: ['int.order.miniStatus'], fails: [], proxy: () => editOrders((order) => void (order['miniStatus'] = 0)) },
  'order types in lower case': { breaks: ['int.order.type'], fails: [], proxy: () => editOrders((order) => void (order['type'] = String(order['type']).toLowerCase())) },
  'a numeric customId': { breaks: ['int.order.customId'], fails: [], proxy: () => editOrders((order) => void (order['customId'] = 7)) },
  'createdAtUtc without a time zone': { breaks: ['int.order.createdAtUtc'], fails: [], proxy: () => editOrders((order) => void (order['createdAtUtc'] = String(order['createdAtUtc']).replace(/Z$/, ''))) },
  'updatedAtUtc without a time zone': { breaks: ['int.order.updatedAtUtc'], fails: [], proxy: () => editOrders((order) => void (order['updatedAtUtc'] = String(order['updatedAtUtc']).replace(/Z$/, ''))) },
  'tags null': { breaks: ['int.order.tags'], fails: [], proxy: () => editOrders((order) => void (order['tags'] = null)) },
  'an empty order page with items null': {
    breaks: ['int.order-page.items'],
    fails: [],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request), (page) => ((page['items'] as unknown[]).length === 0 ? { ...page, items: null } : page)),
  },

  // ── Trip fields ─────────────────────────────────────────────────────────────────────────
  'trips without their number of stops': { breaks: ['int.trip.members'], fails: [], proxy: () => editTrips((trip) => void delete trip['stopCount']) },
  'the trip status named state': {
    breaks: ['int.trip.status-name'],
    fails: [],
    proxy: () => editTrips(({ status, ...trip }) => Object.fromEntries(Object.entries({ ...trip, state: status }).sort(([a], [b]) => (a === 'state' ? (b === 'shortId' ? 1 : -1) : 0)))),
  },
  'an empty trip page with items null': {
    breaks: ['int.trip-page.items'],
    fails: [],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.tripFeed(request), (page) => ((page['items'] as unknown[]).length === 0 ? { ...page, items: null } : page)),
  },

  // ── Key identity ────────────────────────────────────────────────────────────────────────
  'whoami with a numeric tenantId': { breaks: ['int.identity.tenantId'], fails: [], proxy: () => editJson((request, answer) => answer.status === 200 && is.whoami(request), (identity) => ({ ...identity, tenantId: 42 })) },
  'whoami without keyId': { breaks: ['int.identity.keyId'], fails: [], proxy: () => editJson((request, answer) => answer.status === 200 && is.whoami(request), ({ keyId: _gone, ...identity }) => identity) },
  'whoami scopes as one string': {
    breaks: ['int.identity.scopes'],
    fails: [],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.whoami(request), (identity) => ({ ...identity, scopes: (identity['scopes'] as string[]).join(' ') })),
  },
  'whoami wrapped in an envelope': { breaks: ['int.whoami.response'], fails: [], proxy: () => editJson((request, answer) => answer.status === 200 && is.whoami(request), (identity) => ({ identity })) },
  'whoami refused to a key without scopes': {
    breaks: ['int.whoami.no-scope'],
    fails: [],
    proxy: (profile) => restatus((request, answer) => is.whoami(request) && answer.status === 200 && withKey(profile.keys.noScopes)(request), 403),
  },
  'whoami answered as text/plain': { breaks: ['int.service.json'], fails: [], proxy: () => setHeader('content-type', () => 'text/plain; charset=utf-8', (request, answer) => is.whoami(request) && answer.status === 200) },
  'whoami missing under /api/v1/integration/': {
    breaks: ['int.versioning.prefix', 'int.whoami.response', 'int.whoami.no-scope'],
    fails: [],
    proxy: () => restatus((request, answer) => is.whoami(request) && answer.status === 200, 404),
  },

  // ── Problem bodies ──────────────────────────────────────────────────────────────────────
  'a 400 without title': { breaks: ['int.errors.validation-title'], fails: [], proxy: () => editProblems({ status: 400 }, ({ title: _gone, ...problem }) => problem) },
  'a 400 whose status is text': { breaks: ['int.errors.validation-status'], fails: [], proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, status: '400' })) },
  'a 400 without detail': { breaks: ['int.errors.validation-detail'], fails: [], proxy: () => editProblems({ status: 400 }, ({ detail: _gone, ...problem }) => problem) },
  'a 400 with errors as an object': {
    breaks: ['int.errors.validation-errors'],
    fails: [],
    proxy: () => editProblems({ status: 400 }, (problem) => (Array.isArray(problem['errors']) ? { ...problem, errors: Object.fromEntries((problem['errors'] as { field: string }[]).map((error) => [error.field, error])) } : problem)),
  },
  'a 400 with overridable': { breaks: ['int.errors.no-overridable'], fails: [], proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, overridable: false })) },
  'field errors without code': {
    breaks: ['int.errors.field-error-code'],
    fails: [],
    proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, ...(Array.isArray(problem['errors']) ? { errors: (problem['errors'] as JsonObject[]).map(({ code: _gone, ...error }) => error) } : {}) })),
  },
  'field errors without value': {
    breaks: ['int.errors.field-error-value'],
    fails: [],
    proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, ...(Array.isArray(problem['errors']) ? { errors: (problem['errors'] as JsonObject[]).map(({ value: _gone, ...error }) => error) } : {}) })),
  },
  'field errors whose message is a number': {
    breaks: ['int.errors.field-error-message'],
    fails: [],
    proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, ...(Array.isArray(problem['errors']) ? { errors: (problem['errors'] as JsonObject[]).map((error) => ({ ...error, message: 1 })) } : {}) })),
  },
  'field errors without field': {
    breaks: ['int.errors.field-error', 'cat.validation-errors', 'cat.api.malformed-request'],
    fails: [],
    proxy: () => editProblems({ status: 400 }, (problem) => ({ ...problem, ...(Array.isArray(problem['errors']) ? { errors: (problem['errors'] as JsonObject[]).map(({ field: _gone, ...error }) => error) } : {}) })),
  },
  'a 404 whose status is text': { breaks: ['int.errors.other-bodies'], fails: [], proxy: () => editProblems({ status: 404 }, (problem) => ({ ...problem, status: '404' })) },
  'a 400 whose type is a number': {
    breaks: ['int.errors.validation-body', 'int.errors.catalog-type', 'cat.type-is-code'],
    fails: [],
    proxy: () => editProblems({ status: 400, where: is.tripFeed }, (problem) => ({ ...problem, type: 400 })),
  },
  'errors as plain JSON, not problem+json': {
    breaks: ['int.errors.problem-json', 'int.endpoints.error-bodies', 'int.service.json'],
    fails: [],
    proxy: () => setHeader('content-type', () => 'application/json', (request, answer) => is.integration(request) && answer.headers['content-type']?.startsWith('application/problem+json') === true),
  },
  'a type that is not in the catalog': {
    breaks: ['int.errors.catalog-type', 'cat.type-is-code', 'cat.orders.not-found'],
    fails: [],
    proxy: () => editProblems({ type: 'orders.notFound' }, (problem) => ({ ...problem, type: 'order_not_found' })),
  },
  'a wrong status for a catalog code': {
    breaks: ['cat.status-fixed', 'int.errors.status-by-kind', 'cat.orders.not-found', 'int.payment.not-found', 'int.archive.not-found'],
    fails: [],
    proxy: () => restatus((request, answer) => is.integration(request) && typeOf(answer) === 'orders.notFound', 410),
  },

  // ── Authentication ──────────────────────────────────────────────────────────────────────
  'a request without a key served as the full key': {
    breaks: ['int.auth.unauthenticated'],
    fails: [],
    proxy: (profile) => ({ request: (request) => (is.integration(request) && request.headers['x-api-key'] === undefined && request.headers['authorization'] === undefined ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },
  'a revoked key accepted': {
    breaks: ['int.auth.revoked'],
    fails: [],
    proxy: (profile) => ({ request: (request) => (withKey(profile.keys.revoked)(request) ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },
  'the trip feed without its scope': {
    breaks: ['int.auth.scope', 'int.trips-feed.scope'],
    fails: [],
    proxy: (profile) => ({ request: (request) => (is.tripFeed(request) && request.headers['x-api-key'] !== undefined && request.headers['x-api-key'] !== profile.keys.tripsRead && request.headers['x-api-key'] !== profile.keys.otherTenant && request.headers['x-api-key'] !== profile.keys.suspendedTenant ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },
  'the order feed without its scope': {
    breaks: ['int.auth.scope', 'int.orders-feed.scope'],
    fails: [],
    proxy: (profile) => ({ request: (request) => (is.orderFeed(request) && (withKey(profile.keys.tripsRead)(request) || withKey(profile.keys.noScopes)(request)) ? { ...request, headers: { ...request.headers, 'x-api-key': profile.keys.full } } : request) }),
  },

  // ── Writes ──────────────────────────────────────────────────────────────────────────────
  'a payment answered with an empty object': { breaks: ['int.payment.response'], fails: [], proxy: () => editJson((request, answer) => answer.status === 200 && is.payment(request), () => ({})) },
  'a non-positive amount refused with another code': {
    breaks: ['int.payment.amount-invalid'],
    fails: [],
    proxy: () => editProblems({ type: 'payments.amount.invalid', where: is.payment }, (problem) => (typeof firstFieldErrorValue(problem) === 'number' ? { ...problem, type: 'api.malformed_request' } : problem)),
  },
  'a currency of the wrong shape refused with another code': {
    breaks: ['int.payment.currency-invalid'],
    fails: [],
    proxy: () => editProblems({ type: 'payments.currency.invalid', where: is.payment }, (problem) => (String(firstFieldErrorValue(problem)).length !== 3 || /[a-z]/.test(String(firstFieldErrorValue(problem))) ? { ...problem, type: 'api.malformed_request' } : problem)),
  },
  'a currency that is not ISO 4217 accepted': { breaks: ['int.payment.currency'], fails: [], proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.value === 'ABC') },
  'a payment without a required member accepted': {
    breaks: ['int.payment.body'],
    fails: [],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && answer.status === 400 && /required|missing/i.test(String((answerJson(answer) as { errors?: { message?: string }[] } | undefined)?.errors?.[0]?.message))),
  },
  'a paymentId that is not a uuid accepted': {
    breaks: ['int.payment.paymentId-format'],
    fails: [],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.field === 'paymentId' && firstFieldError(answer)?.value === 'not-a-uuid'),
  },
  'a textual amount coerced to a number': {
    breaks: ['int.payment.amount'],
    fails: [],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.field === 'amount' && typeof firstFieldError(answer)?.value === 'string' && /^\d+$/.test(String(firstFieldError(answer)?.value))),
  },
  'a numeric paymentId accepted': {
    breaks: ['int.payment.paymentId'],
    fails: [],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.field === 'paymentId' && answer.status === 400 && firstFieldError(answer)?.value !== 'not-a-uuid' && !/required|missing/i.test(String((answerJson(answer) as { errors?: { message?: string }[] } | undefined)?.errors?.[0]?.message))),
  },
  'a payment for an unknown order accepted': { breaks: ['int.payment.not-found'], fails: [], proxy: () => acceptInstead((request, answer) => is.payment(request) && answer.status === 404) },
  'a cancel of an unknown order accepted': { breaks: ['int.cancel.not-found'], fails: [], proxy: () => acceptInstead((request, answer) => is.cancel(request) && answer.status === 404) },
  'an archive of an unknown order answered 204': {
    breaks: ['int.archive.not-found'],
    fails: [],
    proxy: () => ({ answer: (answer, request) => (is.archive(request) && answer.status === 404 ? { status: 204, headers: { 'x-request-id': answer.headers['x-request-id'] ?? 'r' }, body: Buffer.alloc(0) } : answer) }),
  },
  'a cancel answered with an empty object': { breaks: ['int.cancel.response'], fails: [], proxy: () => editJson((request, answer) => answer.status === 200 && is.cancel(request), () => ({})) },
  'a cancel without a reason refused': {
    breaks: ['int.cancel.reason'],
    fails: [],
    proxy: () => ({
      answer: (answer, request) =>
        is.cancel(request) && answer.status === 200 && request.headers['content-length'] === '2'
          ? withJson({ ...answer, status: 400, headers: { ...answer.headers, 'content-type': 'application/problem+json' } }, { type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: 'reason is required', errors: [{ field: 'reason', code: 'api.malformed_request', value: null, message: 'required' }] })
          : answer,
    }),
  },
  'the cancel reason left out of the history': {
    breaks: ['int.cancel.history'],
    fails: [],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.sandbox(request) && /\/history$/.test(pathOf(request)), (page) => ({ ...page, items: ((page['items'] as JsonObject[] | undefined) ?? []).map((event) => (event['kind'] === 'cancel' ? { ...event, data: { ...(event['data'] as JsonObject), reason: null } } : event)) })),
  },
  'an archive answered 200 with the order': {
    breaks: ['int.archive.no-content'],
    fails: [],
    proxy: () => ({ answer: (answer, request) => (is.archive(request) && answer.status === 204 ? { status: 200, headers: { ...answer.headers, 'content-type': 'application/json' }, body: Buffer.from('{"archived":true}') } : answer) }),
  },
  'archived orders in the feed': {
    breaks: ['int.archive.gone-from-feed', 'int.orders-feed.no-archived'],
    fails: [],
    wrapStore: (store) => orderFeedOver(store, 'o.tenant_id = ? AND (o.updated_at, o.id) > (?, ?)'),
  },
  'an illegal move refused with another 409 code': {
    breaks: ['int.status.illegal-move'],
    fails: [],
    proxy: () => editProblems({ type: 'orders.status.illegal' }, (problem) => ({ ...problem, type: 'orders.status.changedSince' })),
  },

  // ── Bodies and media types ──────────────────────────────────────────────────────────────
  'a wrong media type answered 400': {
    breaks: ['int.body.media-type', 'cat.api.unsupported-media-type'],
    fails: [],
    proxy: () => restatus((request, answer) => is.integration(request) && typeOf(answer) === 'api.unsupported_media_type', 400),
  },
  'no Content-Type answered 400': {
    breaks: ['cat.api.no-content-type'],
    fails: [],
    proxy: () => restatus((request, answer) => is.integration(request) && answer.status === 415 && typeOf(answer) === 'api.malformed_request', 400),
  },
  'malformed JSON answered 415': {
    breaks: ['int.body.unreadable', 'cat.api.malformed-request'],
    fails: [],
    proxy: () =>
      editJson(
        (request, answer) => is.integration(request) && answer.status === 400 && typeOf(answer) === 'api.malformed_request' && /JSON/.test(String((answerJson(answer) as JsonObject)['detail'])),
        (problem) => ({ ...problem, type: 'api.unsupported_media_type', status: 415 }),
      ),
  },
  'a body far over any limit accepted': {
    breaks: ['cat.api.payload-too-large'],
    fails: [],
    proxy: () => restatus((request, answer) => is.integration(request) && answer.status === 413 && Number(request.headers['content-length']) > 2 * 1024 * 1024 - 2, 400),
  },
  'a body cut short answered 400': { breaks: ['cat.api.body-incomplete'], fails: [], proxy: () => restatus((request, answer) => is.integration(request) && answer.status === 408, 400) },

  // ── 429s ────────────────────────────────────────────────────────────────────────────────
  'the rate limit not enforced': {
    breaks: ['int.limits.rate-limit', 'int.errors.rate-limit-429'],
    fails: [],
    wrapStore: (store) => ({ ...store, keys: { ...store.keys, authenticate: (key) => { const found = store.keys.authenticate(key); return found && { ...found, rateLimit: 6000 }; } } }),
  },
  'no Retry-After on 429': { breaks: ['int.errors.rate-limit-429', 'int.limits.rate-limit', 'int.idempotency.in-flight'], fails: [], proxy: () => dropHeader('retry-after', (_, answer) => answer.status === 429) },
  'a Retry-After of an hour': { breaks: ['int.errors.retry-after-honourable'], fails: [], proxy: () => setHeader('retry-after', () => '3600', (_, answer) => answer.status === 429) },
  'a rate-limit 429 whose type is not a catalog code': {
    breaks: ['cat.api.rate-limited', 'int.errors.catalog-type', 'cat.type-is-code'],
    fails: [],
    proxy: () => editProblems({ type: 'api.rate_limited' }, (problem) => ({ ...problem, type: 'rate_limited' })),
  },
  'an in-flight duplicate answered 409': {
    breaks: ['int.idempotency.in-flight', 'cat.idempotency.in-flight'],
    fails: [],
    proxy: () => restatus((request, answer) => is.integration(request) && typeOf(answer) === 'idempotency.inFlight', 409),
  },

  // ── Tenant lifecycle ────────────────────────────────────────────────────────────────────
  "a suspended tenant's writes refused with the archived code": {
    breaks: ['cat.tenants.suspended'],
    fails: [],
    proxy: () => editProblems({ type: 'tenants.tenant.suspended' }, (problem) => ({ ...problem, type: 'tenants.tenant.archived' })),
  },
  "a suspended tenant's reads refused": {
    breaks: ['cat.tenants.suspended-reads'],
    fails: [],
    proxy: (profile) => restatus((request, answer) => request.method === 'GET' && is.integration(request) && answer.status === 200 && withKey(profile.keys.suspendedTenant)(request), 409),
  },
  "an archived tenant's writes refused with the suspended code": {
    breaks: ['cat.tenants.archived'],
    fails: [],
    proxy: () => editProblems({ type: 'tenants.tenant.archived' }, (problem) => ({ ...problem, type: 'tenants.tenant.suspended' })),
  },

  // ── Feeds ───────────────────────────────────────────────────────────────────────────────
  'order pages newest first': {
    breaks: ['int.orders-feed.oldest-first'],
    fails: [],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request), (page) => ({ ...page, items: [...(page['items'] as unknown[])].reverse() })),
  },
  'trip pages newest first': {
    breaks: ['int.trips-feed.oldest-first'],
    fails: [],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.tripFeed(request), (page) => ({ ...page, items: [...(page['items'] as unknown[])].reverse() })),
  },
  'limit not capped': {
    breaks: ['int.orders-feed.limit', 'int.trips-feed.params', 'int.limits.page-size'],
    fails: [],
    proxy: () => ({
      answer: async (answer, request, resend) => {
        const limit = Number(queryOf(request).get('limit'));
        const page = answerJson(answer) as { items?: unknown[]; nextCursor?: string | null } | undefined;
        if (!(limit > 100) || answer.status !== 200 || !page?.nextCursor) return answer;
        const more = answerJson(await resend(withQuery(request, (query) => { query.set('cursor', page.nextCursor!); query.set('limit', '100'); }))) as { items: unknown[]; nextCursor: string | null };
        return withJson(answer, { items: [...page.items!, ...more.items].slice(0, limit), nextCursor: more.nextCursor });
      },
    }),
  },
  'an order page of 20 by default': {
    breaks: ['int.orders-feed.limit', 'int.limits.page-size'],
    fails: [],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && !queryOf(request).has('limit') ? { ...request, ...withQuery(request, (query) => query.set('limit', '20')) } : request) }),
  },
  'a malformed cursor served from the start': {
    breaks: ['int.orders-feed.cursor', 'int.trips-feed.refusals'],
    fails: [],
    proxy: () => resendChanged((request, answer) => answer.status === 400 && firstFieldError(answer)?.field === 'cursor', (request) => withQuery(request, (query) => query.delete('cursor'))),
  },
  'an unknown order status served unfiltered': {
    breaks: ['int.orders-feed.status'],
    fails: [],
    proxy: () => resendChanged((request, answer) => is.orderFeed(request) && answer.status === 400 && firstFieldError(answer)?.field === 'status', (request) => withQuery(request, (query) => query.delete('status'))),
  },
  'an unknown trip status served unfiltered': {
    breaks: ['int.trips-feed.refusals'],
    fails: [],
    proxy: () => resendChanged((request, answer) => is.tripFeed(request) && answer.status === 400 && firstFieldError(answer)?.field === 'status', (request) => withQuery(request, (query) => query.delete('status'))),
  },
  'the order status filter ignored': {
    breaks: ['int.orders-feed.status'],
    fails: [],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && queryOf(request).has('status') && !queryOf(request).has('cursor') ? { ...request, ...withQuery(request, (query) => query.delete('status')) } : request) }),
  },
  'PartiallyCollected refused as a filter': {
    breaks: ['int.status.values'],
    fails: [],
    proxy: () => ({
      answer: (answer, request) =>
        is.orderFeed(request) && queryOf(request).getAll('status').includes('PartiallyCollected')
          ? withJson({ ...answer, status: 400, headers: { ...answer.headers, 'content-type': 'application/problem+json' } }, { type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: 'unknown status', errors: [{ field: 'status', code: 'api.malformed_request', value: 'PartiallyCollected', message: 'unknown status' }] })
          : answer,
    }),
  },
  'since ignored on the order feed': { breaks: ['int.orders-feed.since'], fails: [], proxy: () => ({ request: (request) => (is.orderFeed(request) && queryOf(request).has('since') ? { ...request, ...withQuery(request, (query) => query.delete('since')) } : request) }) },
  'since ignored on the trip feed': { breaks: ['int.trips-feed.params'], fails: [], proxy: () => ({ request: (request) => (is.tripFeed(request) && queryOf(request).has('since') ? { ...request, ...withQuery(request, (query) => query.delete('since')) } : request) }) },
  'a since offset read as UTC on the order feed': {
    breaks: ['int.orders-feed.since'],
    fails: [],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && /[+-]\d\d:\d\d$/.test(queryOf(request).get('since') ?? '') ? { ...request, ...withQuery(request, (query) => query.set('since', query.get('since')!.replace(/[+-]\d\d:\d\d$/, 'Z'))) } : request) }),
  },
  'order nextCursor null while items remain': {
    breaks: ['int.orders-feed.caught-up', 'int.order-page.nextCursor'],
    fails: [],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request) && queryOf(request).has('cursor') && Number(queryOf(request).get('limit') ?? 50) <= 10, (page) => ({ ...page, nextCursor: null })),
  },
  'trip nextCursor null while items remain': {
    breaks: ['int.trips-feed.oldest-first', 'int.trip-page.nextCursor'],
    fails: [],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.tripFeed(request) && queryOf(request).has('cursor') && Number(queryOf(request).get('limit') ?? 50) <= 10, (page) => ({ ...page, nextCursor: null })),
  },
  'a cancel that does not move the order to the tail': {
    breaks: ['int.orders-feed.follows-changes'],
    fails: [],
    wrapStore: (store) => {
      const stampOf = store.db.prepare<[string, string], string>('SELECT updated_at FROM orders WHERE tenant_id = ? AND external_id = ?').pluck();
      const restore = store.db.prepare('UPDATE orders SET updated_at = ? WHERE tenant_id = ? AND external_id = ?');
      return overrideOrders(store, (orders) => ({
        cancel: (tenantId, externalId, reason) => {
          const before = stampOf.get(tenantId, externalId);
          const result = orders.cancel(tenantId, externalId, reason);
          if (result.ok && before !== undefined) restore.run(before, tenantId, externalId);
          return result;
        },
      }));
    },
  },
  'delivered orders reported as collected': { breaks: ['int.status.delivery-ends'], fails: [], proxy: () => endStatusSwapped('Delivery', { FullyDelivered: 'Collected' }) },
  'collected pickups reported as delivered': { breaks: ['int.status.pickup-ends'], fails: [], proxy: () => endStatusSwapped('Pickup', { Collected: 'FullyDelivered', NotCollected: 'Returned' }) },
  'a rebox ending as collected': { breaks: ['int.status.rebox'], fails: [], proxy: () => endStatusSwapped('Rebox', { FullyDelivered: 'Collected', PartiallyDelivered: 'PartiallyCollected' }) },

  // ── The control plane's seed rules ──────────────────────────────────────────────────────
  '101 capability skills accepted': { breaks: ['int.limits.skills'], fails: [], proxy: () => sandboxAccepts('PUT', /\/skills$/, 'tenants.skills.too_many') },
  'a revoked key revoked again': { breaks: ['int.auth.key-rules', 'cat.apikeys'], fails: [], proxy: () => sandboxAccepts('POST', /\/keys\/[^/]+\/revoke$/, 'apikeys.already_revoked') },
  'a repeated tag name accepted': { breaks: ['int.tag.rules'], fails: [], proxy: () => sandboxAccepts('POST', /\/tags$/, 'tags.duplicate') },
  'a 65-character tag name accepted': { breaks: ['int.limits.tag-name', 'int.tag.rules'], fails: [], proxy: () => sandboxAccepts('POST', /\/tags$/, 'tags.name.invalid') },
  'a 65-character mini-status name accepted': { breaks: ['int.limits.mini-status-name', 'int.order.mini-status-rules'], fails: [], proxy: () => sandboxAccepts('POST', /\/ministatuses$/, 'ministatuses.name.invalid') },
  'a 129-character order mini-status accepted': { breaks: ['int.limits.order-mini-status', 'int.order.mini-status-rules'], fails: [], proxy: () => sandboxAccepts('PUT', /\/mini-status$/, 'orders.miniStatus.invalid') },
  'an import of 1001 rows accepted': { breaks: ['int.limits.import-rows'], fails: [], proxy: () => sandboxAccepts('POST', /\/order-imports$/, 'import.rows.too_many') },
  'a started trip started again': { breaks: ['int.trip.start'], fails: [], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/start$/, 'planning.trip_not_confirmed') },
  'a trip with an open stop completed': { breaks: ['int.trip.complete'], fails: [], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/complete$/, 'planning.trip_has_open_stops') },
  'a trip cancelled without a reason': { breaks: ['int.trip.cancel'], fails: [], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/cancel$/, 'trips.mutation.cancelReasonRequired') },
};

/** errors[0].value of a problem body. */
function firstFieldErrorValue(problem: JsonObject): unknown {
  return (problem['errors'] as { value?: unknown }[] | undefined)?.[0]?.value;
}

/** Every rewrite helper used above, re-exported for tests that build one-off variants. */
export { both };
