/**
 * The console's fault form and problems on demand (D95), in Chromium: with the `problem` fault
 * the form offers exactly the codes each operation lists and no `when`; a rule added through
 * it answers the next call with its problem, counts the firing, and the request log marks the
 * call. The screenshots go to reports/console/ (faults-problem-*.png) for a person to look at.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutBrowser } from '../../dev/testing/browser.ts';
import { call, memoryStore, type RunningServer, type SeededTestTenant, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from '../../dev/testing/sandbox.ts';
import { builtConsole, openConsole, photograph, signIn, view } from '../../dev/testing/console-browser.ts';
import { openRequestLog } from '../start/start-sandbox.ts';
import type { RequestLog } from '../request-log/recorder.ts';
import { operations } from '../../spec/load.ts';

const SKIP = skipWithoutBrowser('console problems on demand');
let browser: Browser;
let sandbox: RunningServer;
let tenant: SeededTestTenant;
let log: RequestLog;
let consoleDir: string;

beforeAll(async () => {
  if (SKIP) return;
  consoleDir = await builtConsole();
  const store = await memoryStore();
  tenant = await seedTenant(store, tinyDataset({ orders: 10 }));
  log = openRequestLog(store);
  sandbox = await startServer(store, { adminToken: TEST_ADMIN_TOKEN, consoleDir, requestLog: log });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await log?.close();
  if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
});

describe.skipIf(SKIP)('the fault form with problems on demand', () => {
  it("offers each operation's codes, and a rule made with it answers the next call with its problem, marked in the log", async () => {
    const { page, complaints } = await openConsole(browser, sandbox);
    await signIn(page, TEST_ADMIN_TOKEN);
    await page.getByLabel('Tenant', { exact: true }).selectOption({ label: 'Test tenant (Active)' });
    await view(page, 'Faults');
    const form = page.getByRole('form', { name: 'New fault rule' });
    await form.getByLabel('Fault', { exact: true }).selectOption('problem');
    const offered = () => form.getByLabel('Problem', { exact: true }).locator('option').evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
    for (const operation of operations.values()) {
      await form.getByLabel('Operation').selectOption(operation.operationId);
      await expect.poll(offered).toEqual(operation.errorCodes);
      // A problem is answered before the request runs: no operation takes `when` with it.
      expect(await form.getByLabel('When').count()).toBe(0);
    }
    await form.getByLabel('Operation').selectOption('cancelOrder');
    await form.getByLabel('Problem', { exact: true }).selectOption('orders.status.illegal');
    expect(await form.getByText('Prefer: problem=orders.status.illegal').count()).toBe(1);
    await form.getByRole('button', { name: 'Add rule' }).click();
    const row = page.getByRole('row', { name: /cancelOrder/ });
    await expect.poll(() => row.textContent()).toContain('problem orders.status.illegal');

    // The next cancel of an order that could be cancelled meets the problem; the rule has fired once.
    const answer = await call(sandbox.url, 'cancelOrder', '/api/v1/integration/orders/externalid/EXT-0/cancel', { method: 'POST', key: tenant.keys.full, json: {} });
    expect(answer.body).toMatchObject({ type: 'orders.status.illegal', status: 409, detail: 'An order in status InProgress cannot be cancelled.' });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => row.textContent()).toContain('0 of 1 left');
    await photograph(page, 'faults-problem');

    await log.settle();
    await view(page, 'Request log');
    await expect.poll(() => page.getByRole('row', { name: /cancelOrder/ }).first().textContent()).toContain('fault: problem before (rule)');
    expect(complaints).toEqual([]);
    await page.close();
  });
});
