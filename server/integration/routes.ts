/**
 * The integration API: one route per operation of `spec/openapi.yaml`, each behind the
 * same chain — authenticate, rate-limit, check scope, then for writes the idempotency key,
 * the body and the tenant's state — all driven by the operation's spec.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { KeyIdentity } from '../../spec/load.ts';
import { operations } from '../../spec/load.ts';
import type { CursorCodec } from '../domain/cursor.ts';
import { makeFaultInjection } from '../faults/inject.ts';
import { makeAuth, makeRequireScope } from '../http/auth.ts';
import { makeJsonBody } from '../http/body.ts';
import { contextOf, principalOf } from '../http/context.ts';
import type { DispatchRoute } from '../http/dispatch.ts';
import { makeIdempotency } from '../idempotency/middleware.ts';
import { problem } from '../http/problem.ts';
import { makeRateLimit, makeSharedRateLimit } from '../http/rate-limit.ts';
import { sendJsonText } from '../http/reply.ts';
import { makeValidate } from '../http/validate.ts';
import type { Store } from '../store/index.ts';
import { makeFeedHandler } from './feeds.ts';
import { makeOrderWriteHandlers } from '../orders/writes.ts';

/** `/a/{b}/c` → `/a/:b/c` (Express path syntax). */
export function expressPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

// requirement: D22
// requirement: cat.tenants.suspended
// requirement: cat.tenants.suspended-reads
// requirement: cat.tenants.archived
/** Middleware: a suspended or archived tenant's writes are refused (D22); reads keep working. */
function tenantWritable(_req: Request, res: Response, next: NextFunction): void {
  const { tenantState } = principalOf(res);
  if (tenantState === 'Suspended') next(problem('tenants.tenant.suspended'));
  else if (tenantState === 'Archived') next(problem('tenants.tenant.archived'));
  else next();
}

// requirement: int.whoami.response
// requirement: int.identity.tenantId
// requirement: int.identity.keyId
// requirement: int.identity.scopes
function whoami(_req: Request, res: Response): void {
  const { tenantId, keyId, scopes } = principalOf(res);
  const identity: KeyIdentity = { tenantId, keyId, scopes };
  sendJsonText(res, 200, JSON.stringify(identity));
}

/** Middleware: names the operation the request reached (the request log records it, D48). */
function reached(operationId: string): RequestHandler {
  return function operation(_req: Request, res: Response, next: NextFunction): void {
    contextOf(res).operation = operationId;
    next();
  };
}

/** The integration API's routes over `store`: each operation's method, path template and chain, served by `makeDispatch` (and by Express for what it does not take). */
export function makeIntegrationRoutes(options: { store: Store; cursors: CursorCodec; bodyIdleTimeoutMs: number }): DispatchRoute[] {
  const { store, cursors } = options;
  const writes = makeOrderWriteHandlers({ orders: store.orders });
  const handlers: Record<string, RequestHandler> = {
    orderFeed: makeFeedHandler('orders', { pages: store.orders.feedPage, cursors }),
    tripFeed: makeFeedHandler('trips', { pages: store.trips.feedPage, cursors }),
    attachPayment: writes.attachPayment,
    cancelOrder: writes.cancelOrder,
    archiveOrder: writes.archiveOrder,
    whoami,
  };
  const auth = makeAuth({ keys: store.keys });
  // One process keeps the buckets in memory; processes sharing a PostgreSQL database count in it (D81).
  const { shared } = store;
  const rateLimit = shared === null
    ? makeRateLimit({ clock: store.clocks.now })
    : makeSharedRateLimit({ buckets: shared.buckets, versions: shared.versions, authenticate: auth });
  const idempotency = makeIdempotency({ store: store.idempotency, ...(shared === null ? {} : { shared: shared.inFlight }) });
  const routes: DispatchRoute[] = [];
  for (const operation of operations.values()) {
    const handler = handlers[operation.operationId];
    if (handler === undefined) throw new Error(`no handler for operation ${operation.operationId}`);
    const write = operation.method !== 'GET';
    // Faults strike once the call belongs to a tenant and has passed its rate limit (D51).
    const faults = makeFaultInjection({ faults: store.faults, operationId: operation.operationId, write, refusesPrefer: operation.parameters.some((parameter) => parameter.in !== 'header') || operation.requestBody !== null });
    // requirement: int.orders-feed.scope
    // requirement: int.trips-feed.scope
    // requirement: int.whoami.no-scope
    // requirement: D2
    // requirement: D51
    const chain: RequestHandler[] = [reached(operation.operationId), auth, rateLimit, makeRequireScope(operation.scope), faults];
    if (write) {
      chain.push(idempotency.begin);
      if (operation.requestBody !== null) {
        chain.push(makeJsonBody({ required: operation.requestBody.required, idleTimeoutMs: options.bodyIdleTimeoutMs }));
      }
      // requirement: int.payment.body
      // requirement: int.payment.amount
      // requirement: int.payment.currency
      // requirement: int.payment.amount-invalid
      // requirement: int.payment.currency-invalid
      // requirement: int.payment.paymentId-format
      chain.push(idempotency.resolve, makeValidate(operation), tenantWritable);
    } else {
      // requirement: int.orders-feed.status
      // requirement: int.trips-feed.refusals
      // requirement: D9
      // requirement: D16
      // requirement: D86
      // The feeds refuse a query parameter they do not define (D86); whoami, which defines none, ignores any.
      chain.push(makeValidate(operation, 'integration', { refuseUnknownQuery: operation.parameters.some((parameter) => parameter.in === 'query') }));
    }
    // requirement: int.versioning.prefix
    routes.push({ method: operation.method, path: operation.path, handlers: [...chain, handler] });
  }
  return routes;
}

/** An Express router of `routes`, for the targets the dispatcher does not take (an absolute-form target). */
export function expressRouterOf(routes: readonly DispatchRoute[]): express.Router {
  const router = express.Router({ caseSensitive: true });
  for (const route of routes) router[route.method.toLowerCase() as 'get' | 'post' | 'delete'](expressPath(route.path), ...(route.handlers as RequestHandler[]));
  return router;
}
