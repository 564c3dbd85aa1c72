/**
 * No dead link in the README and the guides (issue 38): each relative link or image leads to a
 * file of the repository, and its anchor to a heading of that file as GitHub names it; each
 * anchor within a document to one of its headings; and each address of the sandbox a document
 * names under `/docs` (a link, a code span or a full `127.0.0.1:4000` address) answers 200 from a
 * sandbox, its anchor an element of the page (the Swagger UI pages draw theirs in the browser,
 * so only their status is checked). External links are not fetched: the tests are offline.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStore, type RunningServer, startServer } from '../testing/sandbox.ts';
import { PACKAGE_ROOT } from '../../spec/package-files.ts';
import { documentLinks, headingAnchors, sandboxAddresses } from './doc-links.ts';

/** The README and every Markdown file under docs/, by their path from the package root. */
const documents = ['README.md', ...readdirSync(join(PACKAGE_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const read = (file: string) => readFileSync(join(PACKAGE_ROOT, file), 'utf8');
/** Pages whose anchors Swagger UI makes in the browser. */
const swaggerPages = new Set(['/docs', '/docs/sandbox']);

let server: RunningServer;
const pages = new Map<string, Promise<{ status: number; html: string }>>();
beforeAll(async () => {
  server = await startServer(await memoryStore());
});
afterAll(() => server?.close());

/** The sandbox's answer for `path`, fetched once. */
function page(path: string): Promise<{ status: number; html: string }> {
  if (!pages.has(path)) pages.set(path, fetch(`${server.url}${path}`, { redirect: 'manual' }).then(async (response) => ({ status: response.status, html: await response.text() })));
  return pages.get(path)!;
}

const relativeLinks = documents.flatMap((file) =>
  documentLinks(read(file))
    .filter(({ href }) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('/'))
    .map((link) => [file, link.href, link.kind] as const),
);
const addresses = documents.flatMap((file) => sandboxAddresses(read(file)).map((address) => [file, address] as const));

describe('the links of the README and the guides', () => {
  it('finds the documents and their links', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/integrator.md', 'docs/vendor.md', 'docs/ci.md', 'docs/hosting.md', 'docs/reference.md', 'docs/performance.md']));
    expect(relativeLinks.length).toBeGreaterThan(50);
    expect(addresses.length).toBeGreaterThan(5);
  });

  it.each(relativeLinks)('%s: %s (%s) leads to a file of the repository, and to a heading of it', (file, href) => {
    const [path = '', anchor] = href.split('#', 2);
    const target = path === '' ? file : normalize(join(dirname(file), path));
    expect(relative(PACKAGE_ROOT, join(PACKAGE_ROOT, target)).startsWith('..'), `${href} leads out of the repository`).toBe(false);
    expect(existsSync(join(PACKAGE_ROOT, target)), `${target} does not exist`).toBe(true);
    if (anchor === undefined) return;
    expect(target.endsWith('.md') && statSync(join(PACKAGE_ROOT, target)).isFile(), `${href}: an anchor into a file that is not Markdown`).toBe(true);
    expect([...headingAnchors(read(target))], `${target} has no heading #${anchor}`).toContain(anchor);
  });

  it.each(addresses)('%s: the sandbox serves %s', async (_file, address) => {
    const [path = '', anchor] = address.split('#', 2);
    const { status, html } = await page(path);
    expect(status, `${path} answered ${status}`).toBe(200);
    if (anchor === undefined || swaggerPages.has(path)) return;
    expect(html, `${path} has no element with id ${anchor}`).toContain(`id="${anchor}"`);
  });
});
