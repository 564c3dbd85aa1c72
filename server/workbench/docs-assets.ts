/**
 * The files the API reference pages load, all from this server: Swagger UI's bundle and
 * stylesheet as the build copies them (no telemetry comes with them), and waybill's own initializer and
 * stylesheet, written here. No page of /docs loads anything from another host.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { traceCss } from '../../conformance/reporters/html-trace.ts';
import { packageFile } from '../../spec/package-files.ts';

/** A static file of the docs: its media type and its bytes. */
export interface DocsAsset {
  type: string;
  body: Buffer;
}

/**
 * Starts Swagger UI on `#swagger-ui`, rendering the document named by its `data-spec-url`.
 * Once the document is in, it offers the origin of the page as the first server, so that
 * "Try it out" reaches the sandbox serving these docs whatever its port.
 */
const initializer = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  var offered = false;
  function offerThisServer(ui) {
    if (offered) return;
    offered = true;
    var spec = ui.specSelectors.specJson().toJS();
    var servers = spec.servers || [];
    if (servers.length === 0) return;
    var path = new URL(servers[0].url, location.href).pathname.replace(/\\/$/, '');
    var here = location.origin + path;
    if (servers.some(function (server) { return server.url === here; })) return;
    spec.servers = [{ url: here, description: 'this sandbox, where these docs come from' }].concat(servers);
    ui.specActions.updateJsonSpec(spec);
    ui.oas3Actions.setSelectedServer(here);
  }
  window.ui = SwaggerUIBundle({
    url: root.dataset.specUrl,
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    layout: 'BaseLayout',
    presets: [SwaggerUIBundle.presets.apis],
    onComplete: function () { offerThisServer(window.ui); },
  });
})();
`;

/** The docs' own look: the navigation bar and the catalog, decisions and requirements pages. */
const stylesheet = `body { margin: 0; font-family: system-ui, sans-serif; color: #1f2328; }
.waybill-nav { display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; align-items: baseline; padding: 0.7rem 1.5rem; background: #1b1f24; color: #e6edf3; }
.waybill-nav strong { margin-right: 0.6rem; }
.waybill-nav a { color: #9ecbff; text-decoration: none; }
.waybill-nav a[aria-current=page] { color: #fff; font-weight: 600; text-decoration: underline; }
.waybill-page { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; line-height: 1.5; }
.waybill-page code { background: #f3f4f6; padding: 0 0.2em; border-radius: 3px; }
.waybill-page pre { background: #f3f4f6; padding: 0.8rem; overflow-x: auto; }
.waybill-page pre code { background: none; padding: 0; }
.catalog { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
.catalog th, .catalog td { border-bottom: 1px solid #d0d7de; padding: 0.35rem 0.5rem; text-align: left; vertical-align: top; }
.catalog th { position: sticky; top: 0; background: #fff; }
.catalog tr:target { background: #fff8c5; }
/* /docs/errors#<code> scrolls its row to just under the sticky header, not beneath it. */
.catalog tbody tr { scroll-margin-top: 4.5rem; }
/* A phone reads each code as a card (code; status, title and reach; meaning): no sideways scrolling, no header to hide under. */
@media (max-width: 40rem) {
  .waybill-page { padding: 1rem 0.75rem 3rem; }
  .catalog thead { display: none; }
  .catalog, .catalog tbody { display: block; }
  .catalog tr { display: flex; flex-wrap: wrap; gap: 0 0.6rem; padding: 0.4rem 0; border-bottom: 1px solid #d0d7de; scroll-margin-top: 0.5rem; }
  .catalog td { border: none; padding: 0.1rem 0; }
  .catalog td:nth-child(1) { flex-basis: 100%; overflow-wrap: anywhere; font-weight: 600; }
  .catalog td:nth-child(4) { display: none; }
  .catalog td:nth-child(5) { flex-basis: 100%; order: 1; }
  .catalog td:nth-child(6) { color: #59636e; }
}
.catalog td.status { font-variant-numeric: tabular-nums; }
h2:target, h3:target { background: #fff8c5; }
.guide-list { display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; padding: 0.5rem 0; border-bottom: 1px solid #d0d7de; }
.guide-list a[aria-current=page] { font-weight: 600; }
.guide img { max-width: 100%; height: auto; border: 1px solid #d0d7de; }
.guide table { border-collapse: collapse; display: block; overflow-x: auto; }
.guide th, .guide td { border: 1px solid #d0d7de; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
.guide h2, .guide h3 { scroll-margin-top: 0.5rem; }
/* A long inline JSON or address breaks anywhere rather than widen the page; code blocks scroll. */
.guide :not(pre) > code { overflow-wrap: anywhere; }
.waybill-page.waybill-wide { max-width: 96rem; }
table.trace tr:target { background: #fff8c5; }
${traceCss}`;

/**
 * Where Swagger UI's files are: the copies the build makes into `dist/swagger-ui` (what the
 * installed package ships, console/copy-swagger-ui.mjs), or in a clone not yet built the dev
 * dependency `swagger-ui-dist` itself.
 */
function swaggerUiFolder(): string {
  const copied = packageFile('dist/swagger-ui');
  if (existsSync(join(copied, 'swagger-ui-bundle.js'))) return copied;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** The Swagger UI files the pages use, by the name they are served under. */
const swaggerFiles: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript',
  'swagger-ui.css': 'text/css',
  'favicon-32x32.png': 'image/png',
};

const cache = new Map<string, DocsAsset>();

/** The asset served as `/docs/assets/<name>`, or undefined for a name that is none. */
export function docsAsset(name: string): DocsAsset | undefined {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  let asset: DocsAsset | undefined;
  if (name === 'docs-init.js') asset = { type: 'text/javascript', body: Buffer.from(initializer) };
  else if (name === 'waybill-docs.css') asset = { type: 'text/css', body: Buffer.from(stylesheet) };
  else if (Object.hasOwn(swaggerFiles, name)) asset = { type: swaggerFiles[name]!, body: readFileSync(join(swaggerUiFolder(), name)) };
  if (asset !== undefined) cache.set(name, asset);
  return asset;
}

/** The version of the Swagger UI the pages run, for the page footer and the report. */
export function swaggerUiVersion(): string {
  return (JSON.parse(readFileSync(join(swaggerUiFolder(), 'package.json'), 'utf8')) as { version: string }).version;
}
