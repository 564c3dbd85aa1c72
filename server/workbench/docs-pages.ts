/**
 * The pages of the API reference: the two OpenAPI documents in Swagger UI, the error catalog
 * as a table with an anchor per code, and `spec/DECISIONS.md` rendered by `marked`. Every page
 * is written through the one escaping element helper; markdown is the only HTML not built
 * here (markdown.ts: no raw HTML and no unsafe link get through).
 */
import { readFileSync } from 'node:fs';
import { type Child, element, htmlDocument, renderedHtml } from '../../conformance/reporters/markup.ts';
import { catalog, type CatalogEntry } from '../../spec/load.ts';
import { packageFile, PACKAGE_VERSION } from '../../spec/package-files.ts';
import { problemsOnDemand } from './docs-problems.ts';
import { markdownHtml } from './markdown.ts';

/** The pages of the navigation bar, in its order. */
const navigation = [
  { href: '/docs', label: 'Integration API' },
  { href: '/docs/sandbox', label: 'Sandbox control plane' },
  { href: '/docs/errors', label: 'Error catalog' },
  { href: '/docs/decisions', label: 'Decisions' },
  { href: '/docs/requirements', label: 'Requirements' },
  { href: '/docs/guides', label: 'Guides' },
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

/**
 * The page rendering one OpenAPI document in Swagger UI (started by `docs-init.js`, no inline
 * script); the integration API's is headed by the problems each operation answers on demand (D95).
 */
export function apiPage(name: ApiDocument): string {
  const document = apiDocuments[name];
  return page(
    document.title,
    document.page,
    ['/docs/assets/swagger-ui.css', '/docs/assets/waybill-docs.css'],
    name === 'integration' ? problemsOnDemand() : null,
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
    element('td', {}, entry.title),
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
        ' is one of these codes and whose status and title are the ones given here; ',
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
        element('thead', {}, element('tr', {}, ['type (code)', 'status', 'title', 'group', 'meaning', 'reach'].map((name) => element('th', { scope: 'col' }, name)))),
        element('tbody', {}, entries.map(catalogRow)),
      ),
    ),
  );
}

/** `spec/DECISIONS.md` as a page, with an anchor per decision (`#d21`). */
export function decisionsPage(): string {
  const source = readFileSync(packageFile('spec/DECISIONS.md'), 'utf8');
  return page('Decisions', '/docs/decisions', ['/docs/assets/waybill-docs.css'], element('main', { class: 'waybill-page' }, renderedHtml(markdownHtml(source))));
}
