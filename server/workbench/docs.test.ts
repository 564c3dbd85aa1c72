/** The API reference, the raw documents and /health: status, type, CSP, same-origin assets, content. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checks } from '../../conformance/checks/index.ts';
import { scenarios } from '../../conformance/client-check/scenarios/index.ts';
import { catalog, catalogEntry, operations, requirements } from '../../spec/load.ts';
import { requirementMarkers } from '../../spec/requirement-markers.ts';
import { packageFile, PACKAGE_VERSION } from '../../spec/package-files.ts';
import { memoryStore, type RunningServer, startServer } from '../../dev/testing/sandbox.ts';
import { markdownHtml } from './markdown.ts';
import { PAGE_CSP, SWAGGER_CSP } from './docs.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer(await memoryStore());
});
afterAll(() => server.close());

const get = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { redirect: 'manual', ...init });

/** Every absolute http(s) URL in `text` whose host is not this server's. */
function foreignUrls(text: string): string[] {
  const own = new URL(server.url).host;
  return [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map(([url]) => url).filter((url) => new URL(url).host !== own);
}

describe('the API reference pages', () => {
  it.each([
    ['/docs', SWAGGER_CSP],
    ['/docs/sandbox', SWAGGER_CSP],
    ['/docs/errors', PAGE_CSP],
    ['/docs/decisions', PAGE_CSP],
    ['/docs/requirements', PAGE_CSP],
  ])('%s is HTML under its CSP, without a key', async (path, csp) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(csp);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    for (const link of ['/docs', '/docs/sandbox', '/docs/errors', '/docs/decisions', '/docs/requirements', '/openapi.yaml', '/sandbox.yaml']) {
      expect(html).toContain(`href="${link}"`);
    }
  });

  it('loads Swagger UI and its initializer from this server only, with no inline script', async () => {
    for (const [path, raw] of [['/docs', '/openapi.yaml'], ['/docs/sandbox', '/sandbox.yaml']] as const) {
      const html = await (await get(path)).text();
      expect(html).toContain(`data-spec-url="${raw}"`);
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.map(([, attributes]) => /src="([^"]+)"/.exec(attributes!)![1])).toEqual(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/docs-init.js']);
      expect(scripts.every(([, , body]) => body === '')).toBe(true);
      const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url!);
      expect(sources.filter((url) => !url.startsWith('/') && !url.startsWith('#'))).toEqual([]);
      expect(foreignUrls(html)).toEqual([]);
    }
    const initializer = await get('/docs/assets/docs-init.js');
    expect(initializer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(foreignUrls(await initializer.text())).toEqual([]);
    for (const [asset, type] of [['swagger-ui-bundle.js', 'text/javascript'], ['swagger-ui.css', 'text/css'], ['waybill-docs.css', 'text/css'], ['favicon-32x32.png', 'image/png']]) {
      const response = await get(`/docs/assets/${asset}`);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-type')).toMatch(new RegExp(`^${type}`));
    }
  });

  it('lists every code of the catalog in an anchored row with its title, escaped', async () => {
    const html = await (await get('/docs/errors')).text();
    const rows = [...html.matchAll(/<tr id="([^"]+)">/g)].map(([, id]) => id);
    expect(rows).toHaveLength(218);
    expect(new Set(rows)).toEqual(new Set(catalog.keys()));
    expect(html).toContain('<tr id="api.rate_limited"><td><a href="#api.rate_limited"><code>api.rate_limited</code></a></td><td class="status">429</td><td>Rate limit exceeded</td>');
    expect(html).toContain('<td>Driver&#39;s trip not found</td>');
    expect(html).toContain('/docs/errors#&lt;type&gt;');
  });

  it('/docs shows, for each operation, the Prefer line that forces each code it lists, with the status and title it answers (D95)', async () => {
    const html = await (await get('/docs')).text();
    expect(html.indexOf('<details class="waybill-page" id="problems-on-demand">')).toBeLessThan(html.indexOf('<main id="swagger-ui"'));
    for (const operation of operations.values()) {
      const section = new RegExp(`<section id="problems-${operation.operationId}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
      const rows = [...section.matchAll(/<td><code>Prefer: problem=([^<]+)<\/code><\/td><td class="status">(\d+)<\/td><td><a href="\/docs\/errors#([^"]+)">([^<]+)<\/a><\/td>/g)];
      expect(rows.map(([, code, status, anchor, title]) => [code, Number(status), anchor, title]), operation.operationId).toEqual(
        operation.errorCodes.map((code) => [code, catalogEntry(code).status, code, catalogEntry(code).title.replaceAll("'", '&#39;')]),
      );
    }
    expect(html).toContain('href="/docs/decisions#d95"');
  });

  it('renders DECISIONS.md with an anchor per decision', async () => {
    const html = await (await get('/docs/decisions')).text();
    const source = readFileSync(packageFile('spec/DECISIONS.md'), 'utf8');
    const decisions = [...source.matchAll(/^#{2,3} (D\d+) — /gm)].map(([, id]) => id!);
    expect(decisions.length).toBeGreaterThan(30);
    for (const id of decisions) expect(html).toMatch(new RegExp(`<h[23] id="${id.toLowerCase()}">${id} — `));
    expect(html).toContain('<code>X-Api-Key: &lt;key&gt;</code>');
  });

  it('traces every requirement of the register to its checks, scenarios and the sandbox files its markers name', async () => {
    const html = await (await get('/docs/requirements')).text();
    const rows = [...html.matchAll(/<tr id="([^"]+)" data-trace="([^"]+)">([\s\S]*?)<\/tr>/g)].map(([, id, implementer, cells]) => ({ id: id!, implementer: implementer!, cells: cells! }));
    expect(rows.map((row) => row.id)).toEqual([...requirements.keys()]);
    const row = (id: string) => rows.find((candidate) => candidate.id === id)!;
    const caughtUp = row('int.orders-feed.caught-up');
    expect(caughtUp.cells).toContain('<span class="trace-level">MUST</span>');
    expect(caughtUp.cells).toContain('a null nextCursor means the feed is caught up');
    // Ids may wrap after each dot, paths after each slash.
    const wrapped = (id: string) => id.replaceAll('.', '.<wbr/>');
    const wrappedPath = (file: string) => file.replaceAll('/', '/<wbr/>');
    for (const check of checks.filter((candidate) => candidate.verifies.includes('int.orders-feed.caught-up'))) expect(caughtUp.cells).toContain(`<code>${wrapped(check.id)}</code>`);
    for (const scenario of scenarios.filter((candidate) => candidate.verifies.includes('int.orders-feed.caught-up'))) expect(caughtUp.cells).toContain(`<code>${wrapped(scenario.id)}</code>`);
    const marked = requirementMarkers().get('int.orders-feed.caught-up')!;
    expect(marked.length).toBeGreaterThan(0);
    for (const site of marked) expect(caughtUp.cells).toContain(`<code>${wrappedPath(site.file)}</code>`);
    // A rule the sandbox does not implement says who does, and names no server file.
    const client = row('int.status.unknown-not-final');
    expect(client.implementer).toBe('client');
    expect(client.cells).toContain('a rule for the integrating client');
    expect(client.cells).not.toContain('server/');
    // Quotes are text: D1's `<key>` stays escaped, and decisions link to their section.
    expect(row('D1').cells).toContain('X-Api-Key: &lt;key&gt;');
    expect(row('D1').cells).toContain('href="/docs/decisions#d1"');
    expect(foreignUrls(html)).toEqual([]);
  });

  it('lets no raw HTML or unsafe link of the markdown through', () => {
    const html = markdownHtml('# Title\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> and [a](javascript:alert(1)) [b](java\tscript:x) [c](/docs) ![p](https://elsewhere.example/p.png)\n');
    expect(html).not.toMatch(/<script|<img|javascript:|elsewhere/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<a href="/docs">c</a>');
    expect(html).toContain('<h1 id="title">Title</h1>');
  });
});

describe('the raw documents, /health and /', () => {
  it.each([
    ['/openapi.yaml', 'spec/openapi.yaml'],
    ['/sandbox.yaml', 'spec/sandbox.yaml'],
  ])('%s is %s as it is, as application/yaml', async (path, file) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(await response.text()).toBe(readFileSync(packageFile(file), 'utf8'));
  });

  it('/health answers ok with the version, never cached', async () => {
    const response = await get('/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok', version: PACKAGE_VERSION });
  });

  it('/ leads to the console', async () => {
    const response = await get('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/console');
  });

  it('HEAD works, other methods are 405 problems, unknown paths stay 404 problems', async () => {
    const head = await get('/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const path of ['/docs', '/docs/requirements', '/health', '/openapi.yaml', '/docs/assets/docs-init.js']) {
      const response = await get(path, { method: 'POST' });
      expect(response.status, path).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    }
    for (const path of ['/docs/assets/swagger-ui.js.map', '/docs/nothing', '/Docs', '/health/x', '/docs/assets/..%2Fpackage.json']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(await response.json()).toMatchObject({ type: 'about:blank', status: 404 });
    }
  });
});
