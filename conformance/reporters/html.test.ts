import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { hostileQuote, hostileReason, sampleReport } from '../../dev/testing/conformance/sample-report.ts';
import { findAll, parseXml, type XmlElement } from '../../dev/testing/conformance/xml-tree.ts';
import { integrationRequirements } from '../contract/contract.ts';
import { reportHtml } from './html.ts';
import { requirementTrace } from './requirement-trace.ts';

const report = sampleReport();
const html = reportHtml(report);
// The page is written as XHTML-compatible markup, so the strict XML reader can walk it.
const page = parseXml(html.replace(/^<!doctype html>\n/, ''));

/** An id's place in the register (the trace keeps register order; the requirements table puts seed statements first). */
const registerOrder = new Map([...integrationRequirements.keys()].map((id, index) => [id, index]));
const order = (id: string) => registerOrder.get(id)!;

/** An element and everything under it. */
function collectAll(element: XmlElement): XmlElement[] {
  return [element, ...element.children.flatMap(collectAll)];
}

/** The text of an element and its descendants: its own text, then its children's (the tree keeps no order between the two). */
function deepText(element: XmlElement): string {
  return element.text + element.children.map(deepText).join('');
}

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

  it("shows each finding's fix sentence, the ids it cites linked to their requirement rows, and keeps a hostile one inert", () => {
    const fixes = findAll(page, 'dd').filter((dd) => dd.attributes['class'] === 'fix');
    expect(fixes.map((dd) => [deepText(dd).replace(/[()]/g, ''), findAll(dd, 'a').map((link) => link.attributes['href'])])).toEqual([
      ['report in whoami exactly the scopes granted to the key int.identity.scopes', ['#requirement-int.identity.scopes']],
      ['escape <i>this</i> & "that" ]]> int.identity.scopes', ['#requirement-int.identity.scopes']],
      ['cap a limit above 100 at 100 instead of refusing it D8', ['#requirement-D8']],
    ]);
    expect(html).not.toContain('<i>this</i>');
    expect(html).toContain('<dt>Fix</dt>');
  });

  it('keeps a hostile requirement quote and reason inert', () => {
    expect(html).not.toContain('<script>alert(3)');
    expect(html).not.toContain('<img src=x onerror=alert(4)');
    expect(html).toContain('&lt;script&gt;alert(3)&lt;/script&gt; &amp; &quot;quotes&quot; ]]&gt;');
    const rows = findAll(page, 'tr').filter((row) => row.attributes['data-requirement'] !== undefined);
    expect(rows.some((row) => deepText(row).includes(hostileQuote.trim()))).toBe(true);
    expect(rows.some((row) => deepText(row).includes(hostileReason.trim()))).toBe(true);
    expect(findAll(page, 'script')).toHaveLength(1);
    expect(findAll(page, 'img')).toHaveLength(0);
  });

  it('lists every requirement, seed statements first, with source, quote, outcome and links to the checks that verified it', () => {
    const rows = findAll(page, 'tr').filter((row) => row.attributes['data-requirement'] !== undefined);
    const { entries } = report.requirements;
    expect(rows.map((row) => row.attributes['id'])).toEqual(entries.map((entry) => `requirement-${entry.id}`));
    const levels = rows.map((row) => row.attributes['data-level']);
    expect(levels.lastIndexOf('MUST')).toBeLessThan(levels.indexOf('DECISION'));
    expect(levels.lastIndexOf('SHOULD')).toBeLessThan(levels.indexOf('DECISION'));
    const scopes = rows.find((row) => row.attributes['id'] === 'requirement-int.identity.scopes')!;
    expect(scopes.attributes['data-outcome']).toBe('fail');
    expect(deepText(scopes)).toContain('01-integration-api.md › Key identity');
    expect(findAll(scopes, 'a').map((link) => link.attributes['href'])).toEqual(['#check-discovery.whoami.scopes']);
    const d8 = rows.find((row) => row.attributes['id'] === 'requirement-D8')!;
    expect(deepText(d8)).toContain('spec/DECISIONS.md D8 — Bad `limit`');
    for (const entry of entries.filter((entry) => !entry.testable)) {
      const row = rows.find((candidate) => candidate.attributes['id'] === `requirement-${entry.id}`)!;
      expect(row.attributes['data-outcome']).toBe('not-testable');
      const reason = findAll(row, 'p').find((p) => p.attributes['class'] === 'reason');
      expect(reason?.text).toBe(entry.reason);
      expect(findAll(reason!, 'b').map((b) => b.text)).toEqual(['Not testable: ']);
    }
  });

  it('links each check to its requirements and back; every in-page link has a target', () => {
    const ids = new Set(collectAll(page).map((element) => element.attributes['id']).filter((id) => id !== undefined));
    const links = findAll(page, 'a').map((link) => link.attributes['href'] ?? '');
    expect(links.filter((href) => href.startsWith('#')).length).toBeGreaterThan(5);
    for (const href of links) expect(ids.has(href.slice(1)), href).toBe(true);
    const scopes = findAll(page, 'article').find((article) => article.attributes['id'] === 'check-discovery.whoami.scopes')!;
    expect(findAll(scopes, 'a').map((link) => link.attributes['href'])).toContain('#requirement-int.identity.scopes');
  });

  it('states seed and decision coverage in the summary and the requirements section', () => {
    const { seed, decision } = report.requirements.counts;
    const line = `Seed requirements: ${seed.testable} testable, ${seed.covered} covered, ${seed.passed} passed, ${seed.failed} failed`;
    expect(line).toBe('Seed requirements: 112 testable, 3 covered, 1 passed, 1 failed');
    const summaries = findAll(page, 'p').filter((p) => p.attributes['class'] === 'requirement-summary');
    expect(summaries).toHaveLength(2);
    for (const summary of summaries) {
      expect(deepText(summary)).toContain(line);
      expect(deepText(summary)).toContain(`Decisions: ${decision.testable} testable, ${decision.covered} covered, ${decision.passed} passed, ${decision.failed} failed`);
    }
  });

  it('labels every requirement control and heads the table for assistive technology', () => {
    const section = findAll(page, 'section').find((candidate) => candidate.attributes['id'] === 'requirements')!;
    const heading = findAll(section, 'h2')[0]!;
    expect(section.attributes['aria-labelledby']).toBe(heading.attributes['id']);
    const labels = findAll(section, 'label');
    const search = findAll(section, 'input').find((input) => input.attributes['type'] === 'search')!;
    expect(labels.some((label) => label.attributes['for'] === search.attributes['id'])).toBe(true);
    const boxes = labels.flatMap((label) => findAll(label, 'input')).filter((input) => input.attributes['type'] === 'checkbox');
    expect(boxes.map((box) => box.attributes['value'])).toEqual(['MUST', 'SHOULD', 'DECISION', 'pass', 'fail', 'error', 'skip', 'untested', 'not-testable']);
    expect(findAll(section, 'legend').map((legend) => legend.text)).toEqual(['Level', 'Outcome', 'Text']);
    expect(findAll(section, 'thead').flatMap((head) => findAll(head, 'th')).every((th) => th.attributes['scope'] === 'col')).toBe(true);
    expect(findAll(section, 'tbody').flatMap((body) => body.children).every((row) => row.children[0]?.name === 'th' && row.children[0].attributes['scope'] === 'row')).toBe(true);
    expect(findAll(section, 'span').find((span) => span.attributes['id'] === 'requirements-shown')?.attributes['aria-live']).toBe('polite');
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

  it('counts a DECISION failure without --strict as a warning, apart from the failures, in the cards and both tables', () => {
    const summary = findAll(page, 'section').find((section) => section.attributes['id'] === 'summary')!;
    const cards = Object.fromEntries(findAll(summary, 'div').filter((div) => /\bcard\b/.test(div.attributes['class'] ?? '')).map((card) => [card.text.trim(), Number(card.children[0]!.text)]));
    expect(cards).toEqual({ pass: 1, fail: 1, warn: 1, skip: 1, error: 1 });
    const rows = (first: string) => findAll(summary, 'tr').filter((row) => row.children[0]?.name === 'th' && row.children[0]?.text === first).map((row) => row.children.slice(1).map((cell) => Number(cell.text)));
    expect(findAll(summary, 'th').filter((th) => th.text === 'warn')).toHaveLength(2);
    expect(rows('DECISION')).toEqual([[0, 0, 1, 0, 0]]);
    expect(rows('feeds')).toEqual([[0, 0, 1, 1, 0]]);
  });

  describe('with the requirement trace (as the reporter writes it)', () => {
    const trace = requirementTrace();
    const traced = reportHtml(report, trace);
    const tracedPage = parseXml(traced.replace(/^<!doctype html>\n/, ''));
    const section = findAll(tracedPage, 'section').find((candidate) => candidate.attributes['id'] === 'requirement-trace')!;
    const rows = findAll(section, 'tr').filter((row) => row.attributes['data-trace'] !== undefined);

    it('holds the table of /docs/requirements: every requirement, what verifies it, the sandbox files that implement it', () => {
      expect(rows.map((row) => row.attributes['id'])).toEqual(report.requirements.entries.map((entry) => entry.id).sort((a, b) => order(a) - order(b)).map((id) => `trace-${id}`));
      const caughtUp = rows.find((row) => row.attributes['id'] === 'trace-int.orders-feed.caught-up')!;
      const entry = trace.find((candidate) => candidate.id === 'int.orders-feed.caught-up')!;
      // One code element per check, scenario and marked file: the table of the docs page, cell for cell.
      expect(findAll(caughtUp, 'code')).toHaveLength(entry.checks.length + entry.scenarios.length + entry.code.length);
      for (const place of entry.code) expect(traced).toContain(`<code>${place.file.replaceAll('/', '/<wbr/>')}</code>`);
      expect(findAll(section, 'h2').map(deepText)).toEqual([`Requirement trace (${rows.length})`]);
    });

    it("links a requirement's row to its trace, a traced check to its article only when it ran, and adds no script or request", () => {
      const ids = new Set(collectAll(tracedPage).map((element) => element.attributes['id']).filter((id) => id !== undefined));
      const links = findAll(tracedPage, 'a').map((link) => link.attributes['href'] ?? '');
      for (const href of links) expect(ids.has(href.slice(1)), href).toBe(true);
      const requirementRows = findAll(tracedPage, 'tr').filter((row) => row.attributes['data-requirement'] !== undefined);
      expect(requirementRows.every((row) => findAll(row.children[0]!, 'a')[0]?.attributes['href'] === `#trace-${row.attributes['id']!.slice('requirement-'.length)}`)).toBe(true);
      const checkLinks = findAll(section, 'a').map((link) => link.attributes['href'] ?? '').filter((href) => href.startsWith('#check-'));
      const traceIds = new Set(trace.flatMap((entry) => [...entry.checks, ...entry.scenarios]));
      const ran = report.results.filter((result) => traceIds.has(result.id)).map((result) => `#check-${result.id}`);
      expect(ran.length).toBeGreaterThan(0);
      expect(new Set(checkLinks)).toEqual(new Set(ran));
      expect(findAll(tracedPage, 'script')).toHaveLength(1);
      expect(traced).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    });
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
          textContent: deepText(element),
          listeners: [] as (() => void)[],
          getAttribute: (name: string) => element.attributes[name] ?? null,
          hasAttribute: (name: string) => element.attributes[name] !== undefined,
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
          if (selector === '[data-requirement]') return select((e) => e.attributes['data-requirement'] !== undefined);
          throw new Error(`selector not faked: ${selector}`);
        },
        getElementById: (id: string) => select((e) => e.attributes['id'] === id)[0] ?? null,
        addEventListener: () => undefined,
      };
      const window = { addEventListener: () => undefined };
      runInNewContext(findAll(page, 'script')[0]?.text ?? '', { document, window, location: { hash: '' } });
      return {
        box: (filter: string, value: string) => select((e) => e.attributes['data-filter'] === filter && e.attributes['value'] === value)[0] as ReturnType<typeof fake>,
        family: document.getElementById('family-filter') as ReturnType<typeof fake>,
        checks: select((e) => e.attributes['data-check'] !== undefined),
        rows: select((e) => e.attributes['data-state'] !== undefined),
        count: document.getElementById('shown-count') as ReturnType<typeof fake>,
        search: document.getElementById('requirement-search') as ReturnType<typeof fake>,
        requirements: select((e) => e.attributes['data-requirement'] !== undefined),
        requirementCount: document.getElementById('requirements-shown') as ReturnType<typeof fake>,
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

    it('hides requirement rows by level, outcome and every word of the search, and counts what is shown', () => {
      const ui = loadPage();
      const { entries } = report.requirements;
      expect(ui.requirementCount.textContent).toBe(`${entries.length} of ${entries.length} requirements shown`);
      const toggle = (filter: string, value: string, on: boolean) => {
        ui.box(filter, value).checked = on;
        ui.box(filter, value).change();
      };
      toggle('requirement-level', 'DECISION', false);
      expect(new Set(visible(ui.requirements, 'data-level'))).toEqual(new Set(['MUST', 'SHOULD']));
      toggle('requirement-outcome', 'untested', false);
      toggle('requirement-outcome', 'not-testable', false);
      expect(visible(ui.requirements, 'id')).toEqual(entries.filter((entry) => entry.level !== 'DECISION' && entry.checks.length > 0).map((entry) => `requirement-${entry.id}`));
      expect(visible(ui.requirements, 'id')).toHaveLength(4);
      toggle('requirement-level', 'DECISION', true);
      expect(visible(ui.requirements, 'id')).toContain('requirement-D8');
      toggle('requirement-outcome', 'untested', true);
      ui.search.value = '  Scopes   WHOAMI ';
      ui.search.change();
      expect(visible(ui.requirements, 'id')).toEqual(['requirement-int.identity.scopes', 'requirement-int.whoami.response']);
      expect(ui.requirementCount.textContent).toBe(`2 of ${entries.length} requirements shown`);
      ui.search.value = 'limit';
      ui.search.change();
      expect(visible(ui.requirements, 'data-level').every((level) => level !== undefined)).toBe(true);
      expect(visible(ui.requirements, 'id')).toContain('requirement-D8');
      ui.search.value = '';
      ui.search.change();
      expect(visible(ui.requirements, 'data-outcome')).not.toContain('not-testable');
      expect(ui.checks.every((check) => !check.hidden)).toBe(true);
    });
  });
});
