/**
 * exchanges.har in Chromium's own DevTools (Debian's Chromium through playwright-core): the
 * Network panel's "Import HAR file" takes it and lists every entry, fetch, raw and unanswered
 * exchanges of a conformance run and a client's requests from the request log alike
 * (screenshot: reports/console/har-in-devtools.png).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutBrowser } from '../../dev/testing/browser.ts';
import { contextFor } from '../../dev/testing/conformance/check-context.ts';
import { answer, closedTargetUrl, type FakeTarget, startFakeTarget } from '../../dev/testing/conformance/fake-target.ts';
import { packageFile } from '../../spec/package-files.ts';
import { loggedEntry } from '../client-check/har.ts';
import { harDocument, resultPage, suiteHar } from './har.ts';
import type { CheckResult } from '../engine/types/report.ts';

const SKIP = skipWithoutBrowser('exchanges.har');
const dir = mkdtempSync(join(tmpdir(), 'waybill-har-'));
let browser: Browser;
let target: FakeTarget;

beforeAll(async () => {
  if (SKIP) return;
  browser = await launchChromium();
  target = await startFakeTarget((request, response) => answer(response, request.url.includes('missing') ? 404 : 200, { url: request.url }));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Imports `file` through DevTools' Network panel as a person does; resolves to each row's name (its path below left out) and status. */
async function importInDevTools(file: string, screenshot?: string): Promise<string[][]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 600 } });
  try {
    await page.goto('devtools://devtools/bundled/devtools_app.html?panel=network');
    const button = page.getByRole('button', { name: 'Import HAR file' });
    await button.waitFor({ timeout: 20_000 });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button.click()]);
    await chooser.setFiles(file);
    await page.getByText(/^\d+ requests?$/).waitFor({ timeout: 20_000 });
    if (screenshot !== undefined) await page.screenshot({ path: screenshot });
    return await page.locator('tr.data-grid-data-grid-node').evaluateAll((rows) =>
      rows.map((row) => [row.querySelector('.name-column')?.textContent ?? '', row.querySelector('.status-column')?.textContent ?? '']),
    ).then((rows) => rows.map(([name, status]) => [name!.replace(/127\.0\.0\.1\/.*$/, ''), status!]));
  } finally {
    await page.close();
  }
}

describe.skipIf(SKIP)('exchanges.har in Chromium DevTools', () => {
  it("lists a conformance run's fetch, raw and unanswered exchanges", async () => {
    const { ctx, log } = contextFor(target.url, { checkId: 'writes.pay' });
    await ctx.http.request({ method: 'GET', path: '/api/v1/integration/whoami' });
    await ctx.http.request({ method: 'POST', path: '/api/v1/integration/orders/externalid/missing/payment', body: { amount: 1 } });
    await ctx.raw('GET /api/v1/integration/orders HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const closed = contextFor(await closedTargetUrl(), { checkId: 'writes.pay' });
    await closed.ctx.http.request({ method: 'GET', path: '/api/v1/integration/trips' }).catch(() => undefined);
    const result = { id: 'writes.pay', title: 'a payment', outcome: 'fail', startedAt: new Date().toISOString(), findings: [] } as unknown as CheckResult;
    const file = join(dir, 'run.har');
    writeFileSync(file, JSON.stringify(suiteHar({ results: [result] }, [...log.all(), ...closed.log.all()])));
    const rows = await importInDevTools(file);
    expect(rows.map(([name]) => name)).toEqual(expect.arrayContaining(['whoami', 'payment', 'orders', 'trips']));
    expect(rows).toHaveLength(4);
    expect(rows.find(([name]) => name === 'payment')?.[1]).toMatch(/^404/);
  }, 60_000);

  it("lists a client's requests from the request log, a lost answer among them", async () => {
    const at = Date.now();
    const entry = (id: number, status: number, fault: string | null) => loggedEntry({
      id, atUtc: new Date(at + id * 40).toISOString(), operation: 'attachPayment', method: 'POST', path: '/api/v1/integration/orders/externalid/SO-1/payment', status, problemType: null, errors: [],
      latencyMs: 12.5, keyId: 'key_1', requestId: `req_${id}`, idempotencyKey: `pay-${id}`, replayed: false, orderIds: [], tripIds: [], page: null, curl: '',
      fault: fault === null ? null : { fault: fault as 'reset', source: 'rule', ruleId: 'rule_1', when: 'after' },
      request: { contentType: 'application/json', body: '{"paymentId":"p-1","amount":12.5,"currency":"EUR"}', bytes: 50, truncated: false },
      response: { contentType: status === 0 ? null : 'application/json', body: status === 0 ? null : '{"id":"o-1"}', bytes: status === 0 ? 0 : 12, truncated: false },
    }, target.url, 'client.pay.answer-lost');
    const result = { id: 'client.pay.answer-lost', title: 'a lost answer', outcome: 'fail', startedAt: new Date(at).toISOString(), findings: [{ message: 'The retry carried a new Idempotency-Key' }] } as unknown as CheckResult;
    const file = join(dir, 'client.har');
    writeFileSync(file, JSON.stringify(harDocument([resultPage(result)], [entry(1, 0, 'reset'), entry(2, 200, null)], 'client-check')));
    const shots = packageFile('reports/console');
    mkdirSync(shots, { recursive: true });
    const rows = await importInDevTools(file, join(shots, 'har-in-devtools.png'));
    expect(rows.map(([name]) => name)).toEqual(['payment', 'payment']);
    expect(rows[1]?.[1]).toMatch(/^200/);
  }, 60_000);
});
