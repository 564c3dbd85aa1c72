import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, seriousAccessibilityViolations, skipWithoutBrowser } from './browser.ts';

const SKIP = skipWithoutBrowser('axe-core helper');
let browser: Browser;

beforeAll(async () => {
  if (!SKIP) browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

describe.skipIf(SKIP)('the accessibility check', () => {
  it('names the serious violations of a page made to have them, and none of a page without', async () => {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Form</h1><input type="text"><button></button></main></body></html>');
    const violations = await seriousAccessibilityViolations(page);
    expect(violations.map((violation) => violation.split(' ')[0])).toEqual(expect.arrayContaining(['button-name', 'label']));
    await page.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Form</h1><label>Name <input type="text"></label><button>Send</button></main></body></html>');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });
});
