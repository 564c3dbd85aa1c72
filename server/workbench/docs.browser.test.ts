/**
 * The API reference in a real browser (Debian's Chromium through playwright-core), with every
 * request to another host blocked: the operations of both documents render, the links reach
 * the catalog and the decisions, and no console error or CSP violation occurs. The screenshot
 * goes to reports/console/docs.png for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutBrowser } from '../../test/browser.ts';
import { packageFile } from '../../spec/package-files.ts';
import { memoryStore, type RunningServer, startServer } from '../testing.ts';

const SKIP = skipWithoutBrowser('/docs');
const SCREENSHOTS = packageFile('reports/console');
let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  if (SKIP) return;
  server = await startServer(memoryStore());
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that may reach this server only, and records every other request, console error and CSP violation. */
async function isolatedPage(): Promise<{ page: Page; blocked: string[]; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const blocked: string[] = [];
  const problems: string[] = [];
  const own = new URL(server.url).origin;
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === own) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, blocked, problems };
}

describe.skipIf(SKIP)('/docs in Chromium', () => {
  it('renders the integration API from this server alone, and a person can open an operation', async () => {
    const { page, blocked, problems } = await isolatedPage();
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

  it('renders the control plane, and the links lead to the catalog and the decisions', async () => {
    const { page, blocked, problems } = await isolatedPage();
    await page.goto(`${server.url}/docs`);
    await page.locator('nav a', { hasText: 'Sandbox control plane' }).click();
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(page.url()).toBe(`${server.url}/docs/sandbox`);
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    await page.locator('nav a', { hasText: 'Error catalog' }).click();
    expect(await page.locator('table.catalog tbody tr').count()).toBe(218);
    await page.goto(`${server.url}/docs/errors#api.rate_limited`);
    expect(await page.locator('tr:target td').nth(1).innerText()).toBe('429');
    await page.locator('nav a', { hasText: 'Decisions' }).click();
    expect(await page.locator('h2#d21').innerText()).toMatch(/^D21 — /);
    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
