/**
 * The web console at `/console`: the files `npm run build` bundles into `dist/console/`
 * (`console/build.mjs`), served under a Content-Security-Policy that allows only this
 * server's own script, style and API, no inline script or style. Without a build the console
 * answers 503 saying how to make one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { packageFile } from '../../spec/package-files.ts';
import { aboutBlank, ProblemError } from '../http/problem.ts';

/** The console's policy: its own script, style and API calls, `data:` images, no framing, no base, no inline code. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Where `npm run build` leaves the console. */
export const CONSOLE_DIR = packageFile('dist/console');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
};

/** A file name of the built console: no folder, no dot first, a type above. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

interface Asset {
  type: string;
  body: Buffer;
  etag: string;
}

/** The router of `/console` over the built files in `dir` (default `dist/console/` of the package). */
export function makeConsoleRouter(options: { dir?: string } = {}): express.Router {
  const dir = options.dir ?? CONSOLE_DIR;
  const router = express.Router({ caseSensitive: true, strict: true });
  const assets = new Map<string, Asset | null>();
  const asset = (name: string): Asset | null => {
    if (!assets.has(name)) {
      const file = join(dir, name);
      const type = TYPES[extname(name)];
      if (!ASSET_NAME.test(name) || type === undefined || !existsSync(file)) return null;
      const body = readFileSync(file);
      assets.set(name, { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
    }
    return assets.get(name) ?? null;
  };
  const serve = (name: string) => (req: Request, res: Response, next: NextFunction) => {
    if (!existsSync(join(dir, 'index.html'))) {
      return next(new ProblemError(503, 'about:blank', 'Service Unavailable', `The console is not built: run \`npm run build\` (it bundles console/ into ${dir}).`, undefined, { 'Retry-After': '60' }));
    }
    const found = asset(name || String(req.params['name']));
    if (found === null) return next();
    res.statusCode = 200;
    res.setHeader('Content-Type', found.type);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('Referrer-Policy', 'no-referrer');
    // The names carry no hash: the browser asks again each time and gets 304 while the build is the same.
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', found.etag);
    if (req.headers['if-none-match'] === found.etag) {
      res.statusCode = 304;
      return res.end();
    }
    res.setHeader('Content-Length', found.body.length);
    res.end(found.body);
  };
  router.get(['/console', '/console/'], serve('index.html'));
  router.get('/console/:name', serve(''));
  router.all(['/console', '/console/', '/console/:name'], (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    next(aboutBlank(405, `${req.method} is not allowed on this path; allowed: GET, HEAD.`, { Allow: 'GET, HEAD' }));
  });
  return router;
}
