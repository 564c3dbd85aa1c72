import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/errors.ts';
import { failsRun } from './exit-code.ts';
import { runVerdict } from './verdict.ts';
import { type RunOptions, runSuite } from './runner.ts';
import { closedTargetUrl, type FakeTarget, startFakeTarget, testProfile } from '../../dev/testing/conformance/fake-target.ts';
import type { Check, Level } from './types/check.ts';
import type { Contract, RequirementInfo } from './types/contract.ts';

/** A register of one requirement per level, and one no exchange can test. */
const register = new Map<string, RequirementInfo>(
  (['MUST', 'SHOULD', 'DECISION'] as const).map((level) => [`r.${level.toLowerCase()}`, { id: `r.${level.toLowerCase()}`, level, source: `test.md › ${level}`, quote: `a ${level} rule`, testable: true }]),
);
register.set('r.untestable', { id: 'r.untestable', level: 'MUST', source: 'test.md › untestable', quote: 'a rule no answer shows', testable: false, reason: 'test' });
const contract: Contract = { specHash: 'test-hash', routes: [], requirements: register, coverage: () => [] };

/** A fake check verifying the test requirement of `level` (default MUST); `run` defaults to passing. */
function check(id: string, { level = 'MUST', ...extra }: Partial<Check> & { level?: Level } = {}): Check {
  return {
    id,
    family: id.split('.')[0] ?? id,
    title: `check ${id}`,
    verifies: [`r.${level.toLowerCase()}`],
    fix: `do what the rule says (r.${level.toLowerCase()})`,
    requires: [],
    run: async () => [],
    ...extra,
  };
}

const finding = { message: 'broken', expected: 'a', received: 'b' };

function run(checks: Check[], options: Partial<RunOptions> = {}) {
  return runSuite({ checks, profile: testProfile(), target: 'http://127.0.0.1:9', contract, seed: 7, ...options });
}

describe('runSuite outcomes', () => {
  it('maps returned findings, nothing, ctx.skip and throws to fail, pass, skip and error', async () => {
    const report = await run([
      check('a.pass'),
      check('a.void', { run: async () => undefined }),
      check('a.fail', { run: async () => [finding] }),
      check('a.skip', { run: async (ctx) => ctx.skip('feed is empty') }),
      check('a.error', {
        run: async () => {
          throw new TypeError('bug in the check');
        },
      }),
    ]);
    const outcome = Object.fromEntries(report.results.map((result) => [result.id, result.outcome]));
    expect(outcome).toEqual({ 'a.pass': 'pass', 'a.void': 'pass', 'a.fail': 'fail', 'a.skip': 'skip', 'a.error': 'error' });
    const error = report.results.find((result) => result.id === 'a.error')?.error;
    expect(error?.message).toBe('bug in the check');
    expect(error?.stack).toContain('TypeError: bug in the check');
    expect(report.results.find((result) => result.id === 'a.skip')?.reason).toBe('feed is empty');
    expect(report.results.find((result) => result.id === 'a.fail')?.findings).toEqual([{ ...finding, fix: 'do what the rule says (r.must)' }]);
    expect(report.counts.byOutcome).toEqual({ pass: 2, fail: 1, skip: 1, error: 1 });
  });

  it('skips a check whose requirement the profile lacks, naming the missing field, without running it', async () => {
    let ran = false;
    const report = await run(
      [
        check('a.key', { requires: ['key:ordersRead'], run: async () => void (ran = true) }),
        check('a.sandbox', { requires: ['sandbox'] }),
        check('a.feeds', { requires: ['feeds:minOrders'] }),
        check('a.pool', { requires: ['orders:cancellable:1'] }),
      ],
      { profile: { keys: { full: 'k' } } },
    );
    expect(ran).toBe(false);
    expect(report.results.map((result) => [result.outcome, result.reason])).toEqual([
      ['skip', 'profile has no keys.ordersRead'],
      ['skip', 'profile has no sandbox'],
      ['skip', 'profile has no feeds.minOrders'],
      ['skip', 'profile has no orders.cancellable'],
    ]);
  });

  it('gives each check its own pool ids, never the same id twice, and skips on shortage', async () => {
    const seen: Record<string, readonly string[]> = {};
    const taking = (id: string, pool: 'payable' | 'archivable', count: number) =>
      check(id, { requires: [`orders:${pool}:${count}`], run: async (ctx) => void (seen[id] = ctx.orders(pool)) });
    const report = await run([taking('p.one', 'payable', 2), taking('p.two', 'payable', 1), taking('p.three', 'archivable', 1), taking('p.four', 'payable', 1)]);
    const all = Object.values(seen).flat();
    expect(seen).toEqual({ 'p.one': ['ext-1', 'ext-2'], 'p.two': ['ext-3'], 'p.three': ['ext-4'] });
    expect(new Set(all).size).toBe(all.length);
    const four = report.results.find((result) => result.id === 'p.four');
    expect(four?.outcome).toBe('skip');
    expect(four?.reason).toContain('orders.payable');
  });

  it('reports an unknown precondition or a non-array return as error (a bug in the check)', async () => {
    const report = await run([
      check('a.unknown', { requires: ['key:nobody' as 'key:full'] }),
      check('a.weird', { run: async () => 'yes' as unknown as [] }),
    ]);
    expect(report.results.map((result) => result.outcome)).toEqual(['error', 'error']);
    expect(report.results[0]?.error?.message).toContain("unknown precondition 'key:nobody'");
  });

  it('turns a request without an answer into a fail carrying the exchange', async () => {
    const report = await run([check('a.down', { run: async (ctx) => void (await ctx.http.request({ method: 'GET', path: '/x' })) })], { target: await closedTargetUrl(), timeoutMs: 2000 });
    const result = report.results[0];
    expect(result?.outcome).toBe('fail');
    expect(result?.findings[0]?.exchange?.response).toBeNull();
    expect(result?.findings[0]?.received).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/x: fetch failed \(ECONNREFUSED\)/);
  });
});

describe('runSuite order and concurrency', () => {
  it('runs independent checks in a pool, then exclusive ones alone, then after-all ones that see every exchange', async () => {
    const events: string[] = [];
    let running = 0;
    let peak = 0;
    let exclusiveOverlap = false;
    const independent = (id: string) =>
      check(id, {
        run: async () => {
          running += 1;
          peak = Math.max(peak, running);
          events.push(`start ${id}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          running -= 1;
          events.push(`end ${id}`);
        },
      });
    const exclusive = (id: string) =>
      check(id, {
        exclusive: true,
        run: async () => {
          if (running !== 0) exclusiveOverlap = true;
          running += 1;
          events.push(`start ${id}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
          running -= 1;
          events.push(`end ${id}`);
        },
      });
    const report = await run(
      [
        check('z.last', { after: 'all', run: async () => void events.push('after-all') }),
        exclusive('x.one'),
        ...['c.1', 'c.2', 'c.3', 'c.4', 'c.5', 'c.6', 'c.7'].map(independent),
        exclusive('x.two'),
      ],
      { concurrency: 3 },
    );
    expect(peak).toBe(3);
    expect(exclusiveOverlap).toBe(false);
    const lastIndependentEnd = Math.max(...['c.1', 'c.2', 'c.3', 'c.4', 'c.5', 'c.6', 'c.7'].map((id) => events.indexOf(`end ${id}`)));
    expect(events.indexOf('start x.one')).toBeGreaterThan(lastIndependentEnd);
    expect(events.indexOf('start x.two')).toBe(events.indexOf('end x.one') + 1);
    expect(events.at(-1)).toBe('after-all');
    expect(report.results.map((result) => result.id)).toEqual(['z.last', 'x.one', 'c.1', 'c.2', 'c.3', 'c.4', 'c.5', 'c.6', 'c.7', 'x.two']);
    expect(report.results.find((result) => result.id === 'z.last')?.phase).toBe('after-all');
  });

  it('never runs more than --concurrency checks at once', async () => {
    let running = 0;
    let peak = 0;
    const checks = Array.from({ length: 12 }, (_, index) =>
      check(`c.${index}`, {
        run: async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5 + (index % 3) * 5));
          running -= 1;
        },
      }),
    );
    await run(checks, { concurrency: 2 });
    expect(peak).toBe(2);
  });

  describe('after-all checks see the whole exchange log', () => {
    let target: FakeTarget;
    beforeAll(async () => {
      target = await startFakeTarget((_request, response) => response.end('ok'));
    });
    afterAll(() => target.close());

    it('gets the exchanges of every other check', async () => {
      let seen: string[] = [];
      const caller = (id: string) => check(id, { run: async (ctx) => void (await ctx.http.request({ method: 'GET', path: `/${id}` })) });
      await run(
        [
          check('z.audit', { after: 'all', run: async (ctx) => void (seen = ctx.exchanges().map((exchange) => exchange.checkId)) }),
          caller('a.one'),
          caller('a.two'),
          { ...caller('x.three'), exclusive: true },
        ],
        { target: target.url },
      );
      expect(seen.sort()).toEqual(['a.one', 'a.two', 'x.three']);
    });
  });
});

describe('selection', () => {
  const checks = [
    check('feeds.cursor.opaque'),
    check('feeds.limit.cap', { level: 'SHOULD' }),
    check('payments.repeat', { level: 'DECISION' }),
    check('discovery.whoami.shape'),
  ];
  const ids = async (options: Partial<RunOptions>) => (await run(checks, options)).results.map((result) => result.id);

  it('--only takes ids, families and prefixes', async () => {
    expect(await ids({ only: ['feeds'] })).toEqual(['feeds.cursor.opaque', 'feeds.limit.cap']);
    expect(await ids({ only: ['feeds.cursor'] })).toEqual(['feeds.cursor.opaque']);
    expect(await ids({ only: ['feeds.'] })).toEqual(['feeds.cursor.opaque', 'feeds.limit.cap']);
    expect(await ids({ only: ['payments.repeat', 'discovery'] })).toEqual(['payments.repeat', 'discovery.whoami.shape']);
  });

  it('--skip removes, after --only', async () => {
    expect(await ids({ skip: ['feeds.limit.cap', 'discovery'] })).toEqual(['feeds.cursor.opaque', 'payments.repeat']);
    expect(await ids({ only: ['feeds'], skip: ['feeds.cursor.'] })).toEqual(['feeds.limit.cap']);
  });

  it('--level must keeps MUST, --level should keeps MUST and SHOULD', async () => {
    expect(await ids({ level: 'must' })).toEqual(['feeds.cursor.opaque', 'discovery.whoami.shape']);
    expect(await ids({ level: 'should' })).toEqual(['feeds.cursor.opaque', 'feeds.limit.cap', 'discovery.whoami.shape']);
  });

  it('a token that names no check is a usage error', async () => {
    await expect(run(checks, { only: ['feed'] })).rejects.toThrow(UsageError);
    await expect(run(checks, { skip: ['nope.'] })).rejects.toThrow(/--skip nope\.: matches no check/);
  });

  it('refuses two checks with the same id', async () => {
    await expect(run([check('a.b'), check('a.b')])).rejects.toThrow(/two checks share the id 'a.b'/);
  });
});

describe('exit code', () => {
  const failing = (level: Level) => check(`l.${level.toLowerCase()}`, { level, run: async () => [finding] });

  it.each([
    [[], false, 0],
    [['MUST'], false, 1],
    [['SHOULD'], false, 1],
    [['DECISION'], false, 0],
    [['DECISION'], true, 1],
  ] as [Level[], boolean, number][])('failures at %j with strict=%s exit %i', async (levels, strict, code) => {
    const report = await run([check('ok.one'), ...levels.map(failing)], { strict });
    expect(report.exitCode).toBe(code);
  });

  it('counts a non-strict DECISION failure as a warning', async () => {
    const report = await run([failing('DECISION')]);
    expect(report.counts).toMatchObject({ failing: 0, warnings: 1 });
    expect(report.results[0]?.failsRun).toBe(false);
  });

  it('is 2 when a check errored and none failed, 1 when one also failed', async () => {
    const broken = check('e.broken', {
      run: async () => {
        throw new Error('x');
      },
    });
    expect((await run([broken])).exitCode).toBe(2);
    expect((await run([broken, failing('MUST')])).exitCode).toBe(1);
  });

  it('a skip beside graded checks leaves a conformance run at 0; a run that graded nothing is INCOMPLETE (D55)', () => {
    const skip = { id: 'a.skipped', family: 'a', outcome: 'skip' as const, failsRun: false, reason: 'no sandbox' };
    const pass = { id: 'a.passed', family: 'a', outcome: 'pass' as const, failsRun: false };
    expect(runVerdict('waybill-conformance', [skip, pass])).toEqual({ verdict: 'PASS', reasons: [], exitCode: 0 });
    expect(runVerdict('waybill-conformance', [skip])).toEqual({ verdict: 'INCOMPLETE', reasons: ['a.skipped was skipped: no sandbox'], exitCode: 2 });
    expect(failsRun('SHOULD', 'fail', false)).toBe(true);
    expect(failsRun('DECISION', 'fail', false)).toBe(false);
    expect(failsRun('MUST', 'error', true)).toBe(false);
  });
});

describe('report', () => {
  it('records suite version, spec hash, seed, timings, counts by level, and the target without credentials', async () => {
    const report = await run([check('a.one'), check('a.two', { level: 'SHOULD', run: async () => [finding] })], { target: 'http://user:pw@127.0.0.1:9/', seed: 42 });
    expect(report).toMatchObject({
      reportVersion: 1,
      suite: { name: 'waybill-conformance', version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
      specHash: 'test-hash',
      seed: 42,
      target: 'http://127.0.0.1:9',
    });
    expect(report.counts.byLevel.SHOULD.fail).toBe(1);
    expect(report.counts.byLevel.MUST.pass).toBe(1);
    expect(Date.parse(report.finishedAt)).toBeGreaterThanOrEqual(Date.parse(report.startedAt));
    expect(report.results.every((result) => result.durationMs >= 0 && !Number.isNaN(Date.parse(result.startedAt)))).toBe(true);
    expect(report.profile.keys).toContain('full');
  });

  it('gives every check the same PRNG sequence for the same seed', async () => {
    const draws: number[][] = [];
    const drawing = check('r.draw', { run: async (ctx) => void draws.push([ctx.random(), ctx.random()]) });
    await run([drawing], { seed: 5 });
    await run([drawing], { seed: 5 });
    await run([drawing], { seed: 6 });
    expect(draws[0]).toEqual(draws[1]);
    expect(draws[0]).not.toEqual(draws[2]);
  });

  it('redacts a secret a check copied into a finding', async () => {
    const report = await run([check('a.leak', { run: async (ctx) => [{ message: `key ${ctx.profile.keys.full}`, expected: 'x', received: ctx.profile.keys.full }] })]);
    const text = JSON.stringify(report);
    expect(text).not.toContain(testProfile().keys.full);
    expect(report.results[0]?.findings[0]?.received).toBe('<redacted:full>');
  });

  it("gives every finding a fix sentence: its own when it brings one citing the check's rule, else the check's; one citing another rule is a bug of the suite", async () => {
    const own = { ...finding, fix: 'do exactly this (r.must)' };
    const report = await run([
      check('a.fixes', { run: async () => [finding, own] }),
      check('b.fixes', { run: async () => [{ ...finding, fix: 'do what another rule says (r.should)' }] }),
      check('c.fixes', { run: async () => [{ ...finding, fix: 'do it without saying why' }] }),
    ]);
    expect(report.results[0]?.findings.map((found) => found.fix)).toEqual(['do what the rule says (r.must)', 'do exactly this (r.must)']);
    expect(report.results.slice(1).map((result) => [result.outcome, result.error?.message])).toEqual([
      ['error', 'a finding of b.fixes has a fix sentence citing r.should, which it does not verify: "do what another rule says (r.should)"'],
      ['error', 'a finding of c.fixes has a fix sentence that cites no id at its end: "do it without saying why"'],
    ]);
  });
});

describe('requirements', () => {
  it('derives each result level from what the check verifies, and refuses a check that verifies nothing', async () => {
    const report = await run([check('a.must'), check('a.decision', { level: 'DECISION', run: async () => [finding] })]);
    expect(report.results.map((result) => [result.id, result.level, result.verifies])).toEqual([
      ['a.must', 'MUST', ['r.must']],
      ['a.decision', 'DECISION', ['r.decision']],
    ]);
    expect(report.results[0]?.rule).toBe('test.md › MUST: "a MUST rule"');
    await expect(run([check('a.none', { verifies: [] })])).rejects.toThrow(/verifies no requirement/);
  });

  it('reports every requirement of the register with the checks that verified it, seed statements first', async () => {
    const report = await run([check('a.must'), check('b.must', { run: async () => [finding] }), check('a.should', { level: 'SHOULD', run: async (ctx) => ctx.skip('no pool') })]);
    const byId = Object.fromEntries(report.requirements.entries.map((entry) => [entry.id, entry]));
    expect(report.requirements.entries.map((entry) => entry.id)).toEqual(['r.must', 'r.should', 'r.untestable', 'r.decision']);
    expect(byId['r.must']).toMatchObject({ outcome: 'fail', checks: [{ id: 'a.must', outcome: 'pass' }, { id: 'b.must', outcome: 'fail' }] });
    expect(byId['r.should']).toMatchObject({ outcome: 'skip' });
    expect(byId['r.decision']).toMatchObject({ outcome: 'untested', checks: [] });
    expect(byId['r.untestable']).toMatchObject({ outcome: 'not-testable', reason: 'test' });
    expect(report.requirements.counts.seed).toEqual({ total: 3, testable: 2, covered: 1, passed: 0, failed: 1 });
    expect(report.requirements.counts.decision).toEqual({ total: 1, testable: 1, covered: 0, passed: 0, failed: 0 });
  });
});

describe('an interrupted run (Ctrl-C, D55)', () => {
  it('starts no further check, leaves the running one, skips the rest with a reason, and is INCOMPLETE whatever it found', async () => {
    const interrupt = new AbortController();
    const started: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const report = await run(
      [
        check('a.fail', { run: async () => (started.push('a.fail'), [finding]) }),
        check('a.held', {
          run: async () => {
            started.push('a.held');
            interrupt.abort('SIGINT');
            await held;
            return [];
          },
        }),
        check('a.later', { run: async () => (started.push('a.later'), []) }),
        check('b.exclusive', { exclusive: true, run: async () => (started.push('b.exclusive'), []) }),
      ],
      { concurrency: 1, interrupt: interrupt.signal },
    );
    release();
    expect(started).toEqual(['a.fail', 'a.held']);
    const reason = Object.fromEntries(report.results.map((result) => [result.id, `${result.outcome}: ${result.reason ?? ''}`]));
    expect(reason).toEqual({
      'a.fail': 'fail: ',
      'a.held': 'skip: not finished: the run was interrupted (SIGINT) while it ran',
      'a.later': 'skip: not run: the run was interrupted (SIGINT) before it started',
      'b.exclusive': 'skip: not run: the run was interrupted (SIGINT) before it started',
    });
    expect(report.interrupted).toEqual({ signal: 'SIGINT' });
    expect(report.verdict).toEqual({ verdict: 'INCOMPLETE', reasons: ['the run was interrupted (SIGINT) after 1 of 4 checks', 'a.fail failed'] });
    expect(report.exitCode).toBe(2);
  });

  it('interrupted before it began: no check runs, each is skipped, and an uninterrupted run has no `interrupted`', async () => {
    const interrupt = new AbortController();
    interrupt.abort('SIGTERM');
    let ran = false;
    const report = await run([check('a.one', { run: async () => ((ran = true), []) })], { interrupt: interrupt.signal });
    expect(ran).toBe(false);
    expect(report.verdict.reasons[0]).toBe('the run was interrupted (SIGTERM) after 0 of 1 check');
    expect((await run([check('a.one')], { interrupt: new AbortController().signal })).interrupted).toBeUndefined();
  });
});
