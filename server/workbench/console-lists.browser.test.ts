/**
 * The console's lists and header in Chromium: the tenant's orders and trips as the control
 * plane lists them (D87), newest changed first, flipped by a toggle, by status,
 * a trip opened from the list; counts in words ("1 stop"); at a phone's width a view's link
 * leaves the header in sight and each tenant's actions are in reach without scrolling
 * sideways; at a desktop's width the header keeps to one line whatever the tenant is called.
 * Every view is photographed at 1280 and 390 px into reports/console/<name>-<width>.png.
 */
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutBrowser } from '../../dev/testing/browser.ts';
import { memoryStore, orderIntake, type RunningServer, sandboxClient, type SandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';
import { builtConsole, DESKTOP, openConsole, PHONE, photograph, signIn, view } from '../../dev/testing/console-browser.ts';

const SKIP = skipWithoutBrowser('console lists');
let browser: Browser;
let sandbox: RunningServer;
let consoleDir: string;
let api: SandboxClient;

beforeAll(async () => {
  if (SKIP) return;
  consoleDir = await builtConsole();
  sandbox = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN, consoleDir });
  api = sandboxClient(sandbox.url);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
});

/** A tenant made through the control plane; its id. */
async function tenant(name: string): Promise<string> {
  return (await api('createTenant', '/tenants', { json: { name, country: 'NL' } })).body.id;
}

/** An order of the tenant; its id. */
async function order(tenantId: string, externalId: string): Promise<string> {
  return (await api('createOrder', `/tenants/${tenantId}/orders`, { json: orderIntake(externalId) })).body.id;
}

/** A trip of the orders; its short id and id. */
async function trip(tenantId: string, orderIds: string[]): Promise<{ id: string; shortId: string }> {
  return (await api('buildTrip', `/tenants/${tenantId}/trips`, { json: { orderIds } })).body;
}

/** Signs in on a fresh page and works with the tenant named `name`. */
async function consoleFor(name: string): Promise<{ page: Page; complaints: string[] }> {
  const { page, complaints } = await openConsole(browser, sandbox);
  await signIn(page, TEST_ADMIN_TOKEN);
  await page.getByRole('button', { name: `Work with it: ${name}` }).click();
  await page.getByRole('row', { name }).getByText('Working with it').waitFor();
  return { page, complaints };
}

/** The row headers of the table named `name`, in order. */
const rowNames = (page: Page, name: string | RegExp) => page.getByRole('table', { name }).locator('tbody th').allTextContents();

describe.skipIf(SKIP)('the console\'s lists', () => {
  it('lists the orders newest changed first, flips them with the toggle, filters them, and repeats no list of the tab\'s orders', async () => {
    const tenantId = await tenant('Lists Freight');
    const [first] = [await order(tenantId, 'LIST-1'), await order(tenantId, 'LIST-2'), await order(tenantId, 'LIST-3')];
    // Planned onto a trip, LIST-1 is the order changed last.
    await trip(tenantId, [first!]);
    const { page, complaints } = await consoleFor('Lists Freight');
    await view(page, 'Orders');
    await expect.poll(() => rowNames(page, 'Orders, newest changed first')).toEqual(['LIST-1', 'LIST-3', 'LIST-2']);
    expect(await page.getByRole('columnheader', { name: /^Updated/ }).getAttribute('aria-sort')).toBe('descending');
    await photograph(page, 'orders-list');
    await page.getByRole('button', { name: 'Newest changed first' }).click();
    await expect.poll(() => rowNames(page, 'Orders, oldest changed first')).toEqual(['LIST-2', 'LIST-3', 'LIST-1']);
    expect(await page.getByRole('columnheader', { name: /^Updated/ }).getAttribute('aria-sort')).toBe('ascending');
    await page.getByLabel('Status', { exact: true }).selectOption('Planned');
    await expect.poll(() => rowNames(page, 'Orders, oldest changed first')).toEqual(['LIST-1']);
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Oldest changed first' }).click();

    // A new order tops the list; no second panel repeats it.
    await page.getByLabel('External id', { exact: true }).fill('LIST-4');
    await page.getByRole('button', { name: 'Create order' }).click();
    await expect.poll(() => rowNames(page, 'Orders, newest changed first')).toEqual(['LIST-4', 'LIST-1', 'LIST-3', 'LIST-2']);
    expect(await page.getByRole('heading', { name: 'Orders of this tab' }).count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(1);

    // Found by external id without a key: the control plane's list is searched.
    await page.getByLabel('External id or order id').fill('LIST-3');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('heading', { name: 'Order LIST-3' }).waitFor();
    expect(complaints).toEqual([]);
    await page.close();
  });

  it('lists the trips with their status, newest changed first, by status, opens one, and counts "1 stop"', async () => {
    const tenantId = await tenant('Trips Freight');
    const one = await trip(tenantId, [await order(tenantId, 'TRIP-1')]);
    const two = await trip(tenantId, [await order(tenantId, 'TRIP-2'), await order(tenantId, 'TRIP-3')]);
    await api('cancelTrip', `/tenants/${tenantId}/trips/${two.id}/cancel`, { json: { reasonCode: 'VehicleBreakdown' } });
    await api('startTrip', `/tenants/${tenantId}/trips/${one.id}/start`);
    await order(tenantId, 'TRIP-4');
    const { page, complaints } = await consoleFor('Trips Freight');
    await view(page, 'Trips');
    const trips = page.getByRole('table', { name: 'Trips, newest changed first' });
    await expect.poll(() => rowNames(page, 'Trips, newest changed first')).toEqual([one.shortId, two.shortId]);
    expect(await trips.getByRole('row').nth(1).textContent()).toMatch(new RegExp(`^${one.shortId}InProgress1`));
    expect(await trips.getByRole('row').nth(2).textContent()).toMatch(new RegExp(`^${two.shortId}Cancelled2`));
    await photograph(page, 'trip-list');
    await page.getByLabel('Status', { exact: true }).selectOption('Cancelled');
    await expect.poll(() => rowNames(page, 'Trips, newest changed first')).toEqual([two.shortId]);
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Newest changed first' }).click();
    await expect.poll(() => rowNames(page, 'Trips, oldest changed first')).toEqual([two.shortId, one.shortId]);

    // A trip opens from the list.
    await page.getByRole('link', { name: one.shortId }).click();
    await page.getByRole('heading', { name: `Trip ${one.shortId}` }).waitFor();
    expect(await page.getByRole('heading', { name: 'Stops (1)' }).count()).toBe(1);

    // A trip of one order is planned with "1 stop", from the tenant's New and InPlanning orders (TRIP-2 and TRIP-3 went back to InPlanning).
    await view(page, 'Trips');
    // The cancel changed TRIP-2 and TRIP-3 at one stamp: between them, the order is their ids'.
    const offered = page.getByRole('group', { name: /^Orders, one stop each/ }).locator('label');
    await expect.poll(() => offered.count()).toBe(3);
    const labels = await offered.allTextContents();
    expect([labels[0], labels.slice(1).sort()]).toEqual(['TRIP-4 (New, Delivery)', ['TRIP-2 (InPlanning, Delivery)', 'TRIP-3 (InPlanning, Delivery)']]);
    await page.getByLabel(/TRIP-4/).check();
    await page.getByRole('button', { name: 'Plan trip' }).click();
    await expect.poll(() => page.locator('.live').textContent()).toMatch(/^Trip TRP-\w+ planned with 1 stop; it is Confirmed\.$/);
    expect(complaints).toEqual([]);
    await page.close();
  });
});

describe.skipIf(SKIP)('the console\'s header', () => {
  it('stays in sight at a phone\'s width when a view is opened, and each tenant\'s actions are in reach', async () => {
    await tenant('Phone Freight');
    const { page, complaints } = await openConsole(browser, sandbox);
    await page.setViewportSize(PHONE);
    await signIn(page, TEST_ADMIN_TOKEN);
    const header = page.locator('header.top');
    for (const name of ['Orders', 'Keys', 'Tenants']) {
      await view(page, name);
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      expect(await page.evaluate('scrollY'), `${name}: scrolled`).toBe(0);
      expect((await header.boundingBox())!.y, `${name}: the header's top`).toBe(0);
      expect(await page.evaluate('document.activeElement.id'), `${name}: focus`).toBe('main');
    }
    // Each tenant's actions lie inside the screen, no sideways scroll needed, and work.
    const row = page.getByRole('row', { name: /Phone Freight/ });
    for (const action of ['Work with it: Phone Freight', 'Suspend Phone Freight', 'Archive Phone Freight']) {
      const box = (await row.getByRole('button', { name: action }).boundingBox())!;
      expect([box.x >= 0, box.x + box.width <= PHONE.width], action).toEqual([true, true]);
    }
    await row.getByRole('button', { name: 'Suspend Phone Freight' }).click();
    await row.getByRole('button', { name: 'Reactivate Phone Freight' }).waitFor();
    await page.setViewportSize(DESKTOP);
    await photograph(page, 'tenants-actions');
    expect(complaints).toEqual([]);
    await page.close();
  });

  it('keeps to one line at a desktop\'s width with a long tenant name in the Tenant menu', async () => {
    const long = 'Conformance profile 2026-11-29T10:00:00Z (main tenant of a very long run name)';
    await tenant(long);
    const { page, complaints } = await consoleFor(long);
    await view(page, 'Trips');
    // Every part of the header sits on the first line: the same top, give or take centring.
    const tops = (await page.evaluate(`[...document.querySelector('header.top').children].filter((el) => el.getBoundingClientRect().width > 0).map((el) => Math.round(el.getBoundingClientRect().top))`)) as number[];
    expect(Math.max(...tops) - Math.min(...tops), `tops ${tops.join(', ')}`).toBeLessThan(12);
    expect((await page.locator('header.top').boundingBox())!.height).toBeLessThan(64);
    await photograph(page, 'header-long-tenant');
    expect(complaints).toEqual([]);
    await page.close();
  });
});
