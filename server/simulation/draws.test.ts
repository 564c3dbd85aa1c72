/** The simulation's draws (D53): reproducible, resumable from a stored state, and a Poisson pace. */
import { describe, expect, it } from 'vitest';
import { changeDraws, countDue, gapMs, generator, timelineStart } from './draws.ts';

describe('the draws of the simulation', () => {
  it('draws the same numbers from the same seed and position, and others from another', () => {
    const take = (draw: () => number) => Array.from({ length: 5 }, draw);
    expect(take(changeDraws(7, 3))).toEqual(take(changeDraws(7, 3)));
    expect(take(changeDraws(7, 3))).not.toEqual(take(changeDraws(7, 4)));
    expect(take(changeDraws(7, 3))).not.toEqual(take(changeDraws(8, 3)));
    expect(take(changeDraws(7, 3)).every((u) => u >= 0 && u < 1)).toBe(true);
  });

  it('resumes a generator from its stored state as if it had never stopped', () => {
    const unbroken = generator(timelineStart(9));
    const expected = Array.from({ length: 20 }, unbroken);
    const state = timelineStart(9);
    const first = generator(state);
    const head = Array.from({ length: 8 }, first);
    const stored: number[] = JSON.parse(JSON.stringify(state));
    const tail = Array.from({ length: 12 }, generator(stored));
    expect([...head, ...tail]).toEqual(expected);
  });

  it('waits one minute over the rate on average, with the spread of an exponential', () => {
    const draw = generator(timelineStart(1));
    const gaps = Array.from({ length: 20_000 }, () => gapMs(draw, 6));
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    // The mean of 20,000 exponential waits of mean 10 s is within 5 standard errors (10 s / √20,000) of it.
    expect(Math.abs(mean - 10_000)).toBeLessThan((5 * 10_000) / Math.sqrt(gaps.length));
    const sd = Math.sqrt(gaps.reduce((sum, gap) => sum + (gap - mean) ** 2, 0) / gaps.length);
    expect(Math.abs(sd - 10_000)).toBeLessThan(500);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1);
  });

  it('counts the changes due by a time without moving the timeline, and stops counting past the cap', () => {
    const state = timelineStart(4);
    const before = [...state];
    const start = 1_000_000;
    const due = countDue(state, start, 60, start + 3_600_000, 100_000);
    expect(state).toEqual(before);
    expect(Math.abs(due - 3600)).toBeLessThan(300);
    expect(countDue(state, start, 600, start + 366 * 24 * 3_600_000, 100_000)).toBe(100_001);
    expect(countDue(state, start, 60, start - 1, 100_000)).toBe(0);
    // The count matches the times the generator then gives.
    const draw = generator([...state]);
    let at = start;
    let made = 0;
    while (at <= start + 3_600_000) {
      made++;
      at += gapMs(draw, 60);
    }
    expect(made).toBe(due);
  });
});
