/**
 * Small rewrites for the proxy in front of the reference, each changing one thing of what the
 * target answers, and store wraps that change one rule of the reference's domain. Test code only.
 */
import { makeFeedPage, ORDER_JSON } from '../../server/store/feed-sql.ts';
import { portable } from '../../server/store/dialect.ts';
import type { SqliteStore, Store } from '../../server/store/index.ts';
import type { OrderStatusName, OrderType } from '../../spec/load.ts';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type ProxiedRequest, type ProxyRewrite } from '../testing/conformance/proxy.ts';

type JsonObject = Record<string, unknown>;

/** The path of a request, without its query. */
export const pathOf = (request: ProxiedRequest) => request.url.split('?')[0]!;
/** The query of a request. */
export const queryOf = (request: ProxiedRequest) => new URL(request.url, 'http://proxy').searchParams;
/** True for a request to the integration API's order feed, trip feed, whoami or an order write. */
export const is = {
  orderFeed: (request: ProxiedRequest) => request.method === 'GET' && pathOf(request) === '/api/v1/integration/orders',
  tripFeed: (request: ProxiedRequest) => request.method === 'GET' && pathOf(request) === '/api/v1/integration/trips',
  whoami: (request: ProxiedRequest) => pathOf(request) === '/api/v1/integration/whoami',
  payment: (request: ProxiedRequest) => request.method === 'POST' && /\/externalid\/[^/]+\/payment$/.test(pathOf(request)),
  cancel: (request: ProxiedRequest) => request.method === 'POST' && /\/externalid\/[^/]+\/cancel$/.test(pathOf(request)),
  archive: (request: ProxiedRequest) => request.method === 'DELETE' && /^\/api\/v1\/integration\/orders\/externalid\/[^/]+$/.test(pathOf(request)),
  integration: (request: ProxiedRequest) => pathOf(request).startsWith('/api/v1/integration/'),
  sandbox: (request: ProxiedRequest) => pathOf(request).startsWith('/sandbox/v1/'),
};

/** `answer` with `body` as its JSON body (Content-Length fixed by the proxy). */
export function withJson(answer: ProxiedAnswer, body: unknown): ProxiedAnswer {
  return { ...answer, body: Buffer.from(JSON.stringify(body)) };
}

/** Rewrites the JSON body of every answer `when` holds for; `edit` returns the new body (or changes it in place). */
export function editJson(when: (request: ProxiedRequest, answer: ProxiedAnswer) => boolean, edit: (body: JsonObject, request: ProxiedRequest, answer: ProxiedAnswer) => unknown): ProxyRewrite {
  return {
    answer: (answer, request) => {
      const body = answerJson(answer);
      if (body === null || typeof body !== 'object' || !when(request, answer)) return answer;
      const edited = edit(body as JsonObject, request, answer);
      return withJson(answer, edited === undefined ? body : edited);
    },
  };
}

/** Every order of a 200 answer (feed items, payment and cancel bodies) through `edit`. */
export function editOrders(edit: (order: JsonObject) => void): ProxyRewrite {
  return editJson(
    (request, answer) => answer.status === 200 && (is.orderFeed(request) || is.payment(request) || is.cancel(request)),
    (body, request) => {
      for (const order of is.orderFeed(request) ? ((body['items'] as JsonObject[] | undefined) ?? []) : [body]) edit(order);
    },
  );
}

/** Every trip of a 200 trip-feed page through `edit`. */
export function editTrips(edit: (trip: JsonObject) => JsonObject | void): ProxyRewrite {
  return editJson(
    (request, answer) => answer.status === 200 && is.tripFeed(request),
    (page) => ({ ...page, items: ((page['items'] as JsonObject[] | undefined) ?? []).map((trip) => edit(trip) ?? trip) }),
  );
}

/** Every problem body of the integration API with `status` (and, if given, `type`) through `edit`. */
export function editProblems(match: { status?: number; type?: string; where?: (request: ProxiedRequest) => boolean }, edit: (problem: JsonObject, answer: ProxiedAnswer) => unknown): ProxyRewrite {
  return editJson(
    (request, answer) =>
      is.integration(request) &&
      (match.where?.(request) ?? true) &&
      (match.status === undefined || answer.status === match.status) &&
      (match.type === undefined || (answerJson(answer) as JsonObject | undefined)?.['type'] === match.type),
    (problem, _request, answer) => edit(problem, answer),
  );
}

/** Answers matching `when` get `status` (and the problem's `status` member with it), the body otherwise kept. */
export function restatus(when: (request: ProxiedRequest, answer: ProxiedAnswer) => boolean, status: number): ProxyRewrite {
  return {
    answer: (answer, request) => {
      if (!when(request, answer)) return answer;
      const body = answerJson(answer) as JsonObject | undefined;
      return body && typeof body === 'object' ? withJson({ ...answer, status }, { ...body, status }) : { ...answer, status };
    },
  };
}

/** The type of a problem answer, if it is one. */
export const typeOf = (answer: ProxiedAnswer) => (answerJson(answer) as JsonObject | undefined)?.['type'];
/** The first field error of a problem answer: field and value. */
export const firstFieldError = (answer: ProxiedAnswer) => ((answerJson(answer) as { errors?: { field?: string; value?: unknown }[] } | undefined)?.errors ?? [])[0];

/** A valid Order, for a broken target that says 200 where the reference refuses. */
export const madeUpOrder = {
  id: '00000000-0000-4000-8000-00000000abcd',
  externalId: 'MADE-UP-1',
  shortId: 'ORD-MADE-UP',
  status: 'New',
  miniStatus: null,
  type: 'Delivery',
  customId: null,
  createdAtUtc: '2026-10-01T00:00:00.000Z',
  updatedAtUtc: '2026-10-01T00:00:00.000Z',
  tags: [],
};

/** Answers matching `when` become 200 with a made-up Order: the target accepts what it should refuse. */
export function acceptInstead(when: (request: ProxiedRequest, answer: ProxiedAnswer) => boolean): ProxyRewrite {
  return {
    answer: (answer, request) =>
      when(request, answer) ? { status: 200, headers: { ...answer.headers, 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from(JSON.stringify(madeUpOrder)) } : answer,
  };
}

/** A header dropped from every answer `when` holds for. */
export function dropHeader(name: string, when: (request: ProxiedRequest, answer: ProxiedAnswer) => boolean = () => true): ProxyRewrite {
  return {
    answer: (answer, request) => {
      if (!when(request, answer)) return answer;
      const { [name]: _gone, ...headers } = answer.headers;
      return { ...answer, headers };
    },
  };
}

/** A header set on every answer `when` holds for. */
export function setHeader(name: string, value: (answer: ProxiedAnswer) => string, when: (request: ProxiedRequest, answer: ProxiedAnswer) => boolean): ProxyRewrite {
  return { answer: (answer, request) => (when(request, answer) ? { ...answer, headers: { ...answer.headers, [name]: value(answer) } } : answer) };
}

/** A rewrite that resends the request changed by `change` when `when` holds for its answer. */
export function resendChanged(when: (request: ProxiedRequest, answer: ProxiedAnswer) => boolean, change: (request: ProxiedRequest) => Partial<ProxiedRequest>): ProxyRewrite {
  const answer: AnswerRewrite = (upstream, request, resend) => (when(request, upstream) ? resend(change(request)) : upstream);
  return { answer };
}

/** `request` with its query changed by `edit`. */
export function withQuery(request: ProxiedRequest, edit: (query: URLSearchParams) => void): Partial<ProxiedRequest> {
  const url = new URL(request.url, 'http://proxy');
  edit(url.searchParams);
  return { url: `${url.pathname}${url.search}` };
}

type Orders = SqliteStore['orders'];
/** The order store's methods as plain functions (a replacement need not be a transaction). */
type OrderMethods = { [K in keyof Orders]: Orders[K] extends (...args: infer A) => infer R ? (...args: A) => R : Orders[K] };

/** The store with `orders` methods replaced by `override(original)`. */
export function overrideOrders<S extends Store>(store: S, override: (orders: Orders) => Partial<OrderMethods>): S {
  return { ...store, orders: { ...store.orders, ...(override(store.orders) as Partial<Orders>) } };
}

/** The order feed of a store, over `where` instead of the real filter. */
export function orderFeedOver<S extends Store>(store: S, where: string): S {
  const feedPage = makeFeedPage(store.sql, { select: portable`SELECT o.updated_at, o.id, o.status, ${ORDER_JSON} AS json FROM orders o WHERE ${where}`, orderBy: 'o.updated_at, o.id', statusColumn: 'o.status' });
  return overrideOrders(store, () => ({ feedPage }));
}

/** A request made with the profile key `key` (its secret in X-Api-Key). */
export const withKey = (key: string | undefined) => (request: { headers: Record<string, string> }) => key !== undefined && request.headers['x-api-key'] === key;

/** Problem answers of a control-plane request matching `path` and `type`, turned into 200 `{}`: the sandbox accepts what it should refuse. */
export function sandboxAccepts(method: string, path: RegExp, type: string): ProxyRewrite {
  return {
    answer: (answer, request) =>
      request.method === method && path.test(pathOf(request)) && typeOf(answer) === type ? { status: 200, headers: { ...answer.headers, 'content-type': 'application/json' }, body: Buffer.from('{}') } : answer,
  };
}

/**
 * A store that records every order of `type` in end status `from` as `to` (read before each page,
 * so the feed, its filters and the writes all see it).
 */
export function endStatusRecordedAs(type: OrderType, from: OrderStatusName, to: OrderStatusName): (store: SqliteStore) => SqliteStore {
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

/** A problem+json answer of `status`, as the reference would write one. */
export function problemAnswer(answer: ProxiedAnswer, status: number, type: string, detail: string): ProxiedAnswer {
  const title = { 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict' }[status] ?? 'Error';
  return withJson({ status, headers: { ...answer.headers, 'content-type': 'application/problem+json' }, body: Buffer.alloc(0) }, { type, title, status, detail, instance: null });
}
