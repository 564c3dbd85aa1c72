/** The reference sandbox as an Express app: `createApp(options)` wires everything, and knows no port. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { operations } from '../../spec/load.ts';
import { makeCursorCodec } from '../domain/cursor.ts';
import { newAdminToken } from '../http/admin-auth.ts';
import { withContext } from '../http/context.ts';
import { makeErrorHandler } from '../http/error-handler.ts';
import { makeFallback, type RouteShape } from '../http/fallback.ts';
import { deriveAppClasses } from '../http/server.ts';
import { makeRequestId } from '../http/request-id.ts';
import { writePendingHeaders } from '../http/reply.ts';
import { expressRouterOf, makeIntegrationRoutes } from '../integration/routes.ts';
import { makeDispatch, type Middleware } from '../http/dispatch.ts';
import { consoleLogger, type Logger, makeAccessLog } from '../http/log.ts';
import { captureAnswersOf, makeRequestCapture } from '../request-log/capture.ts';
import type { RequestLog } from '../request-log/recorder.ts';
import { makeSandboxRouter, SANDBOX_PREFIX, sandboxOperations } from '../control-plane/routes.ts';
import { simulationOf } from '../simulation/runner.ts';
import { makeConsoleRouter } from '../workbench/console.ts';
import { makeDocsRouter } from '../workbench/docs.ts';
import type { Store } from '../store/index.ts';

/** What the app is made of. */
export interface AppOptions {
  store: Store;
  log?: Logger;
  /** How long a request body may stall before it is answered 408 (D18). Default 10 s. */
  bodyIdleTimeoutMs?: number;
  /** The bearer token of the control plane under `/sandbox/v1` (D30). Default: a random one nobody knows. */
  adminToken?: string;
  /** The request log (D48), or null for none; whoever made it closes it (`startSandbox` does). */
  requestLog: RequestLog | null;
  /** The built console served at `/console`. Default: `dist/console` of the package (the browser tests build their own). */
  consoleDir?: string;
}

/** The route shapes of a document's operations, for 404/405 (D21). */
function routeShapes(ops: { path: string; method: string }[]): RouteShape[] {
  const byPath = new Map<string, string[]>();
  for (const { path, method } of ops) byPath.set(path, [...(byPath.get(path) ?? []), method]);
  return [...byPath].map(([path, methods]) => ({ path, methods }));
}

/**
 * The sandbox as a request listener: the integration API's operations through the
 * dispatcher (server/http/dispatch.ts), everything else through Express. It carries the
 * Express app's `request` and `response` prototypes, with which the server makes its
 * requests and responses (server/http/server.ts).
 */
export type SandboxApp = ((req: IncomingMessage, res: ServerResponse) => void) & Pick<express.Express, 'request' | 'response'>;

/** The sandbox app over `store`. */
export async function createApp(options: AppOptions): Promise<SandboxApp> {
  const log = options.log ?? consoleLogger();
  const cursors = makeCursorCodec(await options.store.secret('cursor'));
  const bodyIdleTimeoutMs = options.bodyIdleTimeoutMs ?? 10_000;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // requirement: D21
  // Paths are case-sensitive (D21): `/API/V1/...` is no operation.
  app.set('case sensitive routing', true);
  // What runs before any route, in the app and in the dispatcher alike.
  const { requestLog } = options;
  const prelude: Middleware[] = [makeRequestId()];
  const capture = requestLog === null ? null : makeRequestCapture({ log: requestLog });
  if (capture !== null) prelude.push(capture);
  if (log.requests) prelude.push(makeAccessLog({ log }));
  app.use(...(prelude as express.RequestHandler[]));
  const sandboxShapes = sandboxOperations.map(({ path, method }) => ({ path: `${SANDBOX_PREFIX}${path}`, method }));
  const fallback = makeFallback(routeShapes([...operations.values(), ...sandboxShapes]));
  // No operation takes OPTIONS: the routers would answer it 200 text/plain themselves (D21).
  app.use((req, res, next) => (req.method === 'OPTIONS' ? fallback(req, res, next) : next()));
  app.use(makeDocsRouter());
  app.use(makeConsoleRouter({ dir: options.consoleDir }));
  const integration = makeIntegrationRoutes({ store: options.store, cursors, bodyIdleTimeoutMs });
  app.use(expressRouterOf(integration));
  // The tenants' simulations resume where they stopped (D53); `simulationOf(store).close()` ends their timer.
  simulationOf(options.store, { log });
  app.use(
    SANDBOX_PREFIX,
    makeSandboxRouter({ store: options.store, adminToken: options.adminToken ?? newAdminToken(), cursors, bodyIdleTimeoutMs, requestLog }),
  );
  app.use(fallback);
  const errorHandler = makeErrorHandler({ log });
  app.use(errorHandler);
  const dispatch = makeDispatch({ routes: integration, prelude, onError: errorHandler, fallthrough: fallback });
  // The server makes its requests and responses with these prototypes' classes (server/http/server.ts).
  deriveAppClasses(app);
  // Its responses set the headers their request context kept (request id, rate limit) before their head goes out.
  writePendingHeaders(app.response);
  if (capture !== null) captureAnswersOf(app.response, capture);
  return Object.assign(
    function sandbox(req: IncomingMessage, res: ServerResponse): void {
      withContext(res);
      if (!dispatch(req, res)) app(req as express.Request, res as express.Response);
    },
    { request: app.request, response: app.response },
  );
}

