/**
 * What every browser test shares: Debian's Chromium through playwright-core (Playwright
 * cannot download a browser here), the rule that a missing browser skips the tests with a
 * message but fails them where `WAYBILL_REQUIRE_BROWSER=1` (CI), and an axe-core
 * accessibility check of a page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import { timedStart } from './start-times.ts';

/** The Chromium the tests drive: `WAYBILL_CHROMIUM`, else Debian's. */
export const CHROMIUM = process.env['WAYBILL_CHROMIUM'] ?? '/usr/bin/chromium';
/** CI sets it (.ci/run): there a missing browser fails the run instead of skipping the tests. */
const BROWSER_REQUIRED = process.env['WAYBILL_REQUIRE_BROWSER'] === '1';

/**
 * True when the browser tests of `what` are to be skipped: no Chromium, and CI did not ask
 * for one. Says so once on the console, with how to get one.
 */
export function skipWithoutBrowser(what: string): boolean {
  const skip = !existsSync(CHROMIUM) && !BROWSER_REQUIRED;
  if (skip) {
    console.warn(`${what} browser tests skipped: no Chromium at ${CHROMIUM}. Install Debian's chromium (apt-get install -y chromium) or point WAYBILL_CHROMIUM at one; CI installs it and never skips.`);
  }
  return skip;
}

/** Launches headless Chromium; throws, saying how to install it, when it is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing and WAYBILL_REQUIRE_BROWSER=1: install Debian's chromium (apt-get install -y chromium); .ci/run does`);
  }
  return timedStart('chromium', () =>
    chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    }),
  );
}

/** One accessibility violation as axe-core reports it. */
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[] }[];
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical WCAG 2.1 A/AA violations axe-core finds on the page as it is now,
 * each as `id (impact): help — targets`. The page needs a context made with `bypassCSP: true`:
 * axe is a script the page's own Content-Security-Policy rightly refuses.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((result) => result.violations)`)) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * A new page of `browser` that may reach `origin` only: every other request is aborted and kept
 * in `blocked`, and every console error, CSP violation and uncaught error in `problems`.
 */
export async function isolatedPage(browser: Browser, origin: string, options: { bypassCSP?: boolean } = {}): Promise<{ page: Page; blocked: string[]; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ...(options.bypassCSP === undefined ? {} : { bypassCSP: options.bypassCSP }) });
  const blocked: string[] = [];
  const problems: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, blocked, problems };
}
