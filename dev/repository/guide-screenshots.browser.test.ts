/**
 * The pictures of the guides, taken in Chromium from what the tools show today (issue 38): the
 * console's trip view and request log over a sandbox driven through its control plane, the
 * report.html of a conformance run against that sandbox, and the report.html of a client-check
 * run that fails (the naive client that sends each retry under a new Idempotency-Key). Each is
 * written to reports/guides/; with WAYBILL_WRITE_SCREENSHOTS=1 also to docs/images/, where the
 * guides show them from (commit them after looking at them):
 *
 *   WAYBILL_WRITE_SCREENSHOTS=1 npx vitest run dev/repository/guide-screenshots.browser.test.ts
 *
 * The pictures hold ids and times that change on every run, so a run that only checks leaves
 * docs/ as it is. Either way, the pictures the guides show are exactly those this test takes.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packageFile } from '../../spec/package-files.ts';
import { launchChromium, skipWithoutBrowser } from '../testing/browser.ts';
import { builtConsole, signIn, view } from '../testing/console-browser.ts';
import { memoryStore, type RunningServer, startServer, TEST_ADMIN_TOKEN } from '../testing/sandbox.ts';
import { documentLinks } from './doc-links.ts';

const SKIP = skipWithoutBrowser('guide screenshots');
const SHOTS = packageFile('reports/guides');
const IMAGES = packageFile('docs/images');
const WRITE = process.env['WAYBILL_WRITE_SCREENSHOTS'] === '1';
const VIEWPORT = { width: 1200, height: 900 };
/** The pictures this test takes, by file name under docs/images/. */
const PICTURES = ['console-trip.png', 'console-request-log.png', 'conformance-report.png', 'client-check-failure.png'];

let browser: Browser;
let sandbox: RunningServer;
let consoleDir: string;
const work = mkdtempSync(join(tmpdir(), 'waybill-guide-shots-'));

beforeAll(async () => {
  if (SKIP) return;
  consoleDir = await builtConsole();
  sandbox = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN, consoleDir });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** A control-plane call with the admin token; resolves to its JSON answer, failing on anything but 2xx. */
async function plane(method: string, path: string, body?: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${sandbox.url}/sandbox/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, any>);
}

/** Saves the page as it shows now as `name`, in reports/guides/ and, when asked, in docs/images/. */
async function picture(page: Page, name: string): Promise<void> {
  const path = join(SHOTS, name);
  await page.screenshot({ path });
  if (WRITE) copyFileSync(path, join(IMAGES, name));
}

/** Runs `waybill ARGS` as a user does; resolves to its exit code and output. */
function waybill(args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin', 'waybill.js'), ...args], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** Scrolls the page so that `y` (from the top of the page as it is scrolled now) is near the top of the window. */
async function scrollTo(page: Page, y: number): Promise<void> {
  await page.evaluate(`window.scrollBy(0, ${Math.round(y) - 24})`);
}

/** A signed-in console page at the pictures' size. */
async function consolePage(): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.goto(`${sandbox.url}/console`);
  await signIn(page, TEST_ADMIN_TOKEN);
  return page;
}

describe('the pictures of the guides', () => {
  it('are exactly those this test takes, each shown by a guide or the README', () => {
    const shown = new Set(
      ['README.md', ...readdirSync(packageFile('docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)].flatMap((file) =>
        documentLinks(readFileSync(packageFile(file), 'utf8'))
          .filter((link) => link.kind === 'image')
          .map((link) => link.href.replace(/^(docs\/)?images\//, '')),
      ),
    );
    expect([...shown].sort()).toEqual([...PICTURES].sort());
    expect(readdirSync(IMAGES).sort()).toEqual([...PICTURES].sort());
  });
});

describe.skipIf(SKIP)('the pictures of the guides, taken in Chromium', () => {
  it('console-trip.png and console-request-log.png: a completed trip, one stop delivered and one failed; a call refused 429 by a fault rule', async () => {
    const tenant = await plane('POST', '/tenants', { name: 'Acme Deliveries', country: 'NL' });
    const key = await plane('POST', `/tenants/${tenant['id']}/keys`, { name: 'shop-sync', scopes: ['orders:read', 'orders:write', 'trips:read'] });
    const line = (quantity: number) => ({ warehouseId: '5c8e7d6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f', productId: '0d6b9a3e-2c4f-4e1a-8b7d-9f0e1c2a3b4d', quantity, price: 59.9 });
    const orders = [];
    for (const [externalId, quantity] of [['SHOP-1001', 2], ['SHOP-1002', 1]] as const) {
      orders.push(await plane('POST', `/tenants/${tenant['id']}/orders`, { externalId, type: 'Delivery', lines: [line(quantity)] }));
    }
    const trip = await plane('POST', `/tenants/${tenant['id']}/trips`, { orderIds: orders.map((order) => order['id']) });
    await plane('POST', `/tenants/${tenant['id']}/trips/${trip['id']}/start`);
    await plane('POST', `/tenants/${tenant['id']}/trips/${trip['id']}/stops/0/outcome`, { lines: [{ line: 0, delivered: 2 }] });
    await plane('POST', `/tenants/${tenant['id']}/trips/${trip['id']}/stops/1/outcome`, { status: 'Failed', reasonCode: 'CustomerAbsent' });
    await plane('POST', `/tenants/${tenant['id']}/trips/${trip['id']}/complete`);

    const page = await consolePage();
    await page.getByLabel('Tenant', { exact: true }).selectOption(String(tenant['id']));
    await page.goto(`${sandbox.url}/console#trips/${trip['id']}`);
    await page.locator('.facts').getByText('Completed').waitFor();
    await page.locator('ol.stops > li').nth(1).getByText(/reason CustomerAbsent/).waitFor();
    await picture(page, 'console-trip.png');

    // A feed call throttled by a fault rule, then one answered, as a client meets them.
    await plane('POST', `/tenants/${tenant['id']}/faults`, { operation: 'orderFeed', fault: 'status', status: 429, retryAfterSeconds: 2, times: 1 });
    for (const expected of [429, 200]) {
      const answer = await fetch(`${sandbox.url}/api/v1/integration/orders?limit=2`, { headers: { 'X-Api-Key': String(key['secret']) } });
      await answer.arrayBuffer();
      expect(answer.status).toBe(expected);
    }
    await view(page, 'Request log');
    const refused = page.getByRole('row', { name: /api\.rate_limited/ }).first();
    await refused.waitFor();
    await refused.getByRole('button', { name: /^Open request/ }).click();
    await page.getByRole('button', { name: 'Copy as curl' }).waitFor();
    // The list and the entry opened under it, the filters above scrolled away.
    await scrollTo(page, (await page.getByRole('heading', { name: /^Requests \(/ }).boundingBox())!.y);
    await picture(page, 'console-request-log.png');
    await page.close();
  }, 60_000);

  it('conformance-report.png: the report.html of a run against the sandbox, its verdict first', async () => {
    const out = join(work, 'conformance');
    const run = await waybill(['conformance', '--target', sandbox.url, '--provision', '--admin-token', TEST_ADMIN_TOKEN, '--out', out, '--reporter', 'html']);
    expect(run.status, run.output).toBe(0);
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
    expect(await page.locator('body').innerText()).toContain('PASS');
    await picture(page, 'conformance-report.png');
    await page.close();
  }, 120_000);

  it('client-check-failure.png: the finding of a client that retries a lost payment under a new Idempotency-Key', async () => {
    const out = join(work, 'client-check');
    const naive = join(PACKAGE_ROOT, 'conformance', 'client-check', 'example', 'naive.mjs');
    const run = await waybill(['client-check', '--scenario', 'client.pay.answer-lost', '--out', out, '--reporter', 'html', '--', process.execPath, naive, 'new-key-per-retry']);
    expect(run.status, run.output).toBe(1);
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
    const finding = page.locator('[data-check][data-outcome="fail"]', { hasText: 'client.pay.answer-lost' }).first();
    expect(await finding.innerText()).toContain('The retry carried a new Idempotency-Key');
    await scrollTo(page, (await finding.boundingBox())!.y);
    await picture(page, 'client-check-failure.png');
    await page.close();
  }, 120_000);

  it('leaves docs/images/ as it is unless asked to write', () => {
    for (const name of PICTURES) expect(existsSync(join(SHOTS, name)), name).toBe(true);
  });
});
