/**
 * The console in a real browser (Debian's Chromium through playwright-core), driven as a
 * person would against an in-memory sandbox: a wrong token refused with the server's words;
 * sign-in; a tenant (after a field error shown beside its field), a key whose secret shows
 * once, its notice gone with the view; two orders, listed newest first by the control plane; a
 * trip planned from them, started, one stop delivered and one failed (after the catalog's
 * reason error beside its field), completed, its stops numbered from 1, naming their orders
 * by external id and their outcomes in words, as the order's history does; both end statuses
 * in the feed as the new key reads it; the request log (or its not-available state). Then a second tenant
 * driven: fault rules added (after a field error), one fired by a call and marked in the
 * request log; the clock ticking, frozen, advanced an hour, refused a move backwards (409); a
 * simulation started at the frozen clock whose advance fills the feed. Every view is
 * photographed at 1280 and 390 px into reports/console/<view>-<width>.png, and none scrolls
 * sideways at 390 px. No request leaves the sandbox and the token never appears in an address.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, seriousAccessibilityViolations, skipWithoutBrowser } from '../../dev/testing/browser.ts';
import { memoryStore, type RunningServer, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';
import { builtConsole, openConsole as openOn, photograph as shot, view } from '../../dev/testing/console-browser.ts';

const SKIP = skipWithoutBrowser('console');
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

const openConsole = (options: { bypassCSP?: boolean } = {}) => openOn(browser, sandbox, options);

describe.skipIf(SKIP)('the console in Chromium', () => {
  it('refuses a wrong token in words, "wrong admin token" and the server\'s own, and keeps nothing', async () => {
    const { page, complaints } = await openConsole();
    await page.getByLabel('Admin token').fill('wba_not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('Wrong admin token: the sandbox refused it.').isVisible()).toBe(true);
    expect(await page.getByRole('alert').textContent()).toContain('The admin token is not valid.');
    // The 401's type, about:blank, says nothing the status does not: it is not shown.
    expect(await page.locator('body').textContent()).not.toContain('about:blank');
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
    // The notice says so under the heading, covering nothing (photograph checks), and goes with the view.
    await expect.poll(() => page.locator('.live').textContent()).toBe('Key feeds created; copy its secret now.');
    await shot(page, 'keys');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.locator('body').textContent()).not.toContain(secret);

    // Two orders; the key picker has taken the key just made.
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    expect(await page.locator('.live').textContent()).toBe('');
    for (const [externalId, quantity] of [['SHOP-1', '2'], ['SHOP-2', '1']] as const) {
      await page.getByLabel('External id', { exact: true }).fill(externalId);
      await page.getByLabel('Quantity').fill(quantity);
      await page.getByRole('button', { name: 'Create order' }).click();
      await page.getByRole('table', { name: 'Orders, newest changed first' }).getByRole('link', { name: externalId }).waitFor();
    }
    // The control plane's list, newest first: the order made last on top.
    expect(await page.getByRole('table', { name: 'Orders, newest changed first' }).locator('tbody th').allTextContents()).toEqual(['SHOP-2', 'SHOP-1']);
    await shot(page, 'orders');
    await page.getByRole('table', { name: 'Orders, newest changed first' }).getByRole('link', { name: 'SHOP-1' }).click();
    await page.getByRole('heading', { name: 'Order SHOP-1' }).waitFor();
    await expect.poll(() => page.locator('ol.history li').first().textContent()).toMatch(/Created in New$/);
    expect(await page.getByRole('table', { name: 'Lines' }).locator('tbody td').first().textContent()).toBe('1');
    await shot(page, 'order-detail');

    // A trip from both, started, one stop delivered, one failed, completed.
    await page.getByRole('link', { name: 'Trips' }).click();
    await page.getByLabel(/SHOP-1/).check();
    await page.getByLabel(/SHOP-2/).check();
    await shot(page, 'trip-plan');
    await page.getByRole('button', { name: 'Plan trip' }).click();
    // The plan opens its trip, and its notice comes along: only a move by hand clears one.
    await expect.poll(() => page.locator('.live').textContent()).toMatch(/^Trip TRP-\w+ planned with 2 stops; it is Confirmed\.$/);
    await page.getByRole('button', { name: 'Start trip' }).click();
    await page.locator('.facts').getByText('InProgress').waitFor();
    // Stops and lines count from 1, as people do; the API's index stays 0 underneath.
    await page.getByRole('form', { name: 'Outcome of stop 1' }).getByRole('group', { name: /^Line 1: Delivery, quantity 2/ }).waitFor();
    await shot(page, 'trip-open');
    await page.getByRole('button', { name: 'Record stop 1' }).click();
    await page.getByRole('button', { name: 'Record stop 1' }).waitFor({ state: 'detached' });
    await page.getByLabel('Stop 2 outcome').selectOption('Failed');
    await page.getByRole('button', { name: 'Record stop 2' }).click();
    const reasonField = page.getByRole('form', { name: 'Outcome of stop 2' }).locator('.field.invalid');
    await expect.poll(() => reasonField.textContent()).toContain('trips.stop.reasonRequired');
    await page.getByRole('form', { name: 'Outcome of stop 2' }).getByLabel('Reason code').fill('CustomerAbsent');
    await page.getByRole('button', { name: 'Record stop 2' }).click();
    await page.getByRole('button', { name: 'Record stop 2' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Complete trip' }).click();
    await page.locator('.facts').getByText('Completed').waitFor();
    // Each stop names its order by external and short id, and says its outcome in words, no JSON.
    const stops = page.locator('ol.stops > li');
    expect(await stops.nth(0).locator('p').first().textContent()).toMatch(/^Stop 1 Completed order SHOP-1 ORD-\w+, finished /);
    expect(await stops.nth(0).getByRole('row').nth(1).textContent()).toBe('1Delivery22 delivered');
    expect(await stops.nth(1).locator('p').first().textContent()).toMatch(/^Stop 2 Failed order SHOP-2 ORD-\w+, reason CustomerAbsent, finished /);
    expect(await stops.nth(1).getByRole('row').nth(1).textContent()).toBe('1Delivery11 returned');
    expect(await page.locator('ol.stops').textContent()).not.toMatch(/[{}"]/);
    await shot(page, 'trips');
    // The order's history in words: planned onto the trip, its stop's outcome, its end status.
    await stops.nth(0).getByRole('link', { name: 'SHOP-1' }).click();
    await page.getByRole('heading', { name: 'Order SHOP-1' }).waitFor();
    const history = page.locator('ol.history');
    await expect.poll(() => history.locator('li').count()).toBe(5);
    expect(await history.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/Created in New$/),
      expect.stringMatching(/Status New → Planned, trip [0-9a-f]{8}$/),
      expect.stringMatching(/Status Planned → InProgress, trip [0-9a-f]{8}$/),
      expect.stringMatching(/Stop 1 Completed, trip [0-9a-f]{8}: line 1: 2 delivered$/),
      expect.stringMatching(/Status InProgress → FullyDelivered, trip [0-9a-f]{8}$/),
    ]);
    expect(await history.textContent()).not.toMatch(/[{}"]/);
    await shot(page, 'order-history');

    // The feed as the new key reads it: both orders in their end statuses.
    await page.getByRole('link', { name: 'Feed' }).click();
    await expect.poll(() => page.getByLabel('API key made in this tab').locator('option:checked').textContent()).toMatch(/^feeds \(/);
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

  it('drives a tenant: a fault rule fired by a call and marked in the log, the clock frozen and advanced, a simulation filling the feed', async () => {
    const { page, requests, complaints } = await openConsole();
    // The answers "Delete all" gets at its confirmation, in turn.
    const confirmations: boolean[] = [];
    page.on('dialog', (dialog) => void (dialog.message().startsWith('Delete all') && confirmations.shift() ? dialog.accept() : dialog.dismiss()));
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Globex Freight');
    await page.getByLabel('Country').fill('NL');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await page.getByRole('row', { name: /Globex Freight/ }).getByText('Working with it').waitFor();
    await view(page, 'Keys');
    await page.getByLabel('Name', { exact: true }).fill('driver');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('#new-key-secret').textContent())!;
    await page.getByRole('button', { name: 'I have copied it' }).click();

    // A fault rule: a field the server refuses shows beside its field with its code; then orderFeed 503 once.
    await view(page, 'Faults');
    const form = page.getByRole('form', { name: 'New fault rule' });
    await form.getByLabel('Fault', { exact: true }).selectOption('status');
    await form.getByLabel('Status', { exact: true }).selectOption('503');
    expect(await form.getByLabel('When').count()).toBe(0);
    await form.getByLabel('Times').fill('0');
    await form.getByRole('button', { name: 'Add rule' }).click();
    const timesField = form.locator('.field.invalid', { has: page.getByLabel('Times') });
    await expect.poll(() => timesField.textContent()).toContain('api.malformed_request');
    await form.getByLabel('Times').fill('1');
    await form.getByRole('button', { name: 'Add rule' }).click();
    const rule503 = page.getByRole('row', { name: /orderFeed/ });
    await expect.poll(() => rule503.textContent()).toContain('1 of 1 left');
    // A write takes `when`; a latency range drawn with a seeded probability.
    await form.getByLabel('Operation').selectOption('attachPayment');
    await form.getByLabel('Fault', { exact: true }).selectOption('reset');
    await form.getByLabel('When').selectOption('after');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('row', { name: /attachPayment/ }).waitFor();
    await form.getByLabel('Operation').selectOption('tripFeed');
    await form.getByLabel('Fault', { exact: true }).selectOption('latency');
    await form.getByLabel('Uniform range').check();
    await form.getByLabel('Shortest wait in ms').fill('100');
    await form.getByLabel('Longest wait in ms').fill('900');
    await form.getByLabel('With a probability').check();
    await form.getByLabel('Probability', { exact: true }).fill('0.5');
    await form.getByLabel('Seed').fill('42');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => page.getByRole('row', { name: /tripFeed/ }).textContent()).toContain('probability 0.5, seed 42');

    // One call with the key meets the 503; the rule has fired once and is spent.
    const faulted = await fetch(`${sandbox.url}/api/v1/integration/orders`, { headers: { 'X-Api-Key': secret } });
    expect(faulted.status).toBe(503);
    // A call can ask for its own fault: this one gets no answer at all.
    await expect(fetch(`${sandbox.url}/api/v1/integration/whoami`, { headers: { 'X-Api-Key': secret, Prefer: 'fault=reset' } })).rejects.toThrow();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => rule503.textContent()).toContain('0 of 1 left');
    expect(await rule503.locator('td').nth(6).textContent()).toBe('1');
    await page.getByRole('button', { name: /^Delete rule 2: reset on attachPayment/ }).click();
    await page.getByRole('row', { name: /attachPayment/ }).waitFor({ state: 'detached' });
    await shot(page, 'faults');

    // The request log marks the faulted call, in the list and in the entry.
    await view(page, 'Request log');
    const faultedRow = page.getByRole('row', { name: /orderFeed/ }).first();
    await expect.poll(() => faultedRow.textContent()).toContain('fault: status (rule)');
    await faultedRow.getByRole('button', { name: /^Open request/ }).click();
    await expect.poll(() => page.locator('dl.facts').textContent()).toMatch(/Faultfault: status \(rule\) from rule [0-9a-f-]{36}/);
    await shot(page, 'log-fault');
    await expect.poll(() => page.getByRole('row', { name: /whoami/ }).textContent()).toMatch(/no answer.*fault: reset \(prefer\)/);

    // The clock: ticking at system time, frozen, advanced an hour; a move backwards is the server's 409.
    await view(page, 'Clock');
    const tenantTime = page.locator('.tenant-time time');
    await tenantTime.waitFor();
    const ticking = await tenantTime.textContent();
    await expect.poll(() => tenantTime.textContent(), { timeout: 5000 }).not.toBe(ticking);
    await page.getByRole('button', { name: 'Freeze now' }).click();
    await page.locator('.tenant-time', { hasText: 'frozen' }).waitFor();
    const frozenAt = Date.parse((await tenantTime.getAttribute('datetime'))!);
    await page.getByRole('button', { name: '+1 h' }).click();
    await expect.poll(() => tenantTime.getAttribute('datetime')).toBe(new Date(frozenAt + 3_600_000).toISOString());
    expect(await page.locator('p.result').textContent()).toContain('the simulation made 0 changes');
    await page.getByLabel('Time (UTC)').fill('2020-01-01T00:00:00Z');
    await page.getByRole('button', { name: 'Set clock' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('(409)');
    expect(await tenantTime.getAttribute('datetime')).toBe(new Date(frozenAt + 3_600_000).toISOString());
    await shot(page, 'clock');

    // A simulation at the frozen clock: an advance makes the hour's changes at once, and the feed shows them.
    await view(page, 'Simulation');
    await page.getByLabel('Changes per minute').fill('601');
    await page.getByRole('button', { name: 'Start simulation' }).click();
    const paceField = page.locator('.field.invalid', { has: page.getByLabel('Changes per minute') });
    await expect.poll(() => paceField.textContent()).toContain('api.malformed_request');
    await page.getByLabel('Changes per minute').fill('2');
    await page.getByLabel('Seed').fill('7');
    await page.getByRole('button', { name: 'Start simulation' }).click();
    await page.locator('dl.facts').getByText('Running').waitFor();
    expect(await page.locator('dl.facts').textContent()).toContain('2 changes per minute');
    await page.getByRole('button', { name: '+1 h' }).click();
    const made = Number.parseInt((await page.locator('p.result strong').nth(1).textContent({ timeout: 10_000 }))!, 10);
    expect(made).toBeGreaterThan(0);
    await expect.poll(() => page.locator('dl.facts').textContent()).toContain(`Changes so far${made}`);
    await shot(page, 'simulation');
    await view(page, 'Feed');
    await page.getByLabel('or paste a key').fill(secret);
    await page.getByRole('button', { name: 'Read first page' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(0);
    await view(page, 'Simulation');
    await page.getByRole('button', { name: 'Stop simulation' }).click();
    await page.locator('dl.facts').getByText('Stopped').waitFor();

    // Delete all, once refused at the confirmation, then confirmed.
    await view(page, 'Faults');
    await page.getByRole('row', { name: /tripFeed/ }).waitFor();
    confirmations.push(false);
    await page.getByRole('button', { name: 'Delete all rules' }).click();
    expect(await page.getByRole('row', { name: /tripFeed/ }).count()).toBe(1);
    confirmations.push(true);
    await page.getByRole('button', { name: 'Delete all rules' }).click();
    await page.getByText('No fault rules').waitFor();

    expect(requests.filter((url) => new URL(url).origin !== new URL(sandbox.url).origin)).toEqual([]);
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
    await page.getByText('Wrong admin token: the sandbox refused it.').waitFor();
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
    // The drive views on the tenant the drive story made: a rule listed, a frozen clock, a stopped simulation.
    await page.getByLabel('Tenant').selectOption({ label: 'Globex Freight (Active)' });
    await view(page, 'Faults');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('row', { name: /orderFeed/ }).first().waitFor();
    await check('faults');
    await view(page, 'Clock');
    await page.locator('.tenant-time', { hasText: 'frozen' }).waitFor();
    await check('clock');
    await view(page, 'Simulation');
    await page.locator('dl.facts').getByText('Stopped').waitFor();
    await check('simulation');
    await view(page, 'Request log');
    await page.getByRole('row', { name: /fault: status/ }).first().getByRole('button', { name: /^Open request/ }).click();
    await page.locator('dl.facts', { hasText: 'from rule' }).waitFor();
    await check('request log entry with a fault');
    expect(Object.keys(found)).toHaveLength(13);
    expect(Object.entries(found).filter(([, violations]) => violations.length > 0)).toEqual([]);
    await page.close();
  }, 60_000);
});
