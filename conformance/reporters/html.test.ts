import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { sampleReport } from '../testing/sample-report.ts';
import { findAll, parseXml, type XmlElement } from '../testing/xml-tree.ts';
import { reportHtml } from './html.ts';

const html = reportHtml(sampleReport());
// The page is written as XHTML-compatible markup, so the strict XML reader can walk it.
const page = parseXml(html.replace(/^<!doctype html>\n/, ''));

describe('report.html', () => {
  it('is one well-formed document', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page.name).toBe('html');
  });

  it('makes no network request: no http(s) resource reference, a CSP that forbids requests, inline CSS and script only', () => {
    expect(html).not.toMatch(/\b(?:src|href|action|poster|srcset|data)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(findAll(page, 'script').every((script) => script.attributes['src'] === undefined)).toBe(true);
    expect(findAll(page, 'link').map((link) => link.attributes['href'])).toEqual(['data:,']);
    const csp = findAll(page, 'meta').find((meta) => meta.attributes['http-equiv'] === 'Content-Security-Policy');
    expect(csp?.attributes['content']).toContain("default-src 'none'");
  });

  it('escapes a finding that contains markup', () => {
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('hostile &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(findAll(page, 'script')).toHaveLength(1);
  });

  it('shows run metadata, summary counts, each finding with its exchange and replay line, and all 218 codes', () => {
    for (const text of ['http://127.0.0.1:4321', '0.1.0', 'f'.repeat(64), '1234', '2026-11-22T01:40:00.000Z', '1500 ms']) expect(html).toContain(text);
    const scopes = findAll(page, 'article').find((article) => article.attributes['data-check'] !== undefined && findAll(article, 'span').some((span) => span.text === 'discovery.whoami.scopes'));
    const texts = findAll(scopes as XmlElement, 'pre').map((pre) => pre.text);
    expect(texts).toContain('scopes without trips:read');
    expect(texts).toContainEqual(expect.stringContaining('GET http://127.0.0.1:4321/api/v1/integration/whoami\nx-api-key: <redacted:ordersRead>'));
    expect(texts).toContainEqual(expect.stringContaining('HTTP 200\ncontent-type: application/json'));
    expect(texts).toContain(`curl -i 'http://127.0.0.1:4321/api/v1/integration/whoami' -H 'x-api-key: '"$WAYBILL_KEY_ORDERS_READ"`);
    expect(findAll(page, 'tr').filter((row) => row.attributes['data-state'] !== undefined)).toHaveLength(218);
  });

  describe('filters (the inline script, run against a minimal DOM)', () => {
    /** Runs the page's script over fake elements built from the parsed page; returns the controls and the elements. */
    function loadPage() {
      const fake = (element: XmlElement) => {
        const node = {
          attributes: element.attributes,
          hidden: false,
          checked: element.attributes['checked'] !== undefined,
          value: element.attributes['value'] ?? '',
          textContent: '',
          listeners: [] as (() => void)[],
          getAttribute: (name: string) => element.attributes[name] ?? null,
          addEventListener: (_type: string, listener: () => void) => node.listeners.push(listener),
          change() {
            for (const listener of node.listeners) listener();
          },
        };
        return node;
      };
      const nodes = collect(page).map((element) => ({ element, node: fake(element) }));
      const select = (predicate: (element: XmlElement) => boolean) => nodes.filter(({ element }) => predicate(element)).map(({ node }) => node);
      const document = {
        querySelectorAll(selector: string) {
          if (selector === 'input[data-filter]') return select((e) => e.name === 'input' && e.attributes['data-filter'] !== undefined);
          if (selector === '[data-check]') return select((e) => e.attributes['data-check'] !== undefined);
          if (selector === '[data-state]') return select((e) => e.attributes['data-state'] !== undefined);
          throw new Error(`selector not faked: ${selector}`);
        },
        getElementById: (id: string) => select((e) => e.attributes['id'] === id)[0],
      };
      runInNewContext(findAll(page, 'script')[0]?.text ?? '', { document });
      return {
        box: (filter: string, value: string) => select((e) => e.attributes['data-filter'] === filter && e.attributes['value'] === value)[0] as ReturnType<typeof fake>,
        family: document.getElementById('family-filter') as ReturnType<typeof fake>,
        checks: select((e) => e.attributes['data-check'] !== undefined),
        rows: select((e) => e.attributes['data-state'] !== undefined),
        count: document.getElementById('shown-count') as ReturnType<typeof fake>,
      };
    }
    function collect(element: XmlElement): XmlElement[] {
      return [element, ...element.children.flatMap(collect)];
    }
    const visible = (items: { hidden: boolean; attributes: Record<string, string> }[], attribute: string) => items.filter((item) => !item.hidden).map((item) => item.attributes[attribute]);

    it('shows everything at first, then hides by outcome, level, family and coverage state', () => {
      const ui = loadPage();
      expect(ui.count.textContent).toBe('5 of 5 checks shown');
      ui.box('outcome', 'pass').checked = false;
      ui.box('outcome', 'pass').change();
      expect(visible(ui.checks, 'data-outcome')).toEqual(['fail', 'fail', 'skip', 'error']);
      ui.box('level', 'MUST').checked = false;
      ui.box('level', 'MUST').change();
      expect(visible(ui.checks, 'data-level')).toEqual(['DECISION', 'SHOULD']);
      ui.family.value = 'feeds';
      ui.family.change();
      expect(visible(ui.checks, 'data-family')).toEqual(['feeds', 'feeds']);
      expect(ui.count.textContent).toBe('2 of 5 checks shown');
      ui.box('state', 'not-reachable').checked = false;
      ui.box('state', 'not-reachable').change();
      expect(new Set(visible(ui.rows, 'data-state'))).toEqual(new Set(['exercised', 'expected-not-seen']));
    });
  });
});
