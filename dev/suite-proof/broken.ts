/**
 * Deliberately broken variants of the reference: each breaks the seed requirements it names
 * (MUST or SHOULD) and must fail exactly the checks it lists. Together they break every
 * testable seed requirement of the register at least once (matrix.test.ts holds them to it).
 */
import { makeFeedPage, ORDER_JSON } from '../../server/store/feed-sql.ts';
import type { Store } from '../../server/store/index.ts';
import { answerJson, type ProxiedAnswer, type ProxyRewrite } from '../testing/conformance/proxy.ts';
import { type BrokenVariant, restatusAnswer } from './harness.ts';
import {
  acceptInstead,
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
  const feedPage = makeFeedPage(store.db, { select: `SELECT o.updated_at, o.id, o.status, ${ORDER_JSON} FROM orders o WHERE ${where}`, orderBy: 'o.updated_at, o.id', statusColumn: 'o.status' });
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

/**
 * A store that records every order of `type` in end status `from` as `to` (read before each page,
 * so the feed, its filters and the writes all see it).
 */
function endStatusRecordedAs(type: string, from: string, to: string): (store: Store) => Store {
  return (store) => {
    const record = store.db.prepare('UPDATE orders SET status = ? WHERE tenant_id = ? AND type = ? AND status = ?');
    return overrideOrders(store, (orders) => ({
      feedPage: (tenantId, query) => {
        record.run(to, tenantId, type, from);
        return orders.feedPage(tenantId, query);
      },
    }));
  };
}

/** An Order body broken everywhere is broken in the write answers too: "Response 200: Order". */
const ORDER_ANSWERS = ['int.payment.response', 'int.cancel.response'];

/** A problem+json answer of `status`, as the reference would write one. */
function problemAnswer(answer: ProxiedAnswer, status: number, type: string, detail: string): ProxiedAnswer {
  const title = { 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict' }[status] ?? 'Error';
  return withJson({ status, headers: { ...answer.headers, 'content-type': 'application/problem+json' }, body: Buffer.alloc(0) }, { type, title, status, detail, instance: null });
}

export const brokenVariants: Record<string, BrokenVariant> = {
  // ── Tenancy ─────────────────────────────────────────────────────────────────────────────
  'the order feed serves every tenant': {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    fails: ['auth.tenant.feed', 'feeds.orders.walks.tenant'],
    wrapStore: (store) => orderFeedOver(store, '? IS NOT NULL AND o.archived_at IS NULL AND (o.updated_at, o.id) > (?, ?)'),
  },
  'the order feed leaks other tenants under a status filter only': {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    fails: ['feeds.orders.walks.tenant'],
    wrapStore: (store) => {
      const leaky = orderFeedOver(store, '? IS NOT NULL AND o.archived_at IS NULL AND (o.updated_at, o.id) > (?, ?)').orders.feedPage;
      return overrideOrders(store, (orders) => ({ feedPage: (tenantId, query) => ((query.statuses?.length ?? 0) > 0 ? leaky(tenantId, query) : orders.feedPage(tenantId, query)) }));
    },
  },
  'the trip feed serves every tenant': {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    fails: ['feeds.trips.walks.tenant'],
    wrapStore: (store) => {
      const feedPage = makeFeedPage(store.db, {
        select: `SELECT t.updated_at, t.id, t.status, json_object('id', t.id, 'shortId', t.short_id, 'status', t.status, 'warehouseId', t.warehouse_id, 'driverId', t.driver_id, 'vehicleId', t.vehicle_id, 'stopCount', t.stop_count, 'plannedAtUtc', t.planned_at, 'updatedAtUtc', t.updated_at) FROM trips t WHERE ? IS NOT NULL AND (t.updated_at, t.id) > (?, ?)`,
        orderBy: 't.updated_at, t.id',
        statusColumn: 't.status',
      });
      return { ...store, trips: { ...store.trips, feedPage } };
    },
  },
  "a write reaches another tenant's order": {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    fails: ['auth.tenant.writes'],
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
  'orders without miniStatus': { breaks: ['int.order.all-present', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.payment.success'], proxy: () => editOrders((order) => void delete order['miniStatus']) },
  'order ids that are not uuids': { breaks: ['int.order.id', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.payment.recordedOnce', 'writes.payment.success'],
    alsoFails: { 'writes.cancel.history': 'it reads the order history by the id the answer gave, which is not the id the service knows the order by' }, proxy: () => editOrders((order) => void (order['id'] = `ord_${String(order['id']).replaceAll('-', '')}`)) },
  'a numeric externalId on Closed orders': { breaks: ['int.order.externalId'], fails: ['discovery.responses.contract'], proxy: () => editOrders((order) => void (order['status'] === 'Closed' && (order['externalId'] = 4711))) },
  'a numeric shortId': { breaks: ['int.order.shortId', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.payment.success'], proxy: () => editOrders((order) => void (order['shortId'] = 1234)) },
  'the status of Closed orders by number': { breaks: ['int.order.status', 'int.status.by-name'], fails: ['discovery.responses.contract'], proxy: () => editOrders((order) => void (order['status'] === 'Closed' && (order['status'] = 12))) },
  'a numeric miniStatus': { breaks: ['int.order.miniStatus', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.payment.success'], proxy: () => editOrders((order) => void (order['miniStatus'] = 0)) },
  'order types in lower case': { breaks: ['int.order.type', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.payment.success'], proxy: () => editOrders((order) => void (order['type'] = String(order['type']).toLowerCase())) },
  'a numeric customId': { breaks: ['int.order.customId', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.payment.success'], proxy: () => editOrders((order) => void (order['customId'] = 7)) },
  'createdAtUtc without a time zone': { breaks: ['int.order.createdAtUtc', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.payment.success'], proxy: () => editOrders((order) => void (order['createdAtUtc'] = String(order['createdAtUtc']).replace(/Z$/, ''))) },
  'updatedAtUtc without a time zone': { breaks: ['int.order.updatedAtUtc', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'feeds.orders.cursor.end', 'feeds.orders.cursor.filters-as-sent', 'feeds.orders.since.inclusive', 'writes.cancel.legal', 'writes.payment.success'],
    alsoFails: { 'feeds.orders.cursor.more': 'it walks from a since taken from a stamp, which without its zone names another instant', 'feeds.orders.since.filter': 'the since it sends is taken from a stamp, which without its zone names another instant' }, proxy: () => editOrders((order) => void (order['updatedAtUtc'] = String(order['updatedAtUtc']).replace(/Z$/, ''))) },
  'tags null': { breaks: ['int.order.tags', ...ORDER_ANSWERS], fails: ['discovery.responses.contract', 'writes.cancel.legal', 'writes.payment.success'], proxy: () => editOrders((order) => void (order['tags'] = null)) },
  'an empty order page with items null': {
    breaks: ['int.order-page.items'],
    fails: ['discovery.responses.contract', 'feeds.orders.cursor.end'],
    alsoFails: { 'feeds.orders.since.future': 'the empty page it expects arrives with items null' },
    mayFail: { 'writes.archive.feed': 'its walk from just before its own payment ends on an empty page, whose items arrive null, unless another check wrote an order meanwhile' },
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request), (page) => ((page['items'] as unknown[]).length === 0 ? { ...page, items: null } : page)),
  },

  // ── Trip fields ─────────────────────────────────────────────────────────────────────────
  'trips without their number of stops': { breaks: ['int.trip.members'], fails: ['discovery.responses.contract'], proxy: () => editTrips((trip) => void delete trip['stopCount']) },
  'the trip status named state': {
    breaks: ['int.trip.status-name'],
    fails: ['discovery.responses.contract'],
    proxy: () => editTrips(({ status, ...trip }) => Object.fromEntries(Object.entries({ ...trip, state: status }).sort(([a], [b]) => (a === 'state' ? (b === 'shortId' ? 1 : -1) : 0)))),
  },
  'an empty trip page with items null': {
    breaks: ['int.trip-page.items'],
    fails: ['discovery.responses.contract', 'feeds.trips.cursor.end'],
    alsoFails: { 'feeds.trips.since.future': 'the empty page it expects arrives with items null' },
    proxy: () => editJson((request, answer) => answer.status === 200 && is.tripFeed(request), (page) => ((page['items'] as unknown[]).length === 0 ? { ...page, items: null } : page)),
  },

  // ── Key identity ────────────────────────────────────────────────────────────────────────
  'whoami with a numeric tenantId': { breaks: ['int.identity.tenantId'], fails: ['discovery.responses.contract', 'discovery.whoami.shape'], proxy: () => editJson((request, answer) => answer.status === 200 && is.whoami(request), (identity) => ({ ...identity, tenantId: 42 })) },
  'whoami without keyId': { breaks: ['int.identity.keyId'], fails: ['discovery.responses.contract', 'discovery.whoami.shape'], proxy: () => editJson((request, answer) => answer.status === 200 && is.whoami(request), ({ keyId: _gone, ...identity }) => identity) },
  'whoami scopes as one string': {
    breaks: ['int.identity.scopes'],
    fails: ['discovery.responses.contract', 'discovery.whoami.scopes', 'discovery.whoami.shape'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.whoami(request), (identity) => ({ ...identity, scopes: (identity['scopes'] as string[]).join(' ') })),
  },
  'whoami wrapped in an envelope': { breaks: ['int.whoami.response', 'int.identity.tenantId', 'int.identity.keyId', 'int.identity.scopes'], fails: ['discovery.responses.contract', 'discovery.whoami.scopes', 'discovery.whoami.shape'], proxy: () => editJson((request, answer) => answer.status === 200 && is.whoami(request), (identity) => ({ identity })) },
  'whoami refused to a key without scopes': {
    breaks: ['int.whoami.no-scope'],
    fails: ['auth.scope.whoami', 'discovery.responses.decided'],
    alsoFails: { 'discovery.whoami.scopes': 'it reads each key\'s scopes through whoami, which the key without scopes is refused' },
    proxy: (profile) => ({ answer: (answer, request) => (is.whoami(request) && answer.status === 200 && withKey(profile.keys.noScopes)(request) ? problemAnswer(answer, 403, 'about:blank', 'needs a scope') : answer) }),
  },
  'whoami answered as text/plain': { breaks: ['int.service.json'], fails: ['discovery.responses.contract'], proxy: () => setHeader('content-type', () => 'text/plain; charset=utf-8', (request, answer) => is.whoami(request) && answer.status === 200) },
  'whoami missing under /api/v1/integration/': {
    breaks: ['int.versioning.prefix', 'int.whoami.response', 'int.whoami.no-scope', 'int.errors.catalog-type'],
    fails: ['auth.scope.whoami', 'auth.transport.apiKey', 'auth.transport.bearer', 'discovery.responses.decided', 'discovery.whoami.shape', 'http.requestId.unusable', 'problems.catalog', 'sandbox.tenant.archived.reads'],
    alsoFails: { 'discovery.whoami.scopes': 'it reads the scopes through whoami, which is gone', 'auth.suspended.reads': 'one of the reads it tries is whoami, which is gone for every tenant' },
    proxy: () => ({ answer: (answer, request) => (is.whoami(request) && answer.status === 200 ? problemAnswer(answer, 404, 'about:blank', 'no such route') : answer) }),
  },

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
    fails: ['auth.key.missing'],
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
    fails: ['writes.payment.required'],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && answer.status === 400 && /required|missing/i.test(String((answerJson(answer) as { errors?: { message?: string }[] } | undefined)?.errors?.[0]?.message))),
  },
  'a paymentId that is not a uuid accepted': {
    breaks: ['int.payment.paymentId-format'],
    fails: ['writes.payment.paymentId.format'],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.field === 'paymentId' && firstFieldError(answer)?.value === 'not-a-uuid'),
  },
  'a textual amount coerced to a number': {
    breaks: ['int.payment.amount'],
    fails: ['writes.payment.amount.notNumber', 'writes.payment.amount.type'],
    proxy: () => acceptInstead((request, answer) => is.payment(request) && firstFieldError(answer)?.field === 'amount' && String(firstFieldError(answer)?.value) === '12'),
  },
  'a numeric paymentId accepted': {
    breaks: ['int.payment.paymentId'],
    fails: ['writes.payment.required'],
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
    fails: ['feeds.orders.archived.hidden', 'feeds.orders.walks.archived', 'writes.archive.feed'],
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
    fails: ['http.body.malformed', 'http.body.missing'],
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
    wrapStore: (store) => ({ ...store, keys: { ...store.keys, authenticate: (key) => { const found = store.keys.authenticate(key); return found && { ...found, rateLimit: 6000 }; } } }),
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

  // ── Feeds ───────────────────────────────────────────────────────────────────────────────
  'order pages newest first': {
    breaks: ['int.orders-feed.oldest-first'],
    fails: ['feeds.orders.order', 'feeds.orders.order.ties'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request), (page) => ({ ...page, items: [...(page['items'] as unknown[])].reverse() })),
  },
  'trip pages newest first': {
    breaks: ['int.trips-feed.oldest-first'],
    fails: ['feeds.trips.order', 'feeds.trips.order.ties'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.tripFeed(request), (page) => ({ ...page, items: [...(page['items'] as unknown[])].reverse() })),
  },
  'limit not capped': {
    breaks: ['int.orders-feed.limit', 'int.trips-feed.params', 'int.limits.page-size'],
    fails: ['discovery.responses.contract', 'feeds.orders.limit.cap', 'feeds.trips.limit.cap'],
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
    fails: ['feeds.orders.limit.default'],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && !queryOf(request).has('limit') ? { ...request, ...withQuery(request, (query) => query.set('limit', '20')) } : request) }),
  },
  'a malformed cursor served from the start': {
    breaks: ['int.orders-feed.cursor', 'int.trips-feed.refusals'],
    fails: ['feeds.orders.cursor.malformed', 'feeds.orders.cursor.unissued', 'feeds.trips.cursor.malformed', 'feeds.trips.cursor.unissued'],
    proxy: () => resendChanged((_, answer) => answer.status === 400 && firstFieldError(answer)?.field === 'cursor', (request) => withQuery(request, (query) => query.delete('cursor'))),
  },
  'an unknown order status served unfiltered': {
    breaks: ['int.orders-feed.status'],
    fails: ['feeds.orders.status.unknown', 'feeds.orders.status.unknown-field'],
    proxy: () => resendChanged((request, answer) => is.orderFeed(request) && answer.status === 400 && firstFieldError(answer)?.field === 'status', (request) => withQuery(request, (query) => query.delete('status'))),
  },
  'an unknown trip status served unfiltered': {
    breaks: ['int.trips-feed.refusals'],
    fails: ['feeds.trips.status.unknown', 'feeds.trips.status.unknown-field'],
    proxy: () => resendChanged((request, answer) => is.tripFeed(request) && answer.status === 400 && firstFieldError(answer)?.field === 'status', (request) => withQuery(request, (query) => query.delete('status'))),
  },
  'the order status filter ignored': {
    breaks: ['int.orders-feed.status'],
    fails: ['feeds.orders.status.filter', 'feeds.orders.status.unknown', 'feeds.orders.status.unknown-field'],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && queryOf(request).has('status') && !queryOf(request).has('cursor') ? { ...request, ...withQuery(request, (query) => query.delete('status')) } : request) }),
  },
  'PartiallyCollected refused as a filter': {
    breaks: ['int.status.values'],
    fails: ['feeds.orders.status.values'],
    proxy: () => ({
      answer: (answer, request) =>
        is.orderFeed(request) && queryOf(request).getAll('status').includes('PartiallyCollected')
          ? withJson({ ...answer, status: 400, headers: { ...answer.headers, 'content-type': 'application/problem+json' } }, { type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: 'unknown status', errors: [{ field: 'status', code: 'api.malformed_request', value: 'PartiallyCollected', message: 'unknown status' }] })
          : answer,
    }),
  },
  'since ignored on the order feed': { breaks: ['int.orders-feed.since', 'int.orders-feed.follows-changes'], fails: ['feeds.orders.cursor.end', 'feeds.orders.follow.changes', 'feeds.orders.since.filter', 'feeds.orders.since.future', 'feeds.orders.since.invalid', 'feeds.orders.since.offset'], proxy: () => ({ request: (request) => (is.orderFeed(request) && queryOf(request).has('since') ? { ...request, ...withQuery(request, (query) => query.delete('since')) } : request) }) },
  'since ignored on the trip feed': { breaks: ['int.trips-feed.params'], fails: ['feeds.trips.cursor.end', 'feeds.trips.since.filter', 'feeds.trips.since.future', 'feeds.trips.since.invalid', 'feeds.trips.since.offset'], proxy: () => ({ request: (request) => (is.tripFeed(request) && queryOf(request).has('since') ? { ...request, ...withQuery(request, (query) => query.delete('since')) } : request) }) },
  'a since offset read as UTC on the order feed': {
    breaks: ['int.orders-feed.since'],
    fails: ['feeds.orders.since.offset'],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && /[+-]\d\d:\d\d$/.test(queryOf(request).get('since') ?? '') ? { ...request, ...withQuery(request, (query) => query.set('since', query.get('since')!.replace(/[+-]\d\d:\d\d$/, 'Z'))) } : request) }),
  },
  'order nextCursor null while items remain': {
    breaks: ['int.orders-feed.caught-up', 'int.order-page.nextCursor'],
    fails: ['feeds.orders.cursor.more', 'feeds.orders.walk.same-items'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request) && queryOf(request).has('cursor') && Number(queryOf(request).get('limit') ?? 50) <= 10, (page) => ({ ...page, nextCursor: null })),
  },
  'trip nextCursor null while items remain': {
    breaks: ['int.trips-feed.oldest-first', 'int.trip-page.nextCursor'],
    fails: ['feeds.trips.cursor.more', 'feeds.trips.walk.same-items'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.tripFeed(request) && queryOf(request).has('cursor') && Number(queryOf(request).get('limit') ?? 50) <= 10, (page) => ({ ...page, nextCursor: null })),
  },
  'a cancel that does not move the order to the tail': {
    breaks: ['int.orders-feed.follows-changes'],
    fails: ['feeds.orders.follow.changes'],
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
  'delivered orders recorded as collected': { breaks: ['int.status.delivery-ends'], fails: ['feeds.orders.status.ends'], wrapStore: endStatusRecordedAs('Delivery', 'FullyDelivered', 'Collected') },
  'collected pickups recorded as delivered': { breaks: ['int.status.pickup-ends'], fails: ['feeds.orders.status.ends'], wrapStore: endStatusRecordedAs('Pickup', 'Collected', 'FullyDelivered') },
  'a rebox ending as collected': { breaks: ['int.status.rebox'], fails: ['feeds.orders.status.ends'], wrapStore: endStatusRecordedAs('Rebox', 'FullyDelivered', 'Collected') },

  // ── The control plane's seed rules ──────────────────────────────────────────────────────
  '101 capability skills accepted': { breaks: ['int.limits.skills'], fails: ['sandbox.tenants.skills'], proxy: () => sandboxAccepts('PUT', /\/skills$/, 'tenants.skills.too_many') },
  'a revoked key revoked again': { breaks: ['int.auth.key-rules', 'cat.apikeys'], fails: ['sandbox.apikeys'], proxy: () => sandboxAccepts('POST', /\/keys\/[^/]+\/revoke$/, 'apikeys.already_revoked') },
  'a repeated tag name accepted': { breaks: ['int.tag.rules'], fails: ['sandbox.tags', 'sandbox.tags.decided'], proxy: () => sandboxAccepts('POST', /\/tags$/, 'tags.duplicate') },
  'a 65-character tag name accepted': { breaks: ['int.limits.tag-name', 'int.tag.rules'], fails: ['sandbox.tags'], proxy: () => sandboxAccepts('POST', /\/tags$/, 'tags.name.invalid') },
  'a 65-character mini-status name accepted': { breaks: ['int.limits.mini-status-name', 'int.order.mini-status-rules'], fails: ['sandbox.ministatuses'], proxy: () => sandboxAccepts('POST', /\/ministatuses$/, 'ministatuses.name.invalid') },
  'a 129-character order mini-status accepted': { breaks: ['int.limits.order-mini-status', 'int.order.mini-status-rules'], fails: ['sandbox.ministatuses'], proxy: () => sandboxAccepts('PUT', /\/mini-status$/, 'orders.miniStatus.invalid') },
  'an import of 1001 rows accepted': { breaks: ['int.limits.import-rows'], fails: ['sandbox.import.limit'], proxy: () => sandboxAccepts('POST', /\/order-imports$/, 'import.rows.too_many') },
  'a started trip started again': { breaks: ['int.trip.start'], fails: ['sandbox.trips.lifecycle'], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/start$/, 'planning.trip_not_confirmed') },
  'a trip with an open stop completed': { breaks: ['int.trip.complete'], fails: ['sandbox.trips.lifecycle'], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/complete$/, 'planning.trip_has_open_stops') },
  'a trip cancelled without a reason': { breaks: ['int.trip.cancel'], fails: ['sandbox.trips.lifecycle'], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/cancel$/, 'trips.mutation.cancelReasonRequired') },
};
