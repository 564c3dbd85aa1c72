import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationContract } from '../contract/contract.ts';
import { runSuite } from '../engine/runner.ts';
import { sampleReport } from '../../dev/testing/conformance/sample-report.ts';
import { conformingHandler, type FakeTarget, startFakeTarget, testProfile } from '../../dev/testing/conformance/fake-target.ts';
import type { Check } from '../engine/types/check.ts';
import type { RunReport } from '../engine/types/report.ts';
import { jsonReporter } from './json.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const schema = JSON.parse(readFileSync(new URL('../../spec/report.schema.json', import.meta.url), 'utf8')) as object;
const validate = addFormats(new Ajv2020({ strict: true, allErrors: true })).compile<RunReport>(schema);

function problems(value: unknown): string {
  return validate(value) ? '' : JSON.stringify(validate.errors, null, 2);
}

describe('report.json', () => {
  let target: FakeTarget;
  beforeAll(async () => {
    target = await startFakeTarget(conformingHandler());
  });
  afterAll(() => target.close());

  it('the sample report is valid against spec/report.schema.json', () => {
    expect(problems(sampleReport())).toBe('');
  });

  it('a real run with every outcome, exchanges, a raw exchange and a dead request writes a valid report.json', async () => {
    const calls: Check = {
      id: 'x.calls',
      family: 'x',
      title: 'calls',
      verifies: ['int.auth.revoked'],
      fix: 'refuse a revoked key with 401 (int.auth.revoked)',
      requires: [],
      async run(ctx) {
        const response = await ctx.http.request({ method: 'POST', path: '/api/v1/integration/orders/externalid/e/cancel', body: { reason: 'r' } });
        const raw = await ctx.raw(`GET /api/v1/integration/whoami HTTP/1.1\r\nHost: x\r\n${ctx.authHeader()}\r\nConnection: close\r\n\r\n`);
        return [{ message: 'm', expected: 'e', received: String(response.status), exchange: response.exchange }, { message: 'raw', expected: 'e', received: 'r', exchange: raw.exchange }];
      },
    };
    const broken: Check = { ...calls, id: 'x.broken', run: async () => Promise.reject(new Error('bug')) };
    const skipped: Check = { ...calls, id: 'x.skipped', requires: ['sandbox'] };
    const report = await runSuite({ checks: [calls, broken, skipped], profile: testProfile(), target: target.url, contract: integrationContract });
    expect(report.results.map((result) => result.outcome)).toEqual(['fail', 'error', 'skip']);
    const outDir = mkdtempSync(join(tmpdir(), 'waybill-json-'));
    const file = await jsonReporter({ outDir }).onEnd(report);
    expect(file).toBe(join(outDir, 'report.json'));
    const written = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as unknown;
    expect(problems(written)).toBe('');
    expect(written).toMatchObject({ reportVersion: 1 });
  });

  it('the schema rejects a report that drifts from the type', () => {
    const report = sampleReport() as unknown as Record<string, unknown>;
    expect(problems({ ...report, reportVersion: 2 })).not.toBe('');
    expect(problems({ ...report, extra: true })).not.toBe('');
    const { coverage: _coverage, ...withoutCoverage } = report;
    expect(problems(withoutCoverage)).toContain('coverage');
  });

  it('the schema holds results[].verifies and the requirements section to the type', () => {
    const report = sampleReport();
    const [first, ...rest] = report.results;
    const { verifies: _verifies, ...withoutVerifies } = first!;
    expect(problems({ ...report, results: [withoutVerifies, ...rest] })).toContain('verifies');
    expect(problems({ ...report, results: [{ ...first, verifies: [] }, ...rest] })).not.toBe('');
    expect(problems({ ...report, results: [{ ...first, verifies: ['README.md'] }, ...rest] })).not.toBe('');
    const { requirements: _requirements, ...withoutRequirements } = report;
    expect(problems(withoutRequirements)).toContain('requirements');
    const entries = report.requirements.entries;
    const untestable = entries.find((entry) => !entry.testable)!;
    const testable = entries.find((entry) => entry.testable)!;
    const decision = entries.find((entry) => entry.level === 'DECISION')!;
    const withEntry = (entry: object) => ({ ...report, requirements: { ...report.requirements, entries: [entry] } });
    expect(problems(withEntry(untestable))).toBe('');
    expect(problems(withEntry({ ...untestable, extra: 1 }))).not.toBe('');
    expect(problems(withEntry({ ...untestable, reason: undefined }))).not.toBe('');
    expect(problems(withEntry({ ...untestable, outcome: 'pass' }))).not.toBe('');
    expect(problems(withEntry({ ...testable, outcome: 'maybe' }))).not.toBe('');
    expect(problems(withEntry({ ...testable, outcome: 'not-testable' }))).not.toBe('');
    expect(problems(withEntry({ ...decision, source: 'README.md › The profile' }))).not.toBe('');
    expect(problems({ ...report, requirements: { ...report.requirements, counts: { seed: report.requirements.counts.seed } } })).toContain('decision');
  });
});
