/**
 * Signing in to the console and choosing a tenant, in Chromium (D64): the banner's link
 * (`/console#token=…`) signs the tab in, the token is kept as a typed one and leaves the
 * address at once, and it reaches the server only as an Authorization header (no request
 * line, Referer or other header carries it); a refused link token is kept nowhere and the
 * page says why. Archived tenants stay out of the Tenant menu and the list until asked for.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutBrowser } from '../../dev/testing/browser.ts';
import { memoryStore, type RunningServer, sandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';
import { builtConsole, heardBy, openConsole, photograph, signIn, view } from '../../dev/testing/console-browser.ts';

const SKIP = skipWithoutBrowser('console sign-in');
let browser: Browser;
let sandbox: RunningServer;
let consoleDir: string;

beforeAll(async () => {
  if (SKIP) return;
  consoleDir = await builtConsole();
  sandbox = await startServer(await memoryStore(), { adminToken: TEST_ADMIN_TOKEN, consoleDir });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
});

/** The address of the banner's sign-in link for `token`, as `waybill serve` prints it. */
const link = (token: string) => `/console#token=${encodeURIComponent(token)}`;

describe.skipIf(SKIP)('signing in to the console', () => {
  it('signs in from the banner link: the token leaves the address at once and reaches the server only as a Bearer header', async () => {
    const heard = heardBy(sandbox);
    const { page, headers, complaints } = await openConsole(browser, sandbox, { path: link(TEST_ADMIN_TOKEN) });
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    expect(page.url()).toBe(`${sandbox.url}/console`);
    expect(await page.evaluate("sessionStorage.getItem('waybill.adminToken')")).toBe(TEST_ADMIN_TOKEN);
    // Kept for the tab as a typed token is: a reload stays signed in, with a bare address.
    await page.reload();
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    await view(page, 'Keys');
    await page.getByRole('heading', { name: 'Keys', level: 1 }).waitFor();
    expect(page.url()).toBe(`${sandbox.url}/console#keys`);
    // The link opened again in this tab changes only the fragment: it is taken out all the same.
    await page.goto(`${sandbox.url}${link(TEST_ADMIN_TOKEN)}`);
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    expect(page.url()).toBe(`${sandbox.url}/console`);

    // The server heard the console and its API calls, and the token in none of their lines or headers but Authorization.
    expect(heard).toContain('GET /console');
    expect(heard).toContain('GET /sandbox/v1/tenants');
    expect(heard.filter((line) => line.includes(TEST_ADMIN_TOKEN))).toEqual([]);
    expect(headers.filter((line) => line.includes(TEST_ADMIN_TOKEN))).toEqual([]);
    expect(complaints).toEqual([]);
    await page.close();
  });

  it('keeps a refused link token nowhere, takes it out of the address, and says a link is good for one start', async () => {
    const { page, complaints } = await openConsole(browser, sandbox, { path: link('wba_token-of-an-earlier-start') });
    await page.getByText('Wrong admin token: the sandbox refused it.').waitFor();
    expect(page.url()).toBe(`${sandbox.url}/console`);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    const refusal = page.locator('.sign-in-refused');
    expect(await refusal.textContent()).toContain('The token came from a sign-in link: a sandbox makes a new token at every start');
    await photograph(page, 'sign-in-link-refused');
    // A token typed after it signs in, and the note about links goes.
    await signIn(page, TEST_ADMIN_TOKEN);
    await view(page, 'Keys');
    expect(await page.getByText('The token came from a sign-in link').count()).toBe(0);
    expect(complaints).toEqual([]);
    await page.close();
  });

  it('hides archived tenants from the Tenant menu and the list until asked for', async () => {
    const api = sandboxClient(sandbox.url);
    const made: Record<string, string> = {};
    for (const name of ['Live Freight', 'Paused Freight', 'Gone Freight']) {
      made[name] = ((await api('createTenant', '/tenants', { json: { name, country: 'NL' } })).body as { id: string }).id;
    }
    await api('suspendTenant', `/tenants/${made['Paused Freight']}/suspend`);
    await api('archiveTenant', `/tenants/${made['Gone Freight']}/archive`);
    const { page } = await openConsole(browser, sandbox);
    await signIn(page, TEST_ADMIN_TOKEN);
    const menu = () => page.getByLabel('Tenant', { exact: true }).locator('option').allTextContents();
    const rows = () => page.getByRole('table', { name: 'Tenants' }).locator('tbody th').allTextContents();
    await expect.poll(menu).toEqual(['— choose —', 'Live Freight (Active)', 'Paused Freight (Suspended)']);
    expect((await rows()).map((row) => row.slice(0, row.indexOf('Freight') + 7))).toEqual(['Live Freight', 'Paused Freight']);
    expect(await page.getByRole('heading', { name: 'Tenants (2)' }).count()).toBe(1);

    // The switch shows them, here and in the menu; asking for the Archived state shows them whatever it says.
    const toggle = page.getByLabel(/^Show archived tenants \(1\)/);
    await toggle.check();
    await expect.poll(menu).toContain('Gone Freight (Archived)');
    expect((await rows()).some((row) => row.startsWith('Gone Freight'))).toBe(true);
    await photograph(page, 'tenants-archived-shown');
    await toggle.uncheck();
    await expect.poll(menu).not.toContain('Gone Freight (Archived)');
    await page.getByLabel('State').selectOption('Archived');
    await expect.poll(rows).toEqual([expect.stringMatching(/^Gone Freight/)]);

    // The tenant worked with stays in the menu, archived or not.
    await page.getByRole('button', { name: 'Work with it: Gone Freight' }).click();
    await page.getByLabel('State').selectOption('');
    await expect.poll(menu).toEqual(['— choose —', 'Live Freight (Active)', 'Paused Freight (Suspended)', 'Gone Freight (Archived)']);
    expect((await rows()).map((row) => row.slice(0, row.indexOf('Freight') + 7))).toEqual(['Live Freight', 'Paused Freight', 'Gone Freight']);
    await page.close();
  });
});
