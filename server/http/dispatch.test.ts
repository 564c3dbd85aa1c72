/**
 * The dispatcher matches paths as this app's Express router does, and runs a chain as
 * Express would: the same targets reach the same route with the same parameters, the rest
 * are left to the app, and an error however raised reaches the error handler once.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DispatchRoute, makeDispatch, type Middleware } from './dispatch.ts';
import { createHttpServer, listen } from './server.ts';

const routes = [
  { method: 'GET', path: '/api/v1/things' },
  { method: 'POST', path: '/api/v1/things/by-name/{name}/touch' },
  { method: 'DELETE', path: '/api/v1/things/by-name/{name}' },
];
/** What a route answers: which route, and its parameters. */
const answer = (route: string) => (req: Request, res: Response) => void res.status(200).json({ route, params: req.params, prelude: res.locals.prelude ?? null });
const failing: Record<string, Middleware> = {
  throws: () => {
    throw Object.assign(new Error('thrown'), { status: 418 });
  },
  rejects: async () => {
    throw Object.assign(new Error('rejected'), { status: 418 });
  },
  next: (_req, _res, next) => next(Object.assign(new Error('passed'), { status: 418 })),
};
const onError = (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
  const { message, status } = error as { message: string; status?: number };
  res.status(status ?? 500).json({ error: message });
};

let base: string;
let dispatched = 0;
let close: () => Promise<void>;
beforeAll(async () => {
  const app = express();
  app.set('case sensitive routing', true);
  const prelude: Middleware = (_req, res, next) => {
    res.locals.prelude = 'ran';
    next();
  };
  const chains: DispatchRoute[] = routes.map((route) => ({ ...route, handlers: [answer(`${route.method} ${route.path}`)] }));
  chains.push({ method: 'GET', path: '/fail/{how}', handlers: [(req, res, next) => failing[String(req.params.how)]!(req, res, next)] });
  chains.push({ method: 'GET', path: '/falls-through', handlers: [(_req, _res, next) => next()] });
  app.use((_req, res) => void res.status(404).json({ route: 'the app' }));
  const dispatch = makeDispatch({ routes: chains, prelude: [prelude], onError, fallthrough: (_req, res) => void res.status(404).json({ route: 'fallthrough' }) });
  const server = createHttpServer(
    Object.assign(
      (req: Parameters<typeof dispatch>[0], res: Parameters<typeof dispatch>[1]) => {
        if (dispatch(req, res)) dispatched += 1;
        else app(req as Request, res as Response);
      },
      { request: app.request, response: app.response },
    ),
  );
  base = await listen(server, 0, '127.0.0.1');
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

async function send(method: string, path: string) {
  const before = dispatched;
  const response = await fetch(`${base}${path}`, { method });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>), dispatched: dispatched > before };
}

describe('makeDispatch', () => {
  it('takes an operation path exactly or with one trailing slash, its query aside, and HEAD for GET; the prelude runs first', async () => {
    for (const path of ['/api/v1/things', '/api/v1/things/', '/api/v1/things?limit=5', '/api/v1/things/?x']) {
      expect(await send('GET', path)).toEqual({ status: 200, body: { route: 'GET /api/v1/things', params: {}, prelude: 'ran' }, dispatched: true });
    }
    expect(await send('HEAD', '/api/v1/things')).toEqual({ status: 200, body: null, dispatched: true });
  });

  it('leaves to the app a path of another case, two trailing slashes, a suffix, another method or an empty segment', async () => {
    for (const [method, path] of [['GET', '/API/v1/things'], ['GET', '/api/v1/things//'], ['GET', '/api/v1/things;x'], ['POST', '/api/v1/things'], ['POST', '/api/v1/things/by-name//touch'], ['DELETE', '/api/v1/things/by-name/a/b']]) {
      expect(await send(method!, path!)).toEqual({ status: 404, body: { route: 'the app' }, dispatched: false });
    }
  });

  it('decodes a path parameter as the router does, one segment, and refuses one that does not decode with the router\'s 400 after the prelude', async () => {
    expect((await send('POST', '/api/v1/things/by-name/a%2Fb%20c/touch')).body).toEqual({ route: 'POST /api/v1/things/by-name/{name}/touch', params: { name: 'a/b c' }, prelude: 'ran' });
    expect((await send('DELETE', '/api/v1/things/by-name/x.y;z/')).body).toMatchObject({ params: { name: 'x.y;z' } });
    expect(await send('DELETE', '/api/v1/things/by-name/%E0%A4%A')).toEqual({ status: 400, body: { error: "Failed to decode param '%E0%A4%A'" }, dispatched: true });
  });

  it('hands a thrown error, a rejected Promise and next(error) to the error handler, and a chain that runs out to the fallthrough', async () => {
    for (const how of ['throws', 'rejects', 'next']) {
      expect(await send('GET', `/fail/${how}`)).toEqual({ status: 418, body: { error: { throws: 'thrown', rejects: 'rejected', next: 'passed' }[how] }, dispatched: true });
    }
    expect(await send('GET', '/falls-through')).toEqual({ status: 404, body: { route: 'fallthrough' }, dispatched: true });
  });
});
