/**
 * The integration API's routes served without Express's router (issue 25): a request whose
 * path and method are an operation's runs that operation's middleware straight from the HTTP
 * server, with one `next` per request, as the router would run them but without walking the
 * app's layers (docs, console, OPTIONS) and matching each. Paths match as Express matches
 * them in this app (case-sensitive, one optional trailing slash, a `{param}` one non-empty
 * segment, percent-decoded; a segment that does not decode is the router's 400), so a
 * request answers the same whichever way it came in. Whatever it does not take (no
 * operation's path and method, an absolute-form target) goes to the Express app as before.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { templatePattern } from './fallback.ts';

/** A middleware or handler of a route, as Express would run it (it may return a Promise). */
export type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;
/** The app's error handler (Express's four-argument middleware). */
export type ErrorMiddleware = (error: unknown, req: Request, res: Response, next: NextFunction) => void;

/** One operation's route: its method, its OpenAPI path template and what runs for it, in order. */
export interface DispatchRoute {
  method: string;
  /** An OpenAPI path template: `/a/{b}/c`. */
  path: string;
  handlers: readonly Middleware[];
}

/** A route as matched: a literal path, or a pattern with its parameters' names. */
interface CompiledRoute {
  handlers: readonly Middleware[];
  pattern: RegExp | null;
  names: string[];
}

/** The router's error for a path parameter that is not valid percent-encoding (the error handler answers it 400). */
function undecodable(value: string): Error & { status: number } {
  return Object.assign(new Error(`Failed to decode param '${value}'`), { status: 400 });
}

/**
 * A dispatcher over `routes`: answers true when it took the request (and will answer it),
 * false when the request is not for one of them. `prelude` runs first for every request it
 * takes (the app's own middleware: request id, request log, access log); an error anywhere
 * goes to `onError`; a chain that calls `next()` past its end goes to `fallthrough`.
 */
export function makeDispatch(options: { routes: readonly DispatchRoute[]; prelude: readonly Middleware[]; onError: ErrorMiddleware; fallthrough: Middleware }) {
  const { prelude, onError, fallthrough } = options;
  // By method: literal paths (the feeds, whoami) by their text, then the templates in order.
  const literal = new Map<string, Map<string, CompiledRoute>>();
  const templated = new Map<string, CompiledRoute[]>();
  for (const route of options.routes) {
    if (!route.path.includes('{')) {
      const byPath = literal.get(route.method) ?? new Map<string, CompiledRoute>();
      const compiled = { handlers: [...prelude, ...route.handlers], pattern: null, names: [] };
      byPath.set(route.path, compiled);
      byPath.set(`${route.path}/`, compiled);
      literal.set(route.method, byPath);
    } else {
      const pattern = templatePattern(route.path);
      const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
      templated.set(route.method, [...(templated.get(route.method) ?? []), { handlers: [...prelude, ...route.handlers], pattern, names }]);
    }
  }

  /** The route `path` reaches under `method`, with its raw parameter values, or undefined. */
  function find(method: string, path: string): { route: CompiledRoute; raw: string[] } | undefined {
    const route = literal.get(method)?.get(path);
    if (route !== undefined) return { route, raw: [] };
    for (const candidate of templated.get(method) ?? []) {
      const match = candidate.pattern!.exec(path);
      if (match !== null) return { route: candidate, raw: match.slice(1) };
    }
    return undefined;
  }

  return function dispatch(request: IncomingMessage, response: ServerResponse): boolean {
    const url = request.url ?? '';
    if (url.charCodeAt(0) !== 47 /* / */) return false;
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    // Express runs a GET route for HEAD; Node leaves the body out.
    const found = find(request.method === 'HEAD' ? 'GET' : (request.method ?? ''), path);
    if (found === undefined) return false;
    const req = request as Request;
    const res = response as Response;
    // What Express's app and router set before the first middleware runs.
    req.res = res;
    res.locals ??= Object.create(null) as Response['locals'];
    req.originalUrl = url;
    req.baseUrl = '';
    let paramsError: Error | undefined;
    const params: Record<string, string> = {};
    for (let i = 0; i < found.raw.length; i++) {
      const value = found.raw[i]!;
      try {
        params[found.route.names[i]!] = decodeURIComponent(value);
      } catch {
        paramsError ??= undecodable(value);
      }
    }
    req.params = params;
    run(found.route.handlers, req, res, paramsError);
    return true;
  };

  /**
   * Runs `handlers` in order, each when the one before calls `next()`; `next(error)`, a throw
   * or a rejected Promise goes to the error handler. `paramsError` is raised once the prelude
   * has run, where Express's router would raise it.
   */
  function run(handlers: readonly Middleware[], req: Request, res: Response, paramsError: Error | undefined): void {
    let at = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      onError(error, req, res, () => {});
    };
    const next: NextFunction = (error?: unknown) => {
      if (error !== undefined && error !== null) return fail(error);
      if (paramsError !== undefined && at === prelude.length) return fail(paramsError);
      const handler = at < handlers.length ? handlers[at++]! : fallthrough;
      try {
        const result = handler(req, res, next);
        if (result instanceof Promise) result.then(undefined, fail);
      } catch (error) {
        fail(error);
      }
    };
    next();
  }
}
