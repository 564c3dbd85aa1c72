/**
 * Broken variants, the resources: an order feed serving every tenant, order and trip fields
 * of the wrong type or missing, and keys that answer for another identity.
 */
import { portable } from '../../server/store/dialect.ts';
import { makeFeedPage, TRIP_JSON } from '../../server/store/feed-sql.ts';
import { orderStatuses, type OrderStatusName } from '../../spec/load.ts';
import type { BrokenVariant } from './harness.ts';
import { editJson, editOrders, editTrips, is, orderFeedOver, overrideOrders, problemAnswer, setHeader, withKey } from './rewrites.ts';

/** An Order body broken everywhere is broken in the write answers too: "Response 200: Order". */
const ORDER_ANSWERS = ['int.payment.response', 'int.cancel.response'];

/** Tenancy, order and trip fields, key identity. */
export const brokenResources: Record<string, BrokenVariant> = {
  // ── Tenancy ─────────────────────────────────────────────────────────────────────────────
  'the order feed serves every tenant': {
    breaks: ['int.service.tenant-only', 'int.auth.one-tenant'],
    // The control plane's order list (D87) reads the same query backwards, so it leaks too.
    fails: ['auth.tenant.feed', 'feeds.orders.walks.tenant', 'sandbox.orders.list'],
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
    // The control plane's trip list (D87) reads the trips' feed page backwards, so it leaks too.
    fails: ['feeds.trips.walks.tenant', 'sandbox.trips.list'],
    wrapStore: (store) => {
      const feedPage = makeFeedPage(store.sql, {
        select: portable`SELECT t.updated_at, t.id, t.status, ${TRIP_JSON} AS json FROM trips t WHERE ? IS NOT NULL AND (t.updated_at, t.id) > (?, ?)`,
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
  // The feed read before the run must not take these for a profile used up (prepareTarget): the run goes on, and the checks report them.
  'every order status on the feed by number': {
    breaks: ['int.order.status', 'int.status.by-name'],
    fails: ['discovery.responses.contract'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request), (page) => ({ ...page, items: (page['items'] as Record<string, unknown>[]).map((order) => ({ ...order, status: orderStatuses.indexOf(order['status'] as OrderStatusName) })) })),
  },
  'orders on the feed without updatedAtUtc': {
    breaks: ['int.order.all-present', 'int.order.updatedAtUtc'],
    fails: ['discovery.responses.contract'],
    alsoFails: Object.fromEntries(['feeds.orders.archived.hidden', 'feeds.orders.follow.changes', 'feeds.orders.follow.payment', 'feeds.orders.cursor.end', 'feeds.orders.cursor.filters-as-sent', 'feeds.orders.cursor.malformed', 'feeds.orders.cursor.more', 'feeds.orders.cursor.since-ignored', 'feeds.orders.cursor.unissued', 'feeds.orders.limit.default', 'feeds.orders.order', 'feeds.orders.order.ties', 'feeds.orders.since.filter', 'feeds.orders.since.inclusive', 'feeds.orders.since.offset', 'feeds.orders.status.ends', 'feeds.orders.status.filter', 'feeds.orders.walk.same-items'].map((id) => [id, 'it follows the feed by each item\'s updatedAtUtc, and an item without one is unreadable'])),
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request), (page) => ({ ...page, items: (page['items'] as Record<string, unknown>[]).map(({ updatedAtUtc: _gone, ...order }) => order) })),
  },
  'the order feed answered as an HTML page': {
    breaks: ['int.service.json', 'int.order-page.items'],
    fails: ['discovery.responses.contract'],
    alsoFails: Object.fromEntries(['auth.tenant.feed', 'feeds.orders.cursor.end', 'feeds.orders.cursor.filters-as-sent', 'feeds.orders.cursor.malformed', 'feeds.orders.cursor.more', 'feeds.orders.cursor.since-ignored', 'feeds.orders.cursor.unissued', 'feeds.orders.limit.cap', 'feeds.orders.limit.default', 'feeds.orders.order', 'feeds.orders.order.ties', 'feeds.orders.since.filter', 'feeds.orders.since.future', 'feeds.orders.since.inclusive', 'feeds.orders.since.offset', 'feeds.orders.status.ends', 'feeds.orders.status.filter', 'feeds.orders.status.values', 'feeds.orders.walk.same-items'].map((id) => [id, 'it reads the order feed, which answers no page'])),
    proxy: () => ({ answer: (answer, request) => (answer.status === 200 && is.orderFeed(request) ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from('<!doctype html><html><body><h1>Orders</h1></body></html>') } : answer) }),
  },
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
};
