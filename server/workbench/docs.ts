/**
 * The API reference and the sandbox's own addresses, outside the integration API and without
 * keys: `/docs` (the integration API in Swagger UI), `/docs/sandbox` (the control plane),
 * `/docs/errors` (the catalog), `/docs/decisions`, `/docs/requirements` (the requirement trace),
 * `/docs/guides` (the README and the guides of `docs/`, docs-guides.ts), the raw documents `/openapi.yaml` and
 * `/sandbox.yaml`, `/health`, and `/` leading to the console. Every page loads only this
 * server's files, under a Content-Security-Policy that allows nothing else and no inline script.
 */
import { readFileSync } from 'node:fs';
import express, { type NextFunction, type Request, type Response } from 'express';
import { packageFile, PACKAGE_VERSION } from '../../spec/package-files.ts';
import { aboutBlank } from '../http/problem.ts';
import { docsAsset } from './docs-assets.ts';
import { GUIDES_PATH, guideImage, guidePage, guides, isGuide } from './docs-guides.ts';
import { type ApiDocument, apiDocuments, apiPage, decisionsPage, errorsPage } from './docs-pages.ts';
import { requirementsPage } from './docs-requirements.ts';

/**
 * The Swagger UI pages: scripts and styles only from here (no inline script), the documents
 * fetched from here (`connect-src 'self'`, which also keeps "Try it out" on this sandbox),
 * images from here or `data:` (Swagger UI draws its icons as data: SVG), no framing, no forms
 * to elsewhere. No inline style either: Swagger UI sets styles through the DOM, which CSP allows.
 */
export const SWAGGER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The catalog, decisions, requirements and guide pages: nothing but this server's stylesheet, icon and pictures. */
export const PAGE_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Writes a finished body with its type and headers; Node leaves the body out for HEAD. */
function send(res: Response, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(body);
}

/** A value made on first use and kept: the pages and documents do not change while the server runs. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const htmlHeaders = (csp: string) => ({ 'Content-Security-Policy': csp, 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-cache' });

/** The router of the reference pages, the raw documents, `/health` and `/`. */
export function makeDocsRouter(): express.Router {
  const router = express.Router({ caseSensitive: true });
  const pages = {
    integration: once(() => apiPage('integration')),
    sandbox: once(() => apiPage('sandbox')),
    errors: once(errorsPage),
    decisions: once(decisionsPage),
    // The trace reads every check and scenario (a quarter of a second to load): only once asked for, never at start.
    requirements: once(async () => requirementsPage((await import('../../conformance/reporters/requirement-trace.ts')).requirementTrace())),
  };
  const guidePages = new Map([[GUIDES_PATH, once(() => guidePage(null))], ...guides.map(({ name }) => [`${GUIDES_PATH}/${name}`, once(() => guidePage(name))] as const)]);
  const rawDocuments = new Map(
    (Object.keys(apiDocuments) as ApiDocument[]).map((name) => [apiDocuments[name].raw, once(() => readFileSync(packageFile(apiDocuments[name].file)))]),
  );
  const health = JSON.stringify({ status: 'ok', version: PACKAGE_VERSION });

  router.get('/', (_req, res) => res.redirect(302, '/console'));
  router.get('/health', (_req, res) => send(res, 'application/json; charset=utf-8', health, { 'Cache-Control': 'no-store' }));
  for (const [path, document] of rawDocuments) {
    // application/yaml is the registered type (RFC 9512); browsers offer it as a download.
    router.get(path, (_req, res) => send(res, 'application/yaml; charset=utf-8', document(), { 'Cache-Control': 'no-cache' }));
  }
  router.get('/docs', (_req, res) => send(res, 'text/html; charset=utf-8', pages.integration(), htmlHeaders(SWAGGER_CSP)));
  router.get('/docs/sandbox', (_req, res) => send(res, 'text/html; charset=utf-8', pages.sandbox(), htmlHeaders(SWAGGER_CSP)));
  router.get('/docs/errors', (_req, res) => send(res, 'text/html; charset=utf-8', pages.errors(), htmlHeaders(PAGE_CSP)));
  router.get('/docs/decisions', (_req, res) => send(res, 'text/html; charset=utf-8', pages.decisions(), htmlHeaders(PAGE_CSP)));
  router.get('/docs/requirements', async (_req, res) => send(res, 'text/html; charset=utf-8', await pages.requirements(), htmlHeaders(PAGE_CSP)));
  router.get(GUIDES_PATH, (_req, res) => send(res, 'text/html; charset=utf-8', guidePages.get(GUIDES_PATH)!(), htmlHeaders(PAGE_CSP)));
  router.get(`${GUIDES_PATH}/:name`, (req: Request, res: Response, next: NextFunction) => {
    const name = String(req.params['name']);
    if (!isGuide(name)) return next();
    send(res, 'text/html; charset=utf-8', guidePages.get(`${GUIDES_PATH}/${name}`)!(), htmlHeaders(PAGE_CSP));
  });
  router.get(`${GUIDES_PATH}/images/:name`, (req: Request, res: Response, next: NextFunction) => {
    const image = guideImage(String(req.params['name']));
    if (image === undefined) return next();
    send(res, 'image/png', image, { 'Cache-Control': 'no-cache' });
  });
  router.get('/docs/assets/:name', (req: Request, res: Response, next: NextFunction) => {
    const asset = docsAsset(String(req.params['name']));
    if (asset === undefined) return next();
    send(res, asset.type.startsWith('text/') ? `${asset.type}; charset=utf-8` : asset.type, asset.body, { 'Cache-Control': 'public, max-age=3600' });
  });
  // The addresses above take GET and HEAD only; anything else is 405 like the API's paths (D21).
  router.all(['/', '/health', ...rawDocuments.keys(), '/docs', '/docs/sandbox', '/docs/errors', '/docs/decisions', '/docs/requirements', GUIDES_PATH, `${GUIDES_PATH}/:name`, `${GUIDES_PATH}/images/:name`, '/docs/assets/:name'], (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    next(aboutBlank(405, `${req.method} is not allowed on this path; allowed: GET, HEAD.`, { Allow: 'GET, HEAD' }));
  });
  return router;
}
