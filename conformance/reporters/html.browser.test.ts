/**
 * The HTML report in a real browser (Debian's Chromium through playwright-core): it loads
 * from a file with no network request, its filters hide and show checks, and a failure shows
 * expected, received, the fix, the exchange and the curl line (screenshot of a finding:
 * reports/console/report-finding-fix.png); the requirements table filters by level, outcome and
 * typed text, and its links lead to checks even when a filter hides them; the requirement trace
 * leads from a requirement to its checks and sandbox files, with no serious accessibility
 * violation (screenshot: reports/console/report-requirement-trace.png).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, seriousAccessibilityViolations, skipWithoutBrowser } from '../../dev/testing/browser.ts';
import { packageFile } from '../../spec/package-files.ts';
import { sampleReport } from '../../dev/testing/conformance/sample-report.ts';
import { reportHtml } from './html.ts';
import { requirementTrace } from './requirement-trace.ts';

const SKIP = skipWithoutBrowser('report.html');
const dir = mkdtempSync(join(tmpdir(), 'waybill-html-'));
let browser: Browser;

beforeAll(async () => {
  if (SKIP) return;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(SKIP)('report.html in Chromium', () => {
  it('has no sideways scroll on a 390 px phone: the spec hash, the profile and long lines wrap or scroll in their own box', async () => {
    const report = sampleReport();
    // A profile line as long as a real one: every key and pool a full profile names.
    report.profile = { ...report.profile, keys: ['full', 'ordersRead', 'ordersWrite', 'tripsRead', 'noScopes', 'otherTenant', 'revoked', 'rateLimited', 'suspendedTenant'], pools: { cancellable: 20, archivable: 20, notCancellable: 20, onTrip: 20, payable: 30, otherTenant: 20 } };
    const file = join(dir, 'narrow.html');
    writeFileSync(file, reportHtml(report));
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(pathToFileURL(file).href);
    expect(await page.evaluate('document.scrollingElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);
    await page.close();
  });

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
    expect(text).toContain(failure.findings[0]!.fix);
    await page.screenshot({ path: join(dir, 'report.png'), fullPage: true });
    await article.locator('.finding').first().screenshot({ path: join(packageFile('reports/console'), 'report-finding-fix.png') });
    await page.close();
  }, 60_000);

  it('filters requirements as a person would: ticking levels and outcomes, typing a search, following links', async () => {
    const report = sampleReport();
    const { entries } = report.requirements;
    const file = join(dir, 'requirements.html');
    writeFileSync(file, reportHtml(report));
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    const section = page.getByRole('region', { name: /^Requirements/ });
    const rows = section.locator('tbody tr');
    const shown = () => section.locator('tbody tr:visible').count();
    const status = section.getByRole('status');
    expect(await rows.count()).toBe(entries.length);
    expect(await shown()).toBe(entries.length);
    await expect.poll(() => status.textContent()).toBe(`${entries.length} of ${entries.length} requirements shown`);
    expect(await section.innerText()).toContain('Seed requirements: 112 testable, 3 covered, 1 passed, 1 failed');

    const levels = section.getByRole('group', { name: 'Level' });
    const outcomes = section.getByRole('group', { name: 'Outcome' });
    await levels.getByLabel('DECISION').uncheck();
    expect(await shown()).toBe(entries.filter((entry) => entry.level !== 'DECISION').length);
    expect(await section.locator('tbody tr[data-level="DECISION"]:visible').count()).toBe(0);
    await outcomes.getByLabel('untested').click();
    await outcomes.getByLabel('not-testable').press('Space');
    const ran = entries.filter((entry) => entry.level !== 'DECISION' && entry.checks.length > 0);
    expect(await section.locator('tbody tr:visible th').allInnerTexts()).toEqual(ran.map((entry) => entry.id));
    await levels.getByLabel('DECISION').check();
    await outcomes.getByLabel('untested').check();
    await outcomes.getByLabel('not-testable').check();
    expect(await shown()).toBe(entries.length);

    const search = section.getByLabel('Search id, source, quote, reason or check');
    await search.click();
    await search.pressSequentially('scopes');
    const matching = entries.filter((entry) => [entry.id, entry.source, entry.quote, entry.reason ?? '', ...entry.checks.map((check) => check.id)].join(' ').toLowerCase().includes('scopes'));
    expect(await shown()).toBe(matching.length);
    expect(await section.locator('tbody tr:visible th').allInnerTexts()).toEqual(matching.map((entry) => entry.id));
    await expect.poll(() => status.textContent()).toBe(`${matching.length} of ${entries.length} requirements shown`);
    await search.press('Control+A');
    await search.press('Backspace');
    expect(await shown()).toBe(entries.length);
    await search.fill('D8 absent limit');
    expect(await section.locator('tbody tr:visible th').allInnerTexts()).toEqual(['D8']);
    const untestable = entries.find((entry) => !entry.testable)!;
    await search.fill(untestable.id);
    expect(await section.locator('tbody tr:visible').innerText()).toContain(`Not testable: ${untestable.reason}`);
    await search.fill('');

    // A check hidden by the check filters still opens when a requirement row links to it.
    await page.locator('#filters').getByRole('group', { name: 'Outcome' }).getByLabel('fail').uncheck();
    const article = page.locator('[id="check-discovery.whoami.scopes"]');
    expect(await article.isVisible()).toBe(false);
    await section.locator('tr[id="requirement-int.identity.scopes"]').getByRole('link', { name: 'discovery.whoami.scopes' }).click();
    expect(await article.isVisible()).toBe(true);
    expect(await article.locator(':scope > details').getAttribute('open')).not.toBeNull();
    expect(page.url()).toMatch(/#check-discovery\.whoami\.scopes$/);

    // And a requirement hidden by the requirement filters shows when a check links to it.
    await page.locator('#filters').getByRole('group', { name: 'Outcome' }).getByLabel('fail').check();
    await outcomes.getByLabel('fail').uncheck();
    const row = section.locator('tr[id="requirement-int.identity.scopes"]');
    expect(await row.isVisible()).toBe(false);
    // Its Verifies line's link: the ids a finding's Fix cites link to the same row.
    await article.getByRole('paragraph').filter({ hasText: 'Verifies:' }).getByRole('link', { name: 'int.identity.scopes' }).click();
    expect(await row.isVisible()).toBe(true);
    await page.close();
  }, 60_000);

  it('leads from a requirement to its trace, and from the trace to a check that ran, with no serious axe violation', async () => {
    const report = sampleReport();
    const trace = requirementTrace();
    const file = join(dir, 'traced.html');
    writeFileSync(file, reportHtml(report, trace));
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    const section = page.getByRole('region', { name: /^Requirement trace/ });
    expect(await section.locator('tbody tr').count()).toBe(trace.length);
    await page.locator('tr[id="requirement-int.identity.scopes"] th a').click();
    expect(page.url()).toMatch(/#trace-int\.identity\.scopes$/);
    const row = section.locator('tr[id="trace-int.identity.scopes"]');
    expect(await row.isVisible()).toBe(true);
    await row.getByRole('link', { name: 'discovery.whoami.scopes' }).click();
    const article = page.locator('[id="check-discovery.whoami.scopes"]');
    expect(await article.isVisible()).toBe(true);
    await page.goto(`${pathToFileURL(file).href}#trace-int.orders-feed.caught-up`);
    expect(await section.locator('tr:target').innerText()).toContain('server/integration/feeds.ts');
    const shots = packageFile('reports/console');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'report-requirement-trace.png') });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  }, 60_000);
});
