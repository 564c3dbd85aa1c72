/** The side-by-side measurement's arithmetic: each slice of B over the slice of A beside it, and the sides as named. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pairedRatios, parseSide } from './ab.ts';
import { cpuTotal } from './load.ts';

const checkout = fileURLToPath(new URL('../../', import.meta.url));

describe('the slices compared', () => {
  it('divides each slice of B by the slice of A beside it, and gives their median and range', () => {
    // A machine that slows down halfway: B is 0.8 of A in every pair all the same.
    expect(pairedRatios([1000, 1000, 1000, 500, 500, 500], [800, 800, 800, 400, 400, 400])).toEqual({ median: 0.8, min: 0.8, max: 0.8, pairs: 6 });
  });

  it('takes the median of the ratios, not their mean, and the lowest and highest', () => {
    expect(pairedRatios([100, 100, 100, 100], [50, 90, 100, 300])).toEqual({ median: 0.95, min: 0.5, max: 3, pairs: 4 });
  });

  it('compares only slices both sides have, and refuses none', () => {
    expect(pairedRatios([100, 100], [50, 90, 100]).pairs).toBe(2);
    expect(() => pairedRatios([], [])).toThrow(/no pair/);
  });
});

describe('a side', () => {
  it('is a server of this checkout, or of the checkout named after @', () => {
    expect(parseSide('sandbox')).toEqual({ server: 'sandbox', dir: checkout });
    expect(parseSide('sandbox-log-off@../before', '/work/main')).toEqual({ server: 'sandbox-log-off', dir: resolve('/work/main', '../before') });
    expect(parseSide('baseline@/tmp/x')).toEqual({ server: 'baseline', dir: '/tmp/x' });
  });

  it('refuses a server that is none of the three', () => {
    expect(() => parseSide('prism')).toThrow(/sandbox, sandbox-log-off, baseline/);
    expect(() => parseSide('sandbox-log@.')).toThrow(/not sandbox-log@\./);
  });
});

describe('a slice\'s CPU a request', () => {
  it('is the server\'s process and the database\'s together, the event loop being part of the process', () => {
    expect(cpuTotal({ process: 30, eventLoop: 25, database: null })).toBe(30);
    expect(cpuTotal({ process: 180, eventLoop: 90, database: 110 })).toBe(290);
  });

  it('is unknown without /proc', () => {
    expect(cpuTotal({ process: null, eventLoop: null, database: 40 })).toBeNull();
  });
});
