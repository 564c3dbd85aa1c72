/**
 * The API reference in a real browser (Debian's Chromium through playwright-core), with every
 * request to another host blocked: the operations of both documents render, the links reach
 * the catalog and the decisions, the requirement trace reads on a desktop and a phone with no
 * serious accessibility violation, the problems on demand (D95) open above the integration API,
 * and no console error or CSP violation occurs. The screenshots go to reports/console/ (docs.png,
 * docs-problems.png, docs-requirements-*.png) for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedPage, launchChromium, seriousAccessibilityViolations, skipWithoutBrowser } from '../../dev/testing/browser.ts';
import { operations, requirements } from '../../spec/load.ts';
import { packageFile } from '../../spec/package-files.ts';
import { memoryStore, type RunningServer, startServer } from '../../dev/testing/sandbox.ts';

const SKIP = skipWithoutBrowser('/docs');
const SCREENSHOTS = packageFile('reports/console');
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  if (SKIP) return;
  server = await startServer(await memoryStore());
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that may reach this server only, and records every other request, console error and CSP violation. */
const ownPage = () => isolatedPage(browser, new URL(server.url).origin);

describe.skipIf(SKIP)('/docs in Chromium', () => {
  it('renders the integration API from this server alone, and a person can open an operation', async () => {
    const { page, blocked, problems } = await ownPage();
    await page.goto(`${server.url}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.info .title').innerText()).toContain('Delivery Integration API');
    expect(await page.locator('.opblock').count()).toBeGreaterThanOrEqual(6);
    await expect.poll(() => page.locator('.opblock-summary-path', { hasText: '/api/v1/integration/orders' }).count()).toBeGreaterThan(0);
    // This sandbox is offered first as the server "Try it out" talks to.
    await expect.poll(() => page.locator('.servers select option').first().innerText()).toContain(server.url);
    await expect.poll(() => page.locator('.servers select').inputValue()).toBe(server.url);
    await page.locator('.opblock-summary-path', { hasText: '/api/v1/integration/orders' }).first().click();
    await page.locator('.opblock-body').first().waitFor();
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'docs.png') });
    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows above the API the Prefer line that forces each code of each operation, leading to the catalog (D95)', async () => {
    const { page, blocked, problems } = await ownPage();
    await page.goto(`${server.url}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    const rows = page.locator('#problems-cancelOrder tbody tr');
    expect(await rows.first().isVisible()).toBe(false);
    await page.getByText('Any problem an operation lists, on demand').click();
    await rows.first().waitFor();
    expect(await rows.count()).toBe(operations.get('cancelOrder')!.errorCodes.length);
    expect(await page.locator('#problems-orderFeed').innerText()).toContain('Prefer: problem=api.rate_limited');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-problems.png') });
    await page.locator('#problems-cancelOrder').getByRole('link', { name: 'Illegal status transition' }).click();
    await page.waitForURL(/\/docs\/errors#orders\.status\.illegal$/);
    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('renders the control plane, and the links lead to the catalog and the decisions', async () => {
    const { page, blocked, problems } = await ownPage();
    await page.goto(`${server.url}/docs`);
    await page.locator('nav a', { hasText: 'Sandbox control plane' }).click();
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(page.url()).toBe(`${server.url}/docs/sandbox`);
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    await page.locator('nav a', { hasText: 'Error catalog' }).click();
    expect(await page.locator('table.catalog tbody tr').count()).toBe(218);
    await page.goto(`${server.url}/docs/errors#api.rate_limited`);
    expect(await page.locator('tr:target td').nth(1).innerText()).toBe('429');
    // The row an anchor leads to shows whole: under the sticky header at a desktop's width, a card of its own on a phone.
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/docs/decisions`);
      await page.goto(`${server.url}/docs/errors#trips.stop.reasonRequired`);
      const { rowTop, headTop, headBottom, scrolled } = (await page.evaluate(`(() => {
        const head = document.querySelector('.catalog thead th').getBoundingClientRect();
        return { rowTop: document.querySelector('tr:target').getBoundingClientRect().top, headTop: head.top, headBottom: head.bottom, scrolled: scrollY };
      })()`)) as { rowTop: number; headTop: number; headBottom: number; scrolled: number };
      expect(scrolled, `scrolled to the row at ${viewport.width} px`).toBeGreaterThan(0);
      if (viewport.width === 1280) expect(headTop, 'the header is stuck to the top').toBe(0);
      expect(rowTop, `the row's top at ${viewport.width} px`).toBeGreaterThanOrEqual(Math.max(headBottom, 0) - 0.5);
      expect(await page.evaluate('document.scrollingElement.scrollWidth'), `the catalog's width at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `docs-errors-anchor-${viewport.width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('nav a', { hasText: 'Decisions' }).click();
    expect(await page.locator('h2#d21').innerText()).toMatch(/^D21 — /);
    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('traces the requirements on a desktop and a phone: the anchored row under the header, no sideways scroll, no serious axe violation', async () => {
    const { page, blocked, problems } = await ownPage();
    await page.goto(`${server.url}/docs`);
    await page.locator('nav a', { hasText: 'Requirements' }).click();
    expect(page.url()).toBe(`${server.url}/docs/requirements`);
    expect(await page.locator('table.trace tbody tr').count()).toBe(requirements.size);
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/docs/errors`);
      await page.goto(`${server.url}/docs/requirements#int.orders-feed.caught-up`);
      const row = page.locator('tr:target');
      expect(await row.getAttribute('id')).toBe('int.orders-feed.caught-up');
      expect(await row.innerText()).toContain('server/integration/feeds.ts');
      const { rowTop, headBottom } = (await page.evaluate(`(() => {
        const head = document.querySelector('table.trace thead th').getBoundingClientRect();
        return { rowTop: document.querySelector('tr:target').getBoundingClientRect().top, headBottom: head.bottom };
      })()`)) as { rowTop: number; headBottom: number };
      expect(rowTop, `the row's top at ${viewport.width} px`).toBeGreaterThanOrEqual(Math.max(headBottom, 0) - 0.5);
      expect(await page.evaluate('document.scrollingElement.scrollWidth'), `the trace's width at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: join(SCREENSHOTS, `docs-requirements-${viewport.width}.png`) });
    }
    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
    // axe is a script the page's CSP refuses, so it runs in a context that bypasses it.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const checked = await context.newPage();
    await checked.goto(`${server.url}/docs/requirements`);
    expect(await seriousAccessibilityViolations(checked)).toEqual([]);
    await context.close();
  }, 60_000);
});
