/** A client-check finding's requests, as every reporter prints them, and the tool each report names. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { verdictLine } from '../reporters/console.ts';
import { seconds } from '../../cli/counted.ts';
import { loggedRequestLine } from '../reporters/logged-request.ts';
import { reporters } from '../reporters/index.ts';
import { sampleReport } from '../../dev/testing/conformance/sample-report.ts';
import type { LoggedRequest } from '../engine/types/exchange.ts';
import type { RunReport } from '../engine/types/report.ts';
import { runVerdict } from '../engine/verdict.ts';
import { gradedClient } from './run.ts';
import { clientRequirements } from './register.ts';
import { requirementResults } from '../engine/verifies.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const lost: LoggedRequest = { entryId: 7, requestId: 'req_a', atUtc: '2026-11-24T09:00:00.000Z', operation: 'attachPayment', method: 'POST', path: '/api/v1/integration/orders/externalid/SO-1/payment', status: 0, problemType: null, idempotencyKey: 'pay-1', replayed: false, fault: 'reset after (rule)' };
const retried: LoggedRequest = { ...lost, entryId: 8, requestId: 'req_b', status: 200, idempotencyKey: 'pay-2', replayed: false, fault: null };
const folder = mkdtempSync(join(tmpdir(), 'waybill-client-check-reporters-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The sample report as a client-check's, its first failure's finding carrying `requests`. */
function clientReport(): RunReport {
  const report = sampleReport();
  const failed = report.results.find((result) => result.outcome === 'fail');
  if (failed === undefined) throw new Error('the sample report has no failure');
  failed.findings = [{ message: 'The retry carried a new Idempotency-Key', expected: 'one key', received: '2 keys', fix: 'keep one Idempotency-Key for every attempt of the same write (client.idempotency.same-key)', requests: [lost, retried] }];
  return { ...report, suite: { ...report.suite, name: 'waybill-client-check' }, client: { command: 'node client.mjs' } };
}

/** The `<dl class="meta">` of a report.html: its terms and their values. */
function headerFacts(html: string): Map<string, string> {
  const meta = html.slice(html.indexOf('<dl class="meta">'), html.indexOf('</dl>', html.indexOf('<dl class="meta">')));
  return new Map([...meta.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((match) => [match[1]!, match[2]!]));
}

describe('reporters on a client-check report', () => {
  it('a request line says which request, its answer (or none), its key and the fault', () => {
    expect(loggedRequestLine(lost)).toBe('#7 2026-11-24T09:00:00.000Z POST /api/v1/integration/orders/externalid/SO-1/payment → no answer (req_a, Idempotency-Key pay-1, fault: reset after (rule))');
    expect(loggedRequestLine({ ...retried, status: 404, problemType: 'orders.notFound', replayed: true })).toBe('#8 2026-11-24T09:00:00.000Z POST /api/v1/integration/orders/externalid/SO-1/payment → 404 orders.notFound (req_b, Idempotency-Key pay-2, replayed)');
  });

  it('console, JUnit and HTML show each request, and name waybill client-check', async () => {
    const report = clientReport();
    let printed = '';
    const stream = new Writable({ write: (chunk, _encoding, done) => ((printed += String(chunk)), done()) });
    await reporters.console({ outDir: folder, stream, env: { NO_COLOR: '1' } }).onEnd(report);
    expect(printed).toContain(`     Request:  ${loggedRequestLine(lost)}`);
    expect(printed).toContain(`     Request:  ${loggedRequestLine(retried)}`);
    expect(printed).not.toContain('catalog coverage');
    const junit = readFileSync((await reporters.junit({ outDir: folder }).onEnd(report)) as string, 'utf8');
    expect(junit).toContain('<testsuites name="waybill client-check"');
    expect(junit).toContain(`   Request:  ${loggedRequestLine(lost)}`);
    const html = readFileSync((await reporters.html({ outDir: folder }).onEnd(report)) as string, 'utf8');
    expect(html).toContain('<h1>waybill client-check report</h1>');
    expect(html).toContain('#8 2026-11-24T09:00:00.000Z POST /api/v1/integration/orders/externalid/SO-1/payment → 200');
    expect(html).not.toContain('Catalog coverage');
    const json = JSON.parse(readFileSync((await reporters.json({ outDir: folder }).onEnd(report)) as string, 'utf8')) as RunReport;
    expect(json.results.flatMap((result) => result.findings.flatMap((finding) => finding.requests ?? []))).toEqual([lost, retried]);
  });

  it('name the client by its command line, shell-quoted, with the admin token redacted as everywhere else in a report', () => {
    const secrets = [{ value: 'wba_s3cret-token', name: 'adminToken', envVar: 'WAYBILL_ADMIN_TOKEN' }];
    expect(gradedClient('python3', ['my client.py', '--token', 'wba_s3cret-token', "it's"], secrets)).toEqual({ command: `python3 'my client.py' --token <redacted:adminToken> 'it'\\''s'` });
    expect(gradedClient('./bin/sync', ['--page-size=50', '--url=http://sandbox.invalid/x'], secrets)).toEqual({ command: './bin/sync --page-size=50 --url=http://sandbox.invalid/x' });
  });

  it('the console names the client and counts scenarios in the singular for one; the HTML header leaves out what only a conformance run has', async () => {
    const report = clientReport();
    let printed = '';
    const stream = new Writable({ write: (chunk, _encoding, done) => ((printed += String(chunk)), done()) });
    const reporter = reporters.console({ outDir: folder, stream, env: { NO_COLOR: '1' } });
    reporter.onStart?.({ suite: 'waybill-client-check', target: report.target, suiteVersion: '0.1.0', specHash: report.specHash, seed: 7, checkCount: 1, startedAt: report.startedAt, client: { command: 'node client.mjs' } });
    expect(printed).toBe(`waybill client-check 0.1.0 → ${report.target}  (1 scenario, seed 7, spec ${report.specHash.slice(0, 12)})\n  client: node client.mjs\n`);
    const client = headerFacts(readFileSync((await reporters.html({ outDir: folder }).onEnd(report)) as string, 'utf8'));
    expect([...client.keys()]).toEqual(['Client', 'Target', 'Suite', 'Spec hash', 'Seed', 'Started', 'Finished', 'Scenarios took', 'Options']);
    expect(client.get('Client')).toBe('node client.mjs');
    expect(client.get('Options')).toBe(`concurrency ${report.options.concurrency}, every scenario`);
    // A conformance run's header keeps its level, timeout and profile (with the pools).
    const conformance = headerFacts(readFileSync((await reporters.html({ outDir: folder }).onEnd(sampleReport())) as string, 'utf8'));
    expect([...conformance.keys()]).toEqual(['Target', 'Suite', 'Spec hash', 'Seed', 'Started', 'Finished', 'Checks took', 'Options', 'Profile']);
    expect(conformance.get('Options')).toMatch(/^level all, concurrency \d+, timeout \d+ ms/);
    expect(conformance.get('Profile')).toContain('pools ');
  });

  it('say INCOMPLETE (exit 2) in every format, naming each scenario not graded and why, never PASS (D55)', async () => {
    const base = sampleReport();
    const passed = base.results.find((result) => result.outcome === 'pass')!;
    const results = [
      { ...passed, id: 'client.pay.answer-lost', family: 'client.pay' },
      { ...passed, id: 'client.sync.unknown-status', family: 'client.sync', outcome: 'error' as const, error: { message: 'not staged: no order of the feed is in a status the contract does not list' } },
    ];
    const { exitCode, ...verdict } = runVerdict('waybill-client-check', results);
    const report: RunReport = { ...base, suite: { ...base.suite, name: 'waybill-client-check' }, results, exitCode, verdict, counts: { ...base.counts, byOutcome: { pass: 1, fail: 0, skip: 0, error: 1 }, failing: 0, warnings: 0 } };
    const reason = 'client.sync.unknown-status ended in error: not staged: no order of the feed is in a status the contract does not list';
    expect(exitCode).toBe(2);
    expect(verdictLine(report, false)).toBe(`INCOMPLETE — 1 scenario not graded: ${reason} (exit 2, scenarios took ${seconds(report.durationMs)}, ${report.exchangeCount} exchanges)`);
    const junit = readFileSync((await reporters.junit({ outDir: folder }).onEnd(report)) as string, 'utf8');
    expect(junit).toContain('<property name="verdict" value="INCOMPLETE">');
    expect(junit).toContain(`<property name="notGraded" value="${reason}">`);
    expect(junit).toContain('<property name="exitCode" value="2">');
    const html = readFileSync((await reporters.html({ outDir: folder }).onEnd(report)) as string, 'utf8');
    expect(html).toContain(`<p class="verdict exit-2">INCOMPLETE — 1 scenario not graded: ${reason} (exit 2)</p>`);
    expect(html).toContain(`<li>${reason}</li>`);
    const json = JSON.parse(readFileSync((await reporters.json({ outDir: folder }).onEnd(report)) as string, 'utf8')) as RunReport;
    expect(json).toMatchObject({ exitCode: 2, verdict: { verdict: 'INCOMPLETE', reasons: [reason] } });
    for (const text of [verdictLine(report, false), html.slice(html.indexOf('<header>'), html.indexOf('</header>'))]) expect(text).not.toContain('PASS');
  });

  it('writes a report.json valid against spec/report.schema.json, as a conformance run does, its requirements the client register (client. ids with their origin)', async () => {
    const schema = JSON.parse(readFileSync(new URL('../../spec/report.schema.json', import.meta.url), 'utf8')) as object;
    const validate = addFormats(new Ajv2020({ strict: true, allErrors: true })).compile(schema);
    const report = clientReport();
    const results = report.results.map((result, index) => (index === 0 ? { ...result, verifies: ['client.idempotency.same-key'] } : result));
    const client = { ...report, results, requirements: requirementResults(clientRequirements, results) };
    expect(client.requirements.entries.some((entry) => entry.id.startsWith('client.') && entry.origin === 'decision')).toBe(true);
    for (const written of [clientReport(), client]) {
      const json = JSON.parse(readFileSync((await reporters.json({ outDir: folder }).onEnd(written)) as string, 'utf8')) as unknown;
      expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});
