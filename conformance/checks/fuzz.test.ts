import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli.ts';
import { answer, conformingHandler, type FakeTarget, startFakeTarget, testProfile } from '../../dev/testing/conformance/fake-target.ts';
import { runChecks, startReference } from '../../dev/testing/conformance/reference.ts';
import type { RunReport } from '../engine/types/report.ts';
import { fuzzCheck } from './fuzz.ts';
import { checks } from './index.ts';

describe('the fuzz family', () => {
  it('passes against the reference, control plane included', async () => {
    const reference = await startReference({ sandbox: true });
    try {
      const { byId, report } = await runChecks([fuzzCheck(300)], reference.profile, { seed: 11 });
      expect(byId.get('fuzz.requests')).toMatchObject({ outcome: 'pass', level: 'MUST', findings: [] });
      expect(report.exchangeCount).toBeGreaterThan(250);
      expect(reference.server.log.lines.filter((line) => line.includes(' failed:'))).toEqual([]);
    } finally {
      await reference.close();
    }
  }, 60_000);

  it('fails against a target that answers malformed JSON 500 text/plain, each finding with the exchange and its replay line', async () => {
    const conforming = conformingHandler();
    const target = await startFakeTarget((request, response) => {
      if (request.body !== '') {
        try {
          JSON.parse(request.body);
        } catch {
          response.writeHead(500, { 'content-type': 'text/plain', 'x-request-id': 'req_broken' });
          return void response.end('Internal Server Error');
        }
      }
      if (request.url.includes('/whoami')) return conforming(request, response);
      answer(response, 404, { type: 'orders.notFound', title: 'Not Found', status: 404, detail: null, instance: request.url });
    });
    try {
      const { byId } = await runChecks([fuzzCheck(200)], { ...testProfile(), target: target.url }, { seed: 5 });
      const result = byId.get('fuzz.requests')!;
      expect(result.outcome).toBe('fail');
      const serverErrors = result.findings.filter((found) => found.received.includes('a 500 answer'));
      expect(serverErrors.length).toBeGreaterThan(0);
      for (const found of serverErrors) {
        expect(found.message).toMatch(/^fuzz case \d+ of 200 .* --only fuzz --fuzz 200 --seed 5$/);
        expect(found.received).toContain('a 500 error as text/plain, not application/problem+json');
        expect(found.exchange?.replay).toMatch(/^curl -i /);
      }
    } finally {
      await target.close();
    }
  }, 60_000);

  it('fails against a target whose walk of a body breaks on deep nesting, each finding showing the deep body it sent', async () => {
    const conforming = conformingHandler();
    /** How deep a parsed JSON value nests, walked the way a naive server walks it. */
    const depthOf = (value: unknown): number => (value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);
    const target = await startFakeTarget((request, response) => {
      let deep = false;
      try {
        deep = depthOf(JSON.parse(request.body)) > 64;
      } catch (error) {
        // A stack overflow is the failure this target stands for; text that is no JSON is not.
        deep = error instanceof RangeError;
      }
      if (!deep) return conforming(request, response);
      response.writeHead(500, { 'content-type': 'text/plain', 'x-request-id': 'req_deep' });
      response.end('Internal Server Error');
    });
    try {
      const { byId } = await runChecks([fuzzCheck(300)], { ...testProfile(), target: target.url }, { seed: 1 });
      const result = byId.get('fuzz.requests')!;
      expect(result.outcome).toBe('fail');
      const serverErrors = result.findings.filter((found) => found.received.includes('a 500 answer'));
      expect(serverErrors.length).toBeGreaterThan(0);
      for (const found of serverErrors) expect(found.exchange?.request.body ?? '').toMatch(/\[{65}|(\{"a":){65}/);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('generates the same cases from the same seed', async () => {
    const target = await startFakeTarget(conformingHandler());
    try {
      const sent = async (seed: number) => {
        const before = target.requests.length;
        await runChecks([fuzzCheck(40)], { ...testProfile(), target: target.url }, { seed });
        return target.requests.slice(before).map(({ method, url, body }) => `${method} ${url} ${body}`);
      };
      const first = await sent(3);
      expect(first.length).toBeGreaterThan(0);
      expect(await sent(3)).toEqual(first);
      expect(await sent(4)).not.toEqual(first);
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('waybill conformance --fuzz', () => {
  let target: FakeTarget;
  beforeEach(async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    target = await startFakeTarget(conformingHandler());
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await target.close();
  });

  /** The ids of the checks a CLI run with `extra` options reported. */
  async function reportedIds(extra: string[]): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-fuzz-'));
    writeFileSync(join(dir, 'profile.json'), JSON.stringify(testProfile()));
    await main(['--target', target.url, '--profile', join(dir, 'profile.json'), '--out', join(dir, 'out'), '--reporter', 'json', '--only', 'discovery.whoami', ...extra]);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as RunReport;
    return report.results.map((result) => result.id);
  }

  it('is off by default: not in the registry, not in a run without --fuzz', async () => {
    expect(checks.filter((check) => check.family === 'fuzz')).toEqual([]);
    expect(await reportedIds([])).not.toContain('fuzz.requests');
    expect(await reportedIds(['--fuzz', '0'])).not.toContain('fuzz.requests');
  });

  it('runs with --fuzz N and is selected by --only fuzz', async () => {
    expect(await reportedIds(['--fuzz', '20', '--only', 'fuzz'])).toContain('fuzz.requests');
    const dir = mkdtempSync(join(tmpdir(), 'waybill-fuzz-'));
    writeFileSync(join(dir, 'profile.json'), JSON.stringify(testProfile()));
    await main(['--target', target.url, '--profile', join(dir, 'profile.json'), '--out', join(dir, 'out'), '--reporter', 'json', '--only', 'fuzz', '--fuzz', '20', '--seed', '1']);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as RunReport;
    expect(report.results.map((result) => result.id)).toEqual(['fuzz.requests']);
  });
});
