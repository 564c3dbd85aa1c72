/**
 * Seed-valid alternatives to the reference: each obeys every sentence of the seeds but decides
 * the gaps it names otherwise than spec/DECISIONS.md. Without `--strict` each passes; with it,
 * each fails exactly the DECISION checks it lists (alternatives-*.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { ORDER_JSON } from '../../server/store/feed-sql.ts';
import type { SqliteStore } from '../../server/store/index.ts';
import { openapi } from '../../spec/load.ts';
import type { Profile } from '../../conformance/engine/types/profile.ts';
import { httpAlternatives } from './alternatives-http.ts';
import type { AlternativeVariant } from './harness.ts';
import { dropHeader, editJson, editOrders, editProblems, editTrips, is, overrideOrders, pathOf, queryOf, restatus, resendChanged, setHeader, typeOf, withJson, withQuery } from './rewrites.ts';
import { answerJson } from '../testing/conformance/proxy.ts';

type JsonObject = Record<string, unknown>;

/** Trip members as a target might name them (the seeds name only `status`). */
const otherTripNames = { id: 'tripId', shortId: 'code', warehouseId: 'depotId', driverId: 'courierId', vehicleId: 'truckId', stopCount: 'stops', plannedAtUtc: 'plannedAt', updatedAtUtc: 'changedAt' } as const;

/** The members spec/openapi.yaml defines for the request body schema `name`. */
function bodyMembers(name: string): string[] {
  const schemas = (openapi['components'] as { schemas: Record<string, { properties?: Record<string, unknown> }> }).schemas;
  return Object.keys(schemas[name]?.properties ?? {});
}

/** Every RFC 3339 timestamp with milliseconds in a JSON value, written without them. */
function withoutMilliseconds(value: unknown): unknown {
  if (typeof value === 'string') return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value) ? `${value.slice(0, 19)}Z` : value;
  if (Array.isArray(value)) return value.map(withoutMilliseconds);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutMilliseconds(item)]));
  return value;
}

export const alternativeVariants: Record<string, AlternativeVariant> = {
  'since exclusive': {
    decides: ['D4'],
    failsStrict: ['feeds.orders.since.inclusive', 'feeds.trips.since.inclusive'],
    wrapStore: (store) => ({
      ...store,
      orders: { ...store.orders, feedPage: (tenantId, query) => store.orders.feedPage(tenantId, query.since ? { ...query, since: new Date(Date.parse(query.since) + 1).toISOString() } : query) },
      trips: { ...store.trips, feedPage: (tenantId, query) => store.trips.feedPage(tenantId, query.since ? { ...query, since: new Date(Date.parse(query.since) + 1).toISOString() } : query) },
    }),
  },
  'Retry-After as an HTTP-date': {
    decides: ['D14', 'D13'],
    failsStrict: ['discovery.responses.decided', 'idempotency.inflight.decided', 'ratelimit.exceeded.decided'],
    proxy: () => setHeader('retry-after', (answer) => new Date(Date.now() + 1000 * Math.max(1, Number(answer.headers['retry-after']) || 1)).toUTCString(), (_, answer) => answer.status === 429),
  },
  // Whole seconds on the wire: items of one second then come in the order of their hidden
  // milliseconds, not of their ids, which decides D7 otherwise too.
  'timestamps without milliseconds': {
    decides: ['D20', 'D7'],
    failsStrict: ['discovery.responses.decided', 'discovery.timestamps', 'feeds.orders.order.ties'],
    mayFailStrict: { 'feeds.trips.order.ties': 'the fixture trips have one stamp a second; two trips the run changes within one second tie only then' },
    proxy: () => editJson((request, answer) => is.integration(request) && answer.status === 200, (body) => withoutMilliseconds(body)),
  },
  'a repeated paymentId refused 409': {
    decides: ['D10'],
    failsStrict: ['writes.payment.repeat'],
    wrapStore: (store) => {
      const recorded = store.db.prepare<[string, string, string], number>(
        'SELECT 1 FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.tenant_id = ? AND o.external_id = ? AND o.archived_at IS NULL AND p.payment_id = ?',
      ).pluck();
      return overrideOrders(store, (orders) => ({
        attachPayment: async (tenantId, externalId, payment) => (recorded.get(tenantId, externalId, payment.paymentId) === 1 ? { ok: false, reason: 'illegal', status: 'paid' } : orders.attachPayment(tenantId, externalId, payment)),
      }));
    },
  },
  'cancel ends Closed': {
    decides: ['D11'],
    failsStrict: ['writes.cancel.status'],
    wrapStore: (store) => {
      const close = store.db.prepare("UPDATE orders SET status = 'Closed' WHERE tenant_id = ? AND external_id = ? AND archived_at IS NULL");
      return overrideOrders(store, (orders) => ({
        cancel: async (tenantId, externalId, reason) => {
          const result = await orders.cancel(tenantId, externalId, reason);
          if (!result.ok) return result;
          close.run(tenantId, externalId);
          return { ok: true, orderJson: result.orderJson.replace('"status":"Cancelled"', '"status":"Closed"') };
        },
      }));
    },
  },
  'archive allowed on a trip': {
    decides: ['D12'],
    failsStrict: ['writes.archive.onTrip'],
    wrapStore: (store) => {
      const live = store.db.prepare<[string, string], { id: string; status: string }>('SELECT id, status FROM orders WHERE tenant_id = ? AND external_id = ? AND archived_at IS NULL');
      const archive = store.db.prepare('UPDATE orders SET archived_at = ?, updated_at = ?, trip_id = NULL WHERE id = ?');
      return overrideOrders(store, (orders) => ({
        archive: async (tenantId, externalId) => {
          const found = live.get(tenantId, externalId);
          if (found === undefined || (found.status !== 'Planned' && found.status !== 'InProgress')) return orders.archive(tenantId, externalId);
          await store.sql.write(tenantId, function* () {
            const stamp = yield* store.tenants.steps.nextStamp(tenantId);
            archive.run(stamp, stamp, found.id);
          });
          return { ok: true, orderJson: '{}' };
        },
      }));
    },
  },
  '404 for a wrong method': { decides: ['D21'], failsStrict: ['http.method.notAllowed'], proxy: () => restatus((_, answer) => answer.status === 405, 404) },
  'no request id': {
    decides: ['D23'],
    failsStrict: ['discovery.responses.decided', 'http.requestId.echo', 'http.requestId.present', 'http.requestId.unusable'],
    proxy: () => ({
      answer: (answer, request) => {
        if (!is.integration(request)) return answer;
        const { 'x-request-id': _gone, ...headers } = answer.headers;
        const body = answerJson(answer) as JsonObject | undefined;
        const instance = typeof body?.['instance'] === 'string' ? String(body['instance']).split('#')[0] : undefined;
        return { ...answer, headers, ...(instance === undefined ? {} : { body: Buffer.from(JSON.stringify({ ...body, instance })) }) };
      },
    }),
  },
  'no rate-limit headers': {
    decides: ['D14'],
    failsStrict: ['discovery.responses.decided', 'ratelimit.headers'],
    proxy: () => ({
      answer: (answer) => {
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !name.startsWith('ratelimit-')));
        return { ...answer, headers };
      },
    }),
  },
  'a body limit of 64 KiB': {
    decides: ['D18'],
    failsStrict: ['http.body.limit'],
    rawRefuse: (head) => {
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (length <= 64 * 1024 || !head.includes(' /api/v1/integration/')) return undefined;
      const body = JSON.stringify({ type: 'api.payload_too_large', title: 'Payload Too Large', status: 413, detail: 'over 64 KiB', instance: null });
      return `HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/problem+json\r\nx-request-id: req_limit\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
    },
  },
  'other trip field names': {
    decides: ['D15'],
    failsStrict: ['discovery.responses.decided'],
    proxy: () => editTrips((trip) => Object.fromEntries(Object.entries(trip).map(([name, value]) => [otherTripNames[name as keyof typeof otherTripNames] ?? name, value]))),
    profile: (profile: Profile) => ({
      ...profile,
      choices: { ...profile.choices, tripFields: { id: 'tripId', shortCode: 'code', warehouse: 'depotId', driver: 'courierId', vehicle: 'truckId', stopCount: 'stops', plannedAt: 'plannedAt', updatedAt: 'changedAt' } },
    }),
  },
  'the key not taken as a Bearer token': {
    decides: ['D1'],
    failsStrict: ['auth.transport.bearer'],
    proxy: () => ({ request: (request) => (is.integration(request) && request.headers['authorization']?.startsWith('Bearer ') ? { ...request, headers: { ...request.headers, authorization: 'Bearer not-a-key' } } : request) }),
  },
  'a limit of 0 served as 1': {
    decides: ['D8'],
    failsStrict: ['acceptance.refused.decided', 'feeds.orders.limit.invalid', 'feeds.trips.limit.invalid'],
    proxy: () => resendChanged((request, answer) => (is.orderFeed(request) || is.tripFeed(request)) && answer.status === 400 && /^-?\d+$/.test(queryOf(request).get('limit') ?? ''), (request) => withQuery(request, (query) => query.set('limit', '1'))),
  },
  'a second cancel answered 200': {
    decides: ['D11'],
    failsStrict: ['writes.cancel.status'],
    wrapStore: (store) => {
      const cancelled = store.db.prepare<[string, string], string>(`SELECT ${ORDER_JSON.sqlite} FROM orders o WHERE o.tenant_id = ? AND o.external_id = ? AND o.archived_at IS NULL AND o.status = 'Cancelled'`).pluck();
      return overrideOrders(store, (orders) => ({
        // Already cancelled: the order as it stands, nothing changed.
        cancel: async (tenantId, externalId, reason) => {
          const orderJson = cancelled.get(tenantId, externalId);
          return orderJson === undefined ? orders.cancel(tenantId, externalId, reason) : { ok: true, orderJson };
        },
      }));
    },
  },
  'createdAtUtc with microseconds and +00:00': {
    decides: ['D20'],
    failsStrict: ['discovery.responses.decided', 'discovery.timestamps'],
    proxy: () => editOrders((order) => void (order['createdAtUtc'] = String(order['createdAtUtc']).replace(/Z$/, '000+00:00'))),
  },
  'since as a date alone or with a space for T read as midnight UTC or the time given': {
    decides: ['D9'],
    failsStrict: ['acceptance.refused.decided', 'feeds.orders.since.invalid', 'feeds.trips.since.invalid'],
    proxy: () => ({
      request: (request) => {
        const since = queryOf(request).get('since');
        if (!(is.orderFeed(request) || is.tripFeed(request)) || since === null) return request;
        const lenient = /^\d{4}-\d{2}-\d{2}$/.test(since) ? `${since}T00:00:00Z` : since.replace(/^(\d{4}-\d{2}-\d{2}) /, '$1T');
        return lenient === since ? request : { ...request, ...withQuery(request, (query) => query.set('since', lenient)) };
      },
    }),
  },
  'a repeated paymentId with another amount kept as an amendment': {
    decides: ['D10'],
    failsStrict: ['writes.payment.recordedOnce'],
    wrapStore: (store) => {
      const amend = store.db.prepare('UPDATE order_payments SET amount = ?, currency = ? WHERE order_id = ? AND payment_id = ?');
      return overrideOrders(store, (orders) => ({
        attachPayment: async (tenantId, externalId, payment) => {
          const result = await orders.attachPayment(tenantId, externalId, payment);
          // A repeat changes no order (D10): here it rewrites the stored amount and notes the change, the order's updatedAtUtc kept.
          if (result.ok && result.changed?.orderIds.length === 0) {
            const orderId = (JSON.parse(result.orderJson) as { id: string }).id;
            await store.sql.write(tenantId, function* () {
              amend.run(payment.amount, payment.currency, orderId, payment.paymentId);
              yield* store.history.record(orderId, new Date().toISOString(), 'paymentAmended', payment);
            });
          }
          return result;
        },
      }));
    },
  },
  'a payment of a Cancelled order refused 409': {
    decides: ['D10'],
    failsStrict: ['writes.payment.anyStatus'],
    wrapStore: (store) => {
      const statusOf = store.db.prepare<[string, string], string>('SELECT status FROM orders WHERE tenant_id = ? AND external_id = ? AND archived_at IS NULL').pluck();
      return overrideOrders(store, (orders) => ({
        attachPayment: async (tenantId, externalId, payment) => (statusOf.get(tenantId, externalId) === 'Cancelled' ? { ok: false, reason: 'illegal', status: 'Cancelled' } : orders.attachPayment(tenantId, externalId, payment)),
      }));
    },
  },
  'cancel allowed from InProgress': {
    decides: ['D11'],
    failsStrict: ['writes.cancel.inProgress'],
    wrapStore: (store) => {
      const inProgress = store.db.prepare<[string, string], string>("SELECT id FROM orders WHERE tenant_id = ? AND external_id = ? AND archived_at IS NULL AND status = 'InProgress'").pluck();
      const cancel = store.db.prepare("UPDATE orders SET status = 'Cancelled', trip_id = NULL, updated_at = ? WHERE id = ?");
      return overrideOrders(store, (orders) => ({
        cancel: async (tenantId, externalId, reason) => {
          const orderId = inProgress.get(tenantId, externalId);
          if (orderId === undefined) return orders.cancel(tenantId, externalId, reason);
          await store.sql.write(tenantId, function* () {
            const stamp = yield* store.tenants.steps.nextStamp(tenantId);
            cancel.run(stamp, orderId);
            yield* store.history.record(orderId, stamp, 'cancel', { from: 'InProgress', to: 'Cancelled', reason });
          });
          return { ok: true, orderJson: (await store.orders.json(orderId))! };
        },
      }));
    },
  },
  'a paymentId unique per tenant: sent for another order, refused 409': {
    decides: ['D29'],
    failsStrict: ['writes.payment.otherOrder'],
    wrapStore: (store) => {
      const elsewhere = store.db.prepare<[string, string, string], number>(
        'SELECT 1 FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.tenant_id = ? AND o.external_id <> ? AND p.payment_id = ?',
      ).pluck();
      return overrideOrders(store, (orders) => ({
        attachPayment: async (tenantId, externalId, payment) => (elsewhere.get(tenantId, externalId, payment.paymentId) === 1 ? { ok: false, reason: 'illegal', status: 'paid' } : orders.attachPayment(tenantId, externalId, payment)),
      }));
    },
  },
  'body members the contract does not define refused 400': {
    decides: ['D19'],
    failsStrict: ['acceptance.accepted.decided', 'writes.body.unknownFields'],
    proxy: () => ({
      // The write has run upstream by now; the answer says it was refused, as a strict target's would.
      answer: async (answer, request, _resend, requestBody) => {
        const defined = is.payment(request) ? bodyMembers('PaymentRequest') : is.cancel(request) ? bodyMembers('CancelRequest') : undefined;
        if (defined === undefined || answer.status !== 200) return answer;
        const body = JSON.parse((await requestBody()).toString('utf8') || '{}') as JsonObject;
        const unknown = Object.keys(body).find((name) => !defined.includes(name));
        if (unknown === undefined) return answer;
        const message = `${unknown} is not a member of this body`;
        return withJson({ ...answer, status: 400, headers: { ...answer.headers, 'content-type': 'application/problem+json' } }, { type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: message, errors: [{ field: unknown, code: 'api.malformed_request', value: null, message }] });
      },
    }),
  },
  // A target that reads gzip bodies answers the payment inside: 404, as no order carries the id the check sends
  // (padded with spaces to the 415's length, which the server has already declared).
  'gzip request bodies read': {
    decides: ['D47'],
    failsStrict: ['http.contentEncoding'],
    answer: (status, body, request) => {
      if (status !== 415 || !/gzip/i.test(String(request?.headers['content-encoding'] ?? ''))) return undefined;
      const notFound = JSON.stringify({ type: 'orders.notFound', title: 'Not Found', status: 404, detail: 'No order with that external id.', instance: null });
      return notFound.length <= body.length ? { status: 404, body: notFound.padEnd(body.length) } : undefined;
    },
  },
  'the control plane opened by an integration key sent as a Bearer token': {
    decides: ['D30'],
    failsStrict: ['sandbox.access'],
    proxy: (profile) => ({ request: (request) => (is.sandbox(request) && request.headers['authorization'] === `Bearer ${profile.keys.full}` ? { ...request, headers: { ...request.headers, authorization: `Bearer ${profile.sandbox!.token}` } } : request) }),
  },
  'a repeated suspend refused 409': {
    decides: ['D31'],
    failsStrict: ['sandbox.tenants.lifecycle'],
    proxy: () => {
      const suspended = new Set<string>();
      return {
        answer: (answer, request) => {
          const tenant = /^(\/sandbox\/v1\/tenants\/[^/]+)\/(suspend|reactivate|archive)$/.exec(pathOf(request));
          if (tenant === null || answer.status !== 200) return answer;
          const [, path, move] = tenant as unknown as [string, string, string];
          const again = move === 'suspend' && suspended.has(path);
          if (move === 'suspend') suspended.add(path);
          else suspended.delete(path);
          if (!again) return answer;
          return withJson({ ...answer, status: 409, headers: { ...answer.headers, 'content-type': 'application/problem+json' } }, { type: 'tenants.tenant.suspended', title: 'Conflict', status: 409, detail: 'The tenant is already suspended.', instance: null });
        },
      };
    },
  },
  'tag names compared with their case': {
    decides: ['D34'],
    failsStrict: ['sandbox.tags.decided'],
    proxy: () => {
      const names = new Set<string>();
      return {
        answer: async (answer, request, _resend, requestBody) => {
          if (request.method !== 'POST' || !/^\/sandbox\/v1\/tenants\/[^/]+\/tags$/.test(pathOf(request))) return answer;
          const { name, color } = JSON.parse((await requestBody()).toString('utf8')) as { name: string; color: string };
          const key = `${pathOf(request)} ${name}`;
          if (answer.status === 201) names.add(key);
          // Refused only as a repeat of a name spelled the same way.
          if (typeOf(answer) !== 'tags.duplicate' || names.has(key)) return answer;
          names.add(key);
          return withJson({ ...answer, status: 201, headers: { ...answer.headers, 'content-type': 'application/json' } }, { id: randomUUID(), name, color });
        },
      };
    },
  },
  'a deactivated mini-status left out of the directory': {
    decides: ['D35'],
    failsStrict: ['sandbox.ministatuses.decided'],
    proxy: () => editJson((request, answer) => answer.status === 200 && request.method === 'GET' && /\/ministatuses$/.test(pathOf(request)), (list) => ({ ...list, items: ((list['items'] as JsonObject[] | undefined) ?? []).filter((entry) => entry['active'] !== false) })),
  },
  'profiles with pools of 10 ids': {
    decides: ['D39'],
    failsStrict: ['sandbox.profiles'],
    proxy: () => editJson((request, answer) => answer.status === 201 && pathOf(request) === '/sandbox/v1/profiles', (profile) => ({ ...profile, orders: Object.fromEntries(Object.entries(profile['orders'] as Record<string, string[]>).map(([pool, ids]) => [pool, ids.slice(0, 10)])) })),
  },
  'orders of a cancelled trip back to New': {
    decides: ['D43'],
    failsStrict: ['sandbox.trips.cancel'],
    wrapStore: (store) => {
      const renew = store.db.prepare("UPDATE orders SET status = 'New' WHERE status = 'InPlanning' AND id IN (SELECT order_id FROM trip_stops WHERE trip_id = ? AND status = 'Cancelled')");
      return { ...store, tripLife: { ...store.tripLife, cancel: async (tenantId: string, tripId: string, reasonCode: string) => { await store.tripLife.cancel(tenantId, tripId, reasonCode); renew.run(tripId); } } as SqliteStore['tripLife'] };
    },
  },
  "a revoked key's requests left out of the request log": {
    decides: ['D48'],
    failsStrict: ['sandbox.requests'],
    proxy: () => editJson((request, answer) => answer.status === 200 && request.method === 'GET' && /\/requests$/.test(pathOf(request)), (page) => ({ ...page, items: ((page['items'] as JsonObject[] | undefined) ?? []).filter((entry) => entry['status'] !== 401) })),
  },
  // D87 the other way: the control plane lists a tenant's trips in the feed's order whatever `sort` asks.
  'the trip list oldest first, sort ignored': {
    decides: ['D87'],
    failsStrict: ['sandbox.trips.list'],
    proxy: () => ({ request: (request) => (request.method === 'GET' && /^\/sandbox\/v1\/tenants\/[^/]+\/trips$/.test(pathOf(request)) ? { ...request, ...withQuery(request, (query) => query.set('sort', 'oldest')) } : request) }),
  },
  'a 401 without WWW-Authenticate': { decides: ['D3'], failsStrict: ['auth.problem.unauthorized', 'discovery.responses.decided'], proxy: () => dropHeader('www-authenticate', (request, answer) => is.integration(request) && answer.status === 401) },
  'an unknown status filter refused with the field in detail only': {
    decides: ['D9'],
    failsStrict: ['feeds.orders.status.unknown-field', 'feeds.trips.status.unknown-field'],
    proxy: () => editProblems({ status: 400, where: (request) => is.orderFeed(request) || is.tripFeed(request) }, (problem, answer) => (typeOf(answer) === 'api.malformed_request' && (problem['errors'] as { field?: string }[] | undefined)?.[0]?.field === 'status' ? { ...problem, detail: 'unknown status', errors: [{ field: 'status[]', code: 'api.malformed_request', value: null, message: 'unknown status' }] } : problem)),
  },
  // D86 the other way: a parameter the feed does not define is ignored, as a body member is (D19).
  'an unknown query parameter on the feeds ignored': {
    decides: ['D86'],
    failsStrict: ['acceptance.refused.decided'],
    proxy: () => ({
      request: (request) => {
        const known = ['since', 'cursor', 'limit', 'status'];
        if (!(is.orderFeed(request) || is.tripFeed(request)) || [...queryOf(request).keys()].every((name) => known.includes(name))) return request;
        return { ...request, ...withQuery(request, (query) => [...new Set(query.keys())].filter((name) => !known.includes(name)).forEach((name) => query.delete(name))) };
      },
    }),
  },
  // D86 the other way: a limit sent twice counts its last value, as many frameworks read it.
  'a limit sent twice read as its last value': {
    decides: ['D86'],
    failsStrict: ['acceptance.refused.decided'],
    proxy: () => ({ request: (request) => ((is.orderFeed(request) || is.tripFeed(request)) && queryOf(request).getAll('limit').length > 1 ? { ...request, ...withQuery(request, (query) => query.set('limit', query.getAll('limit').at(-1)!)) } : request) }),
  },
  ...httpAlternatives,
};
