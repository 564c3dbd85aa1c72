/**
 * The HTML report in a real browser (Debian's Chromium through playwright-core): it loads
 * from a file with no network request, its filters hide and show checks, and a failure shows
 * expected, received, the exchange and the curl line.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleReport } from '../testing/sample-report.ts';
import { reportHtml } from './html.ts';

const CHROMIUM = process.env['WAYBILL_CHROMIUM'] ?? '/usr/bin/chromium';
const dir = mkdtempSync(join(tmpdir(), 'waybill-html-'));
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('report.html in Chromium', () => {
  it('makes no request but its own file, filters by outcome, level and family, and shows a failure whole', async () => {
    const report = sampleReport();
    const file = join(dir, 'report.html');
    writeFileSync(file, reportHtml(report));
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    expect(requests).toEqual([pathToFileURL(file).href]);

    const visible = () => page.locator('[data-check]:visible').count();
    const all = report.results.length;
    expect(await visible()).toBe(all);
    await page.locator('input[data-filter="outcome"][value="pass"]').uncheck();
    expect(await visible()).toBe(all - report.counts.byOutcome.pass);
    expect(await page.locator('[data-check][data-outcome="pass"]:visible').count()).toBe(0);
    await page.locator('input[data-filter="level"][value="MUST"]').uncheck();
    expect(await page.locator('[data-check][data-level="MUST"]:visible').count()).toBe(0);
    await page.locator('input[data-filter="outcome"][value="pass"]').check();
    await page.locator('input[data-filter="level"][value="MUST"]').check();
    const family = report.results[0]!.family;
    await page.locator('#family-filter').selectOption(family);
    expect(await visible()).toBe(report.results.filter((result) => result.family === family).length);
    await page.locator('#family-filter').selectOption('');
    expect(await visible()).toBe(all);

    const failure = report.results.find((result) => result.outcome === 'fail' && result.findings[0]?.exchange !== undefined)!;
    const article = page.locator(`[data-check][data-outcome="fail"]`, { hasText: failure.id }).first();
    const text = await article.innerText();
    expect(text).toContain(failure.findings[0]!.expected);
    expect(text).toContain(failure.findings[0]!.received);
    expect(text).toContain(failure.findings[0]!.exchange!.replay);
    await page.screenshot({ path: join(dir, 'report.png'), fullPage: true });
    await page.close();
  }, 60_000);
});
