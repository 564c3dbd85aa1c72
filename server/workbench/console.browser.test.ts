/**
 * The console in a real browser (Debian's Chromium through playwright-core), driven as a
 * person would against an in-memory sandbox: a wrong token refused with the server's words;
 * sign-in; a tenant (after a field error shown beside its field), a key whose secret shows
 * once; two orders; a trip planned from them, started, one stop delivered and one failed (after
 * the catalog's reason error beside its field), completed; both end statuses in the feed as
 * the new key reads it; the request log (or its not-available state). Every view is photographed into reports/console/<view>.png. No request
 * leaves the sandbox and the token never appears in an address.
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, seriousAccessibilityViolations, skipWithoutBrowser } from '../../test/browser.ts';
import { buildConsole } from '../../console/build.mjs';
import { packageFile } from '../../spec/package-files.ts';
import { memoryStore, type RunningServer, startServer, TEST_ADMIN_TOKEN } from '../testing.ts';

const SKIP = skipWithoutBrowser('console');
const SHOTS = packageFile('reports/console');
let browser: Browser;
let sandbox: RunningServer;

beforeAll(async () => {
  if (SKIP) return;
  // The console the sandbox serves is dist/console: build it from the sources under test.
  await buildConsole();
  mkdirSync(SHOTS, { recursive: true });
  sandbox = await startServer(memoryStore(), { adminToken: TEST_ADMIN_TOKEN });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

const shot = (page: Page, view: string) => page.screenshot({ path: `${SHOTS}/${view}.png`, fullPage: true });

/** Opens a page on the console that records every request and every browser complaint (CSP included). */
async function openConsole(options: { bypassCSP?: boolean } = {}): Promise<{ page: Page; requests: string[]; complaints: string[] }> {
  // The clipboard is granted so that "Copy as curl" can be read back as a person would paste it.
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'], ...options });
  const requests: string[] = [];
  const complaints: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => message.type() === 'error' && !/status of 4\d\d/.test(message.text()) && complaints.push(message.text()));
  page.on('pageerror', (error) => complaints.push(String(error)));
  await page.goto(`${sandbox.url}/console`);
  return { page, requests, complaints };
}

describe.skipIf(SKIP)('the console in Chromium', () => {
  it('refuses a wrong token with the server\'s words and keeps nothing', async () => {
    const { page, complaints } = await openConsole();
    await page.getByLabel('Admin token').fill('wba_not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('The sandbox refused this token.').isVisible()).toBe(true);
    expect(await page.getByRole('alert').textContent()).toContain('The admin token is not valid.');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await shot(page, 'sign-in');
    expect(complaints).toEqual([]);
    await page.close();
  });

  it('runs an order from intake to the feed and the request log: tenant, key, orders, trip, outcomes, feed, log', async () => {
    const { page, requests, complaints } = await openConsole();
    // Node's types have no DOM: the page measures itself in its own words.
    const timing = (await page.evaluate(`(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      const resources = performance.getEntriesByType('resource');
      return { loadMs: navigation.loadEventEnd - navigation.startTime, bytes: navigation.encodedBodySize + resources.reduce((sum, r) => sum + r.encodedBodySize, 0) };
    })()`)) as { loadMs: number; bytes: number };
    console.info(`console first load: ${timing.bytes} bytes in ${Math.round(timing.loadMs)} ms`);
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('waybill.adminToken')")).toBe(TEST_ADMIN_TOKEN);

    // A tenant: a bad country is refused beside the field with its catalog code.
    await page.getByLabel('Name', { exact: true }).fill('Acme Deliveries');
    await page.getByLabel('Country').fill('XX');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    const countryErrors = page.locator('.field.invalid', { has: page.getByLabel('Country') });
    await expect.poll(() => countryErrors.textContent()).toContain('tenants.country.invalid');
    await page.getByLabel('Country').fill('NL');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await page.getByRole('row', { name: /Acme Deliveries/ }).getByText('Working with it').waitFor();
    await shot(page, 'tenants');

    // A key: its secret once, then never again.
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByLabel('Name', { exact: true }).fill('feeds');
    await page.getByLabel('orders:write').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('#new-key-secret').textContent())!;
    expect(secret).toMatch(/^wbk_/);
    await page.getByRole('row', { name: /feeds/ }).waitFor();
    await shot(page, 'keys');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.locator('body').textContent()).not.toContain(secret);

    // Two orders.
    await page.getByRole('link', { name: 'Orders' }).click();
    for (const [externalId, quantity] of [['SHOP-1', '2'], ['SHOP-2', '1']] as const) {
      await page.getByLabel('External id', { exact: true }).fill(externalId);
      await page.getByLabel('Quantity').fill(quantity);
      await page.getByRole('button', { name: 'Create order' }).click();
      await page.getByRole('link', { name: externalId }).waitFor();
    }
    const madeKeys = page.getByLabel('API key made in this tab');
    await madeKeys.selectOption({ label: (await madeKeys.locator('option', { hasText: 'feeds' }).textContent())! });
    await page.getByRole('table', { name: 'Orders from the feed' }).getByRole('link', { name: 'SHOP-2' }).waitFor();
    await shot(page, 'orders');
    await page.getByRole('table', { name: 'Orders from the feed' }).getByRole('link', { name: 'SHOP-1' }).click();
    await page.getByRole('heading', { name: 'Order SHOP-1' }).waitFor();
    await page.getByText('created').first().waitFor();
    await shot(page, 'order-detail');

    // A trip from both, started, one stop delivered, one failed, completed.
    await page.getByRole('link', { name: 'Trips' }).click();
    await page.getByLabel(/SHOP-1/).check();
    await page.getByLabel(/SHOP-2/).check();
    await page.getByRole('button', { name: 'Plan trip' }).click();
    await page.getByRole('button', { name: 'Start trip' }).click();
    await page.locator('.facts').getByText('InProgress').waitFor();
    await page.getByRole('button', { name: 'Record stop 0' }).click();
    await page.getByRole('button', { name: 'Record stop 0' }).waitFor({ state: 'detached' });
    await page.getByLabel('Stop 1 outcome').selectOption('Failed');
    await page.getByRole('button', { name: 'Record stop 1' }).click();
    const reasonField = page.getByRole('form', { name: 'Outcome of stop 1' }).locator('.field.invalid');
    await expect.poll(() => reasonField.textContent()).toContain('trips.stop.reasonRequired');
    await page.getByRole('form', { name: 'Outcome of stop 1' }).getByLabel('Reason code').fill('CustomerAbsent');
    await page.getByRole('button', { name: 'Record stop 1' }).click();
    await page.getByRole('button', { name: 'Record stop 1' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Complete trip' }).click();
    await page.locator('.facts').getByText('Completed').waitFor();
    await shot(page, 'trips');

    // The feed as the new key reads it: both orders in their end statuses.
    await page.getByRole('link', { name: 'Feed' }).click();
    await page.getByLabel('or paste a key').fill(secret);
    await page.getByLabel('Since').fill('yesterday');
    await page.getByRole('button', { name: 'Read first page' }).click();
    const sinceField = page.locator('.field.invalid', { has: page.getByLabel('Since') });
    await expect.poll(() => sinceField.textContent()).toContain('api.malformed_request');
    await page.getByLabel('Since').fill('');
    await page.getByRole('button', { name: 'Read first page' }).click();
    const feedRow = (externalId: string) => page.getByRole('row', { name: new RegExp(`^${externalId} `) });
    await expect.poll(() => feedRow('SHOP-1').textContent()).toContain('FullyDelivered');
    expect(await feedRow('SHOP-2').textContent()).toContain('Returned');
    expect(await page.getByText('nextCursor:').textContent()).toContain('null: caught up');
    await shot(page, 'feed');

    // The request log: the feed read above, beside its answer, with its curl line.
    await page.getByRole('link', { name: 'Request log' }).click();
    const feedRead = page.getByRole('row', { name: /orderFeed/ }).first();
    await feedRead.waitFor();
    await feedRead.getByRole('button', { name: /^Open request/ }).click();
    await page.getByRole('button', { name: 'Copy as curl' }).waitFor();
    expect(await page.locator('pre.curl').textContent()).toMatch(/^curl .*\/api\/v1\/integration\/orders/s);
    const refused = page.getByRole('row', { name: /api\.malformed_request/ }).first();
    await refused.getByRole('button', { name: /^Open request/ }).click();
    await expect.poll(() => page.locator('dl.facts').textContent()).toContain('Request unreadable');
    await feedRead.getByRole('button', { name: /^Open request/ }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Response' }).textContent()).toContain('SHOP-1');

    // A bad payment sent with the new key shows up live, with its problem type; its curl line, copied and run, gets the same answer.
    await page.getByLabel('Live tail').check();
    const payment = await fetch(`${sandbox.url}/api/v1/integration/orders/externalid/SHOP-1/payment`, {
      method: 'POST',
      headers: { 'X-Api-Key': secret, 'Content-Type': 'application/json', 'Idempotency-Key': 'console-story-bad-payment' },
      body: JSON.stringify({ paymentId: 'not-a-payment-id', amount: -5, currency: 'EURO' }),
    });
    const problem = (await payment.json()) as { type: string };
    expect(payment.status).toBe(400);
    const paymentRow = page.getByRole('row', { name: /attachPayment/ }).first();
    await paymentRow.waitFor({ timeout: 5000 });
    expect(await paymentRow.textContent()).toContain(problem.type);
    await paymentRow.getByRole('button', { name: /^Open request/ }).click();
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(copied).toMatch(/^curl .*\/orders\/externalid\/SHOP-1\/payment/s);
    expect(copied).not.toContain(secret);
    const replayed = await promisify(execFile)('sh', ['-c', `${copied} -o /dev/null -w '%{http_code}'`], { env: { ...process.env, WAYBILL_KEY: secret } });
    expect(replayed.stdout).toBe('400');
    await shot(page, 'log');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);

    const origin = new URL(sandbox.url).origin;
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(requests.filter((url) => url.includes(TEST_ADMIN_TOKEN) || url.includes(secret))).toEqual([]);
    expect(complaints).toEqual([]);
    await page.close();
  }, 60_000);

  // Runs after the story, on the data it made: every view, each with something in it.
  it('passes axe-core on every view with no serious or critical violation', async () => {
    const { page } = await openConsole({ bypassCSP: true });
    const found: Record<string, string[]> = {};
    const check = async (view: string) => {
      found[view] = await seriousAccessibilityViolations(page);
    };
    await page.getByLabel('Admin token').waitFor();
    await check('sign-in');
    await page.getByLabel('Admin token').fill('wba_not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The sandbox refused this token.').waitFor();
    await check('sign-in refused');
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Work with it: Acme Deliveries' }).click();
    await page.getByRole('row', { name: /Acme Deliveries/ }).getByText('Working with it').waitFor();
    await check('tenants');
    for (const [link, heading] of [['Keys', 'Keys'], ['Orders', 'Orders'], ['Trips', 'Trips'], ['Feed', 'Feed'], ['Request log', 'Request log']] as const) {
      await page.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await check(link.toLowerCase());
    }
    await page.getByRole('row', { name: /attachPayment/ }).first().getByRole('button', { name: /^Open request/ }).click();
    await page.getByRole('button', { name: 'Copy as curl' }).waitFor();
    await check('request log entry');
    expect(Object.keys(found)).toHaveLength(9);
    expect(Object.entries(found).filter(([, violations]) => violations.length > 0)).toEqual([]);
    await page.close();
  }, 60_000);
});
