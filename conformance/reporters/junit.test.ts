import { describe, expect, it } from 'vitest';
import { hostileQuote, sampleReport } from '../../dev/testing/conformance/sample-report.ts';
import { findAll, parseXml, type XmlElement } from '../../dev/testing/conformance/xml-tree.ts';
import { junitXml } from './junit.ts';

/** The `name → value` pairs of an element's own `<properties>`. */
function propertiesOf(owner: XmlElement): Record<string, string> {
  const properties = owner.children.find((child) => child.name === 'properties');
  return Object.fromEntries((properties?.children ?? []).map((property) => [property.attributes['name'], property.attributes['value']]));
}

describe('junit.xml', () => {
  const report = sampleReport();
  const xml = junitXml(report);
  const root = parseXml(xml);

  it('is well-formed XML with the totals of the run', () => {
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '5', failures: '2', errors: '1', skipped: '1', time: '1.500' });
  });

  it('has one testsuite per family with its own counts', () => {
    const suites = findAll(root, 'testsuite').map((suite) => [suite.attributes['name'], suite.attributes['tests'], suite.attributes['failures'], suite.attributes['errors'], suite.attributes['skipped']]);
    expect(suites).toEqual([
      ['discovery', '2', '1', '0', '0'],
      ['feeds', '2', '1', '0', '1'],
      ['problems', '1', '0', '1', '0'],
    ]);
  });

  it('has one testcase per check, classname = family, name = "id: title"', () => {
    const cases = findAll(root, 'testcase');
    expect(cases.map((testcase) => [testcase.attributes['classname'], testcase.attributes['name']])).toEqual([
      ['discovery', 'discovery.whoami.shape: whoami answers 200 with the key identity'],
      ['discovery', "discovery.whoami.scopes: whoami reports the scopes each profile key's name implies"],
      ['feeds', 'feeds.limit.cap: limit above 100 is capped'],
      ['feeds', 'feeds.tail: a changed order reappears at the tail'],
      ['problems', 'problems.catalog: every failure is a catalog problem'],
    ]);
    expect(cases.map((testcase) => testcase.children.map((child) => child.name))).toEqual([['properties'], ['properties', 'failure'], ['properties', 'failure'], ['properties', 'skipped'], ['properties', 'error']]);
  });

  it('writes expected, received, fix and replay into a failure, and marks a DECISION failure that does not count', () => {
    const [scopes, cap] = findAll(root, 'failure');
    expect(scopes?.attributes['type']).toBe('MUST');
    expect(scopes?.text).toContain('Expected: scopes without trips:read');
    expect(scopes?.text).toContain('Received: ["orders:read","trips:read"]');
    expect(scopes?.text).toContain('Fix:      report in whoami exactly the scopes granted to the key (int.identity.scopes)');
    expect(scopes?.text).toContain(`Replay:   curl -i 'http://127.0.0.1:4321/api/v1/integration/whoami' -H 'x-api-key: '"$WAYBILL_KEY_ORDERS_READ"`);
    expect(scopes?.text).toContain('hostile <script>alert(1)</script> & "quotes" \uFFFD ]]>');
    expect(cap?.attributes['type']).toBe('DECISION (warning)');
    expect(findAll(root, 'skipped')[0]?.attributes['message']).toBe('profile has no sandbox');
    expect(findAll(root, 'error')[0]?.text).toContain('Error: boom');
  });

  it('gives each testcase its level and the requirement ids it verifies', () => {
    expect(findAll(root, 'testcase').map(propertiesOf)).toEqual(report.results.map((result) => ({ level: result.level, requirements: result.verifies.join(', ') })));
    expect(propertiesOf(findAll(root, 'testcase')[2]!)).toEqual({ level: 'DECISION', requirements: 'D8' });
    expect(findAll(root, 'failure')[0]?.text).toContain('Verifies: int.identity.scopes');
  });

  it('gives each testsuite the requirement coverage of the run', () => {
    const { seed, decision } = report.requirements.counts;
    for (const suite of findAll(root, 'testsuite')) {
      expect(propertiesOf(suite)).toMatchObject({
        'requirements.seed.testable': String(seed.testable),
        'requirements.seed.covered': String(seed.covered),
        'requirements.seed.passed': String(seed.passed),
        'requirements.seed.failed': String(seed.failed),
        'requirements.decision.testable': String(decision.testable),
        'requirements.decision.covered': String(decision.covered),
        'requirements.decision.passed': String(decision.passed),
        'requirements.decision.failed': String(decision.failed),
      });
    }
    expect(propertiesOf(findAll(root, 'testsuite')[0]!)).toMatchObject({ 'requirements.seed.covered': '3', 'requirements.seed.passed': '1', 'requirements.seed.failed': '1' });
  });

  it('keeps a hostile requirement quote inert in the rule text', () => {
    expect(xml).not.toContain('<script>alert(3)');
    expect(findAll(root, 'failure')[0]?.text).toContain(hostileQuote.trim());
  });

  it('matches the golden file', async () => {
    await expect(xml).toMatchFileSnapshot('./__golden__/junit.xml');
  });
});
