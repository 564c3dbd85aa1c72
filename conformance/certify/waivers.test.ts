/**
 * Waivers in every outcome: a waived failure (its own outcome, counted apart, never failing
 * the run), an expired waiver, a waiver for a check that passed, and a MUST waiver that a
 * certification refuses unless it names the seed requirement; each shown by every reporter.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/errors.ts';
import { consoleReporter } from '../reporters/console.ts';
import { reportHtml } from '../reporters/html.ts';
import { junitXml } from '../reporters/junit.ts';
import { runSuite } from '../engine/runner.ts';
import { testProfile } from '../../dev/testing/conformance/fake-target.ts';
import type { Check } from '../engine/types/check.ts';
import type { Contract, RequirementInfo } from '../engine/types/contract.ts';
import type { RunReport, Waiver } from '../engine/types/report.ts';
import { loadWaivers, waiverPolicy } from './waivers.ts';

const register = new Map<string, RequirementInfo>([
  ['int.a.rule', { id: 'int.a.rule', level: 'MUST', source: 'test.md › A', quote: 'a MUST rule', testable: true }],
  ['int.b.rule', { id: 'int.b.rule', level: 'MUST', source: 'test.md › B', quote: 'another MUST rule', testable: true }],
  ['D1', { id: 'D1', level: 'DECISION', source: 'spec/DECISIONS.md D1 — A decision', quote: 'a decision', testable: true }],
]);
const contract: Contract = { specHash: 'test-hash', routes: [], requirements: register, coverage: () => [] };
const broken = async () => [{ message: 'broken', expected: 'a', received: 'b' }];

/** A check of `verifies`, failing unless `passes`. */
function check(id: string, verifies: string[], passes = false): Check {
  return { id, family: id.split('.')[0]!, title: `check ${id}`, verifies, fix: `do what the rule says (${verifies.join(', ')})`, requires: [], run: passes ? async () => [] : broken };
}

const checks = [
  check('decide.fails', ['D1']),
  check('must.named', ['int.a.rule', 'int.b.rule']),
  check('must.unnamed', ['int.a.rule']),
  check('must.expired', ['int.a.rule']),
  check('must.passes', ['int.b.rule'], true),
];
const grant = { reason: 'fixed in 2.4', link: 'https://tickets.example/ACME-7', grantedBy: 'Jo Certifier' };
const waivers: Waiver[] = [
  { check: 'decide.fails', ...grant, expires: '2026-12-31' },
  { check: 'must.named', requirement: 'int.b.rule', ...grant, expires: '2026-12-31' },
  { check: 'must.unnamed', ...grant, expires: '2026-12-31' },
  { check: 'must.expired', requirement: 'int.a.rule', ...grant, expires: '2026-11-01' },
  { check: 'must.passes', requirement: 'int.b.rule', ...grant, expires: '2026-12-31' },
];

/** Runs the checks with the waivers on 2026-11-24, a certification when `certify`. */
async function run(certify: boolean): Promise<RunReport> {
  const policy = waiverPolicy(waivers, { today: '2026-11-24', certify });
  const report = await runSuite({ checks, profile: testProfile(), target: 'http://127.0.0.1:9', contract, seed: 1, strict: true, waive: (resolved) => policy.waive(resolved) });
  return { ...report, waivers: policy.statuses(report.results) };
}

const outcomes = (report: RunReport) => Object.fromEntries(report.results.map((result) => [result.id, result.outcome]));
const statuses = (report: RunReport) => Object.fromEntries((report.waivers ?? []).map(({ waiver, status }) => [waiver.check, status]));

describe('waivers', () => {
  it('in a certification: waived failure, refused MUST waiver without a requirement, expired waiver, waiver for a passing check', async () => {
    const report = await run(true);
    expect(outcomes(report)).toEqual({ 'decide.fails': 'waived', 'must.named': 'waived', 'must.unnamed': 'fail', 'must.expired': 'fail', 'must.passes': 'pass' });
    expect(statuses(report)).toEqual({ 'decide.fails': 'applied', 'must.named': 'applied', 'must.unnamed': 'refused', 'must.expired': 'expired', 'must.passes': 'unused' });
    const notes = (report.waivers ?? []).map((status) => status.note).join('\n');
    expect(notes).toContain('must.unnamed is a MUST check: in a certification a waiver must name the seed requirement it concerns (one of int.a.rule)');
    expect(notes).toContain('expired on 2026-11-01, before this run (2026-11-24); the failure counts');
    expect(notes).toContain('must.passes passed: the waiver is not needed');
    expect(report.counts.byOutcome).toEqual({ pass: 1, fail: 2, skip: 0, error: 0, waived: 2 });
    expect(report.counts.failing).toBe(2);
    expect(report.results.find((result) => result.id === 'must.named')).toMatchObject({ failsRun: false, waiver: waivers[1], findings: [{ message: 'broken' }] });
    expect(report.requirements.entries.find((entry) => entry.id === 'D1')?.outcome).toBe('waived');
  });

  it('outside a certification a MUST waiver needs no requirement, but one it names must be verified by the check', async () => {
    expect(outcomes(await run(false))['must.unnamed']).toBe('waived');
    const policy = waiverPolicy([{ check: 'must.unnamed', requirement: 'int.b.rule', ...grant, expires: '2026-12-31' }], { today: '2026-11-24', certify: false });
    const report = await runSuite({ checks: [checks[2]!], profile: testProfile(), target: 'http://127.0.0.1:9', contract, seed: 1, waive: (resolved) => policy.waive(resolved) });
    expect(report.results[0]?.outcome).toBe('fail');
    expect(policy.statuses(report.results)[0]?.note).toContain('it names int.b.rule, which must.unnamed does not verify');
  });

  it('every reporter shows waived as its own outcome and the waivers that did not apply', async () => {
    const report = await run(true);
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
    const validate = addFormats(new Ajv2020({ strict: true, allErrors: true })).compile(JSON.parse(readFileSync(new URL('../../spec/report.schema.json', import.meta.url), 'utf8')) as object);
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);

    const xml = junitXml(report);
    expect(xml).toContain('<skipped message="waived (int.b.rule): fixed in 2.4 — granted by Jo Certifier, until 2026-12-31, https://tickets.example/ACME-7">');
    expect(xml).toContain('<property name="outcome" value="waived">');
    expect(xml).toContain('<property name="waived" value="2">');

    let printed = '';
    const stream = new Writable({ write: (chunk, _encoding, done) => ((printed += String(chunk)), done()) });
    const reporter = consoleReporter({ outDir: '.', stream, env: {} });
    for (const result of report.results) reporter.onResult?.(result);
    await reporter.onEnd(report);
    expect(printed).toContain('~ must.named');
    expect(printed).toMatch(/family\s+pass\s+fail\s+skip\s+error\s+waived/);
    expect(printed).toContain('waiver refused: must.unnamed');
    expect(printed).toContain('waiver expired: must.expired');
    expect(printed).toContain('2 waived)');

    const html = reportHtml(report);
    expect(html).toContain('data-outcome="waived"');
    expect(html).toContain('<b>Waived: </b>waived (int.b.rule): fixed in 2.4');
    expect(html).toContain('Waivers (5)');
    expect(html).toContain('<tr data-waiver="refused">');
  });

  it('a waivers file is YAML checked against its schema, and names only checks of the suite', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-waivers-'));
    const file = join(dir, 'waivers.yaml');
    writeFileSync(file, 'waivers:\n  - check: must.named\n    requirement: int.b.rule\n    reason: fixed in 2.4\n    link: https://tickets.example/ACME-7\n    grantedBy: Jo Certifier\n    expires: 2026-12-31\n');
    expect(loadWaivers(file, new Set(['must.named']))).toEqual([waivers[1]]);
    expect(() => loadWaivers(file, new Set(['other.check']))).toThrow(new UsageError(`${file}: /waivers/0/check must.named is not a check of this suite`));
    writeFileSync(file, 'waivers:\n  - check: must.named\n    reason: r\n    link: not a link\n    expires: 31/12/2026\n');
    expect(() => loadWaivers(file, new Set(['must.named']))).toThrow(/\/waivers\/0\/grantedBy is required.*\/waivers\/0\/link must match format "uri".*\/waivers\/0\/expires must match format "date"/);
  });
});
