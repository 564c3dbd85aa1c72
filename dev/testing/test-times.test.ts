/** `npm run test:times`: its own options taken out of vitest's, and the tables it prints from a run's times. */
import { describe, expect, it } from 'vitest';
import { type MeasuredRun, parseOptions, timesReport } from './test-times.ts';

const run: MeasuredRun = {
  wallMs: 10_000,
  files: [
    { file: 'a.test.ts', project: 'main', ms: 6000, tests: 3, failed: false },
    { file: 'b.test.ts', project: 'postgres', ms: 9000, tests: 1, failed: true },
    { file: 'c.test.ts', project: 'main', ms: 1000, tests: 2, failed: false },
  ],
  tests: [
    { file: 'a.test.ts', project: 'main', name: 'a one', ms: 5000 },
    { file: 'b.test.ts', project: 'postgres', name: 'b one', ms: 8000 },
  ],
  starts: [
    { kind: 'sandbox', file: 'a.test.ts', project: 'main', ms: 30 },
    { kind: 'sandbox', file: 'c.test.ts', project: 'main', ms: 50 },
    { kind: 'postgres cluster', file: null, project: null, ms: 2500 },
  ],
};

describe('the report', () => {
  it('gives the wall time, and how many files ran at once from the sum of their times', () => {
    expect(timesReport(run)[0]).toBe("wall time 10.0 s: 3 files, 6 tests; the files' own times sum to 16.0 s, 1.60 files at once on average");
  });

  it('lists the slowest files and tests first, at most `top` of each, naming a failed file and another project', () => {
    const lines = timesReport(run, 2);
    const files = lines.indexOf('slowest 2 files (s, tests, project, file)');
    expect(lines.slice(files + 1, files + 3)).toEqual(['     9.0     1  postgres  b.test.ts  (failed)', '     6.0     3  main      a.test.ts']);
    const tests = lines.indexOf('slowest 2 tests (s, file › test)');
    expect(lines.slice(tests + 1, tests + 3)).toEqual(['     8.0  b.test.ts [postgres] › b one', '     5.0  a.test.ts › a one']);
  });

  it('sums the starts by kind, most time first, with the files that spent most and the global setup by that name', () => {
    const lines = timesReport(run);
    const starts = lines.findIndex((line) => line.startsWith('starts'));
    expect(lines.slice(starts + 1)).toEqual([
      '  postgres cluster          1     2.5   2500   2500   (global setup) 2.5 s',
      '  sandbox                   2     0.1     40     50   c.test.ts 0.1 s, a.test.ts 0.0 s',
    ]);
    expect(timesReport({ ...run, starts: [] }).at(-1)).toBe('  none recorded');
  });
});

describe('the options', () => {
  it('takes --from, --keep and --top, and passes everything else to vitest in order', () => {
    expect(parseOptions(['server/orders', '--top', '5', '-t', 'a payment', '--keep', '/tmp/x'])).toEqual({ top: 5, keep: '/tmp/x', vitestArgs: ['server/orders', '-t', 'a payment'] });
    expect(() => parseOptions(['--from'])).toThrow('--from needs a value');
  });
});
