/**
 * The guides at /docs/guides in a real browser (Debian's Chromium through playwright-core), with
 * every request to another host blocked, as a person reads them: from the console's Guides link
 * to the front page, on to a guide by its list and to an anchor of another guide; pictures
 * load from the sandbox; at a phone's width (390 px) nothing scrolls sideways (wide tables and
 * code scroll inside their frame); no serious accessibility violation, console error or CSP
 * violation. Screenshots: reports/console/guides-*.png, for a person to look at.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedPage, launchChromium, seriousAccessibilityViolations, skipWithoutBrowser } from '../../dev/testing/browser.ts';
import { builtConsole, signIn } from '../../dev/testing/console-browser.ts';
import { memoryStore, type RunningServer, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';
import { packageFile } from '../../spec/package-files.ts';
import { guides } from './docs-guides.ts';

const SKIP = skipWithoutBrowser('/docs/guides');
const SCREENSHOTS = packageFile('reports/console');
let browser: Browser;
let server: RunningServer;
let consoleDir: string;

beforeAll(async () => {
  if (SKIP) return;
  consoleDir = await builtConsole();
  server = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN, consoleDir });
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
});

/** A page that may reach this server only, and records every other request, console error and CSP violation. */
const ownPage = (options: { bypassCSP?: boolean } = {}) => isolatedPage(browser, new URL(server.url).origin, options);

/** How wide the page is past the window, in CSS pixels (0 when nothing scrolls sideways). */
const overflow = (page: Page) => page.evaluate('document.scrollingElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;

describe.skipIf(SKIP)('/docs/guides in Chromium', () => {
  it('leads from the console to the front page, to a guide, and to an anchor of another guide', async () => {
    const { page, blocked, problems } = await ownPage();
    await page.goto(`${server.url}/console`);
    await signIn(page, TEST_ADMIN_TOKEN);
    await page.getByRole('link', { name: 'Guides' }).click();
    await page.getByRole('heading', { name: 'waybill', level: 1 }).waitFor();
    expect(page.url()).toBe(`${server.url}/docs/guides`);
    await page.getByRole('navigation', { name: 'Guides' }).getByRole('link', { name: 'Vendor' }).click();
    await page.getByRole('heading', { name: 'Vendor guide', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'CI recipes' }).first().click();
    await page.getByRole('heading', { name: 'CI recipes', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'vendor guide' }).click();
    expect(page.url()).toBe(`${server.url}/docs/guides/vendor#exit-codes-and-what-a-ci-step-does-with-each`);
    expect(await page.evaluate('document.querySelector(":target").textContent')).toBe('Exit codes, and what a CI step does with each');
    await page.screenshot({ path: join(SCREENSHOTS, 'guides-vendor-exit-codes.png') });
    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows the pictures from the sandbox, and reads at a phone\'s width without scrolling sideways', async () => {
    const { page, blocked, problems } = await ownPage();
    for (const path of ['/docs/guides', ...guides.map(({ name }) => `/docs/guides/${name}`)]) {
      await page.setViewportSize({ width: 1280, height: 900 });
      // goto waits for the load event, which waits for the pictures.
      await page.goto(`${server.url}${path}`);
      const broken = (await page.evaluate('[...document.images].filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.src)')) as string[];
      expect(broken, path).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await overflow(page), `${path} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
    }
    await page.goto(`${server.url}/docs/guides/integrator#the-console`);
    expect(await page.evaluate('document.images.length')).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: join(SCREENSHOTS, 'guides-integrator-390.png') });
    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('has no serious accessibility violation on the front page and a guide', async () => {
    // axe is a script the pages' own Content-Security-Policy rightly refuses.
    const { page } = await ownPage({ bypassCSP: true });
    for (const path of ['/docs/guides', '/docs/guides/vendor']) {
      await page.goto(`${server.url}${path}`);
      expect(await seriousAccessibilityViolations(page), path).toEqual([]);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'guides-vendor.png') });
    await page.close();
  }, 60_000);
});
