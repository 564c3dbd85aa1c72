/**
 * What the console's browser tests share: a page that records what the browser sends, the
 * views by name, sign-in, what reached the server, and a photograph of a view at a desktop
 * and at a phone width, which also holds that nothing scrolls sideways on the phone.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildConsole } from '../../console/build.mjs';
import { packageFile } from '../../spec/package-files.ts';
import type { RunningServer } from './sandbox.ts';

/** Where the photographs go (reports/ is not in the repository); WAYBILL_SHOTS moves them. */
export const SHOTS = process.env['WAYBILL_SHOTS'] ?? packageFile('reports/console');
/** The widths every view is photographed at: a desktop, and a phone (an iPhone 12 to 15 is 390 CSS pixels wide). */
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * The console built from the sources under test into a folder of its own, for the sandbox's
 * `consoleDir`: test files running side by side never rebuild the files another one serves.
 */
export async function builtConsole(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-console-browser-'));
  await buildConsole(dir);
  return dir;
}

/** A console page with what it sent: each address, each header but Authorization, and every complaint (CSP included). */
export interface ConsolePage {
  page: Page;
  requests: string[];
  headers: string[];
  complaints: string[];
}

/** Opens `path` (default `/console`) on a page that records every request and every browser complaint. */
export async function openConsole(browser: Browser, sandbox: RunningServer, options: { bypassCSP?: boolean; path?: string } = {}): Promise<ConsolePage> {
  // The clipboard is granted so that "Copy as curl" can be read back as a person would paste it.
  const page = await browser.newPage({ viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'], bypassCSP: options.bypassCSP });
  const requests: string[] = [];
  const headers: string[] = [];
  const complaints: string[] = [];
  page.on('request', (request) => {
    requests.push(request.url());
    for (const [name, value] of Object.entries(request.headers())) if (name !== 'authorization') headers.push(`${name}: ${value}`);
  });
  page.on('console', (message) => message.type() === 'error' && !/status of 4\d\d/.test(message.text()) && complaints.push(message.text()));
  page.on('pageerror', (error) => complaints.push(String(error)));
  await page.goto(`${sandbox.url}${options.path ?? '/console'}`);
  return { page, requests, headers, complaints };
}

/** Every request line and header but Authorization that reached `sandbox` from now on. */
export function heardBy(sandbox: RunningServer): string[] {
  const heard: string[] = [];
  // Heard before the app routes it: a router mounted under a prefix rewrites the request's url.
  sandbox.server.prependListener('request', (request) => {
    heard.push(`${request.method} ${request.url}`);
    for (const [name, value] of Object.entries(request.headers)) if (name !== 'authorization') heard.push(`${name}: ${String(value)}`);
  });
  return heard;
}

/** Opens a view from the navigation (text links elsewhere on a page may share its name). */
export const view = (page: Page, name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true }).click();

/** Signs in with the admin token as a person types it, and waits for the first view. */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
}

/** What sticks out past the right edge of the page, for a failure message: tag, class and right edge. */
const STICKING_OUT = `[...document.querySelectorAll('body *')]
  .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .slice(0, 5).map((el) => el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + ' → ' + Math.round(el.getBoundingClientRect().right))`;

/** The controls the console's notice (`.live`) lies over, as the page is scrolled now. */
const COVERED = `(() => {
  const notice = document.querySelector('.live');
  if (!notice || !notice.textContent) return [];
  const n = notice.getBoundingClientRect();
  return [...document.querySelectorAll('a, button, input, select, textarea, summary')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.left < n.right && r.right > n.left && r.top < n.bottom && r.bottom > n.top;
  }).map((el) => el.outerHTML.slice(0, 80));
})()`;

/** Fails when the page scrolls sideways or the notice covers a control, at the viewport's width now. */
async function expectTidy(page: Page, name: string): Promise<void> {
  const { width } = page.viewportSize()!;
  const scrollWidth = (await page.evaluate('document.scrollingElement.scrollWidth')) as number;
  expect(scrollWidth, `${name} at ${width} px is ${scrollWidth} px wide: ${String(await page.evaluate(STICKING_OUT))}`).toBeLessThanOrEqual(width);
  expect(await page.evaluate(COVERED), `${name} at ${width} px: controls under the notice`).toEqual([]);
}

/**
 * Photographs the view as it is, whole, at the desktop width and at the phone width
 * (`<name>-1280.png`, `<name>-390.png`), and fails at either when the page scrolls sideways
 * or the notice covers a control.
 */
export async function photograph(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await expectTidy(page, name);
  await page.screenshot({ path: `${SHOTS}/${name}-${DESKTOP.width}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await expectTidy(page, name);
  await page.screenshot({ path: `${SHOTS}/${name}-${PHONE.width}.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}
