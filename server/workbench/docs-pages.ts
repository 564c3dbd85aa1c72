/**
 * The pages of the API reference: the two OpenAPI documents in Swagger UI, the error catalog
 * as a table with an anchor per code, and `spec/DECISIONS.md` rendered by `marked`. Every page
 * is written through the one escaping element helper; markdown is the only HTML not built
 * here, and `marked` gets no raw HTML through (it is shown as text) and no unsafe link.
 */
import { readFileSync } from 'node:fs';
import { Marked, type Tokens } from 'marked';
import { type Child, element, htmlDocument, renderedHtml } from '../../conformance/reporters/markup.ts';
import { catalog, type CatalogEntry } from '../../spec/load.ts';
import { packageFile, PACKAGE_VERSION } from '../../spec/package-files.ts';

/** The pages of the navigation bar, in its order. */
const navigation = [
  { href: '/docs', label: 'Integration API' },
  { href: '/docs/sandbox', label: 'Sandbox control plane' },
  { href: '/docs/errors', label: 'Error catalog' },
  { href: '/docs/decisions', label: 'Decisions' },
  { href: '/docs/requirements', label: 'Requirements' },
  { href: '/console', label: 'Console' },
] as const;

/** The two OpenAPI documents: where each is rendered and where its raw file is. */
export const apiDocuments = {
  integration: { page: '/docs', raw: '/openapi.yaml', file: 'spec/openapi.yaml', title: 'Delivery Integration API' },
  sandbox: { page: '/docs/sandbox', raw: '/sandbox.yaml', file: 'spec/sandbox.yaml', title: 'Sandbox control plane' },
} as const;

export type ApiDocument = keyof typeof apiDocuments;

/** A whole docs page: head with the given stylesheets, the navigation bar, then `body`. */
export function page(title: string, current: string, stylesheets: string[], ...body: Child[]): string {
  const nav = element(
    'nav',
    { class: 'waybill-nav', 'aria-label': 'API reference' },
    element('strong', {}, `waybill ${PACKAGE_VERSION}`),
    navigation.map(({ href, label }) => element('a', { href, 'aria-current': href === current ? 'page' : null }, label)),
    element('a', { href: '/openapi.yaml' }, 'openapi.yaml'),
    element('a', { href: '/sandbox.yaml' }, 'sandbox.yaml'),
  );
  return htmlDocument(
    element(
      'html',
      { lang: 'en' },
      element(
        'head',
        {},
        element('meta', { charset: 'utf-8' }),
        element('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
        element('title', {}, `${title} · waybill`),
        element('link', { rel: 'icon', type: 'image/png', href: '/docs/assets/favicon-32x32.png' }),
        stylesheets.map((href) => element('link', { rel: 'stylesheet', href })),
      ),
      element('body', {}, nav, body),
    ),
  );
}

/** The page rendering one OpenAPI document in Swagger UI (started by `docs-init.js`, no inline script). */
export function apiPage(name: ApiDocument): string {
  const document = apiDocuments[name];
  return page(
    document.title,
    document.page,
    ['/docs/assets/swagger-ui.css', '/docs/assets/waybill-docs.css'],
    element('main', { id: 'swagger-ui', 'data-spec-url': document.raw }),
    element('script', { src: '/docs/assets/swagger-ui-bundle.js' }),
    element('script', { src: '/docs/assets/docs-init.js' }),
  );
}

/** One row of the catalog, anchored by its code so `/docs/errors#<code>` leads to it. */
function catalogRow(entry: CatalogEntry): Child {
  return element(
    'tr',
    { id: entry.code },
    element('td', {}, element('a', { href: `#${entry.code}` }, element('code', {}, entry.code))),
    element('td', { class: 'status' }, entry.status),
    element('td', {}, entry.group),
    element('td', {}, entry.meaning || '—'),
    element('td', {}, entry.reach),
  );
}

/** The error catalog (`spec/errors.yaml`) as a table, one anchored row per code. */
export function errorsPage(): string {
  const entries = [...catalog.values()];
  return page(
    'Error catalog',
    '/docs/errors',
    ['/docs/assets/waybill-docs.css'],
    element(
      'main',
      { class: 'waybill-page' },
      element('h1', {}, `Error catalog (${entries.length} codes)`),
      element(
        'p',
        {},
        'Every failed answer is an RFC 9457 problem body (',
        element('code', {}, 'application/problem+json'),
        ') whose ',
        element('code', {}, 'type'),
        ' is one of these codes and whose status is the one given here; ',
        element('code', {}, '/docs/errors#<type>'),
        ' leads to its row. Reach: ',
        element('em', {}, 'integration'),
        ' = answered by the integration API, ',
        element('em', {}, 'sandbox'),
        ' = by the sandbox control plane, ',
        element('em', {}, 'catalog'),
        ' = listed for completeness (see ',
        element('a', { href: '/docs/decisions#d24' }, 'D24'),
        '). The source is ',
        element('code', {}, 'spec/errors.yaml'),
        '.',
      ),
      element(
        'table',
        { class: 'catalog' },
        element('thead', {}, element('tr', {}, ['type (code)', 'status', 'group', 'meaning', 'reach'].map((name) => element('th', { scope: 'col' }, name)))),
        element('tbody', {}, entries.map(catalogRow)),
      ),
    ),
  );
}

/** The anchor of a heading: `d21` for "D21 — …", else its words joined by dashes. */
function headingId(text: string): string {
  const decision = /^D(\d+)\b/.exec(text);
  if (decision !== null) return `d${decision[1]}`;
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** Text with the five HTML-significant characters escaped, for what marked hands over raw. */
function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** Links may go to pages (http, https), mail, or inside the site; anything else (javascript:, data:) is dropped. */
function safeHref(href: string): boolean {
  // Browsers ignore blanks and control characters inside a scheme ("java\tscript:"), so the test does too.
  const compact = href.replace(/[\u0000-\u0020]/g, '');
  return /^(https?|mailto):/i.test(compact) || !/^[a-z][a-z0-9+.-]*:/i.test(compact);
}

/** marked, set up so no raw HTML and no unsafe URL reaches the page. */
const markdown = new Marked({
  gfm: true,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeText(text);
    },
    heading({ tokens, depth, text }: Tokens.Heading): string {
      return `<h${depth} id="${escapeText(headingId(text))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
    link({ href, title, tokens }: Tokens.Link): string {
      const inner = this.parser.parseInline(tokens);
      if (!safeHref(href)) return inner;
      return `<a href="${escapeText(href)}"${title ? ` title="${escapeText(title)}"` : ''}>${inner}</a>`;
    },
    image({ text }: Tokens.Image): string {
      // Pictures would be fetched from wherever they point; the decisions have none, so show the alt text.
      return escapeText(text);
    },
  },
});

/** `markdown` as HTML through the configured `marked`. */
export function markdownHtml(source: string): string {
  return markdown.parse(source, { async: false });
}

/** `spec/DECISIONS.md` as a page, with an anchor per decision (`#d21`). */
export function decisionsPage(): string {
  const source = readFileSync(packageFile('spec/DECISIONS.md'), 'utf8');
  return page('Decisions', '/docs/decisions', ['/docs/assets/waybill-docs.css'], element('main', { class: 'waybill-page' }, renderedHtml(markdownHtml(source))));
}
