/**
 * The guides served offline at /docs/guides (issue 38): the README as their front page and each
 * guide of docs/ rendered by the docs' one Markdown setup, under the pages' CSP, listed from
 * /docs and from each other; a repository link leads to the page the sandbox serves for it (or
 * shows its text alone); every address a served guide links to, or shows a picture from, answers
 * 200 from the sandbox, and every anchor it links to is on the page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageFiles } from '../../dev/repository/doc-session.ts';
import { memoryStore, type RunningServer, startServer } from '../../dev/testing/sandbox.ts';
import { packageFile } from '../../spec/package-files.ts';
import { guides, servedAddress } from './docs-guides.ts';
import { PAGE_CSP } from './docs.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(await memoryStore());
});
afterAll(() => server?.close());

const get = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
const guidePaths = ['/docs/guides', ...guides.map(({ name }) => `/docs/guides/${name}`)];

describe('servedAddress', () => {
  it.each([
    ['docs/vendor.md', 'ci.md', '/docs/guides/ci'],
    ['docs/vendor.md', 'ci.md#a-vendors-job', '/docs/guides/ci#a-vendors-job'],
    ['README.md', 'docs/integrator.md#check-your-client', '/docs/guides/integrator#check-your-client'],
    ['docs/ci.md', '../README.md#install', '/docs/guides#install'],
    ['docs/hosting.md', '../spec/DECISIONS.md#d75--the-postgresql-schema-and-its-migrations', '/docs/decisions#d75'],
    ['docs/vendor.md', '../spec/openapi.yaml', '/openapi.yaml'],
    ['docs/integrator.md', 'images/console-trip.png', '/docs/guides/images/console-trip.png'],
    ['README.md', 'docs/images/console-trip.png', '/docs/guides/images/console-trip.png'],
    ['docs/vendor.md', '#the-profile', '#the-profile'],
    ['docs/vendor.md', '/docs/errors#api.rate_limited', '/docs/errors#api.rate_limited'],
    ['docs/vendor.md', 'https://example.test/x', 'https://example.test/x'],
  ])('%s: %s leads to %s', (from, href, served) => {
    expect(servedAddress(from, href)).toBe(served);
  });

  it('shows the text alone of a link to a file the sandbox does not serve', () => {
    expect(servedAddress('README.md', 'docs/developing.md')).toBeNull();
    expect(servedAddress('README.md', 'examples/ci/github-actions.yml')).toBeNull();
    expect(servedAddress('docs/ci.md', 'images/../../package.json')).toBeNull();
  });
});

describe('the guides, served', () => {
  it.each(guidePaths)('%s is HTML under the pages\' CSP, lists every guide, and is linked from /docs', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
    const html = await response.text();
    for (const other of guidePaths) expect(html).toContain(`href="${other}"`);
    expect(html).not.toMatch(/<script/);
  });

  it('renders each guide from its file in the package: its title, its headings with GitHub\'s anchors, no comment of the tests', async () => {
    for (const { name } of guides) {
      const source = readFileSync(packageFile(`docs/${name}.md`), 'utf8');
      const html = await (await get(`/docs/guides/${name}`)).text();
      expect(html).toContain(`<title>${/^# (.+)$/m.exec(source)![1]} · waybill</title>`);
      expect(html).not.toContain('output of:');
    }
    const vendor = await (await get('/docs/guides/vendor')).text();
    expect(vendor).toContain('<h2 id="exit-codes-and-what-a-ci-step-does-with-each">');
    expect(vendor).toContain('href="/docs/guides/ci"');
    expect(vendor).toContain('href="/docs/decisions#d55"');
    expect(await (await get('/docs')).text()).toContain('href="/docs/guides"');
  });

  it('links, and shows pictures, only from this sandbox, each of which answers 200 with the anchor it names', async () => {
    const checked = new Set<string>();
    for (const path of guidePaths) {
      const html = await (await get(path)).text();
      const addresses = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
      for (const address of addresses) {
        // The console is the navigation bar's, and answers 503 until a build made it (its own tests build it).
        if (/^https?:/.test(address) || address === '/console') continue;
        expect(address, `${path} links to ${address}`).toMatch(/^[/#]/);
        const [target = '', anchor] = address.split('#', 2);
        const key = `${target || path}#${anchor ?? ''}`;
        if (checked.has(key)) continue;
        checked.add(key);
        const response = await get(target || path);
        expect(response.status, `${path} → ${address}`).toBe(200);
        const body = await response.text();
        if (anchor !== undefined && !['/docs', '/docs/sandbox'].includes(target)) expect(body, `${path} → ${address}: no id ${anchor}`).toContain(`id="${anchor}"`);
      }
    }
    expect(checked.size).toBeGreaterThan(40);
  });

  it('serves a guide\'s picture as PNG, and nothing that is not one', async () => {
    const images = [...(await (await get('/docs/guides/integrator')).text()).matchAll(/<img src="([^"]+)"/g)].map((match) => match[1]!);
    expect(images.length).toBeGreaterThan(0);
    const picture = await get(images[0]!);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await picture.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    for (const path of ['/docs/guides/images/none.png', '/docs/guides/images/..%2F..%2Fpackage.json', '/docs/guides/developing', '/docs/guides/README']) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it('are in the package, so that an installed sandbox serves them: the README, every guide and picture, the CI recipes; not the contributors\' guide', () => {
    const shipped = packageFiles();
    const pictures = readdirSync(packageFile('docs/images')).map((name) => `docs/images/${name}`);
    expect(shipped).toEqual(expect.arrayContaining(['README.md', ...guides.map(({ name }) => `docs/${name}.md`), ...pictures, 'examples/ci/github-actions.yml', 'examples/ci/gitlab-ci.yml']));
    expect(shipped).not.toContain('docs/developing.md');
  }, 60_000);

  it('takes GET and HEAD only', async () => {
    // Sent again once if the kept-alive connection it went on was closed meanwhile (the test before waits on npm pack).
    const response = await get('/docs/guides/vendor', { method: 'POST' }).catch(() => get('/docs/guides/vendor', { method: 'POST' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect((await get('/docs/guides', { method: 'HEAD' })).status).toBe(200);
  });
});
