/**
 * The simulation's randomness, all of it drawn from its seed (D53): a small generator
 * (sfc32) whose state is four 32-bit integers, started from a SHA-256 of the seed and a
 * label, so that the same seed always draws the same numbers.
 */
import { createHash } from 'node:crypto';

/** A uniform draw in [0, 1). */
export type Draw = () => number;

/** Four 32-bit integers from the SHA-256 of `parts`: the start of a generator. */
export function stateOf(...parts: (string | number)[]): number[] {
  const digest = createHash('sha256').update(parts.join(':')).digest();
  return [0, 4, 8, 12].map((at) => digest.readUInt32LE(at));
}

/** A 32-bit integer from the SHA-256 of `parts` (faker's seed for one change). */
export function intOf(...parts: (string | number)[]): number {
  return stateOf(...parts)[0]!;
}

/** The sfc32 generator over `state`, which it advances in place (so it can be stored and resumed). */
export function generator(state: number[]): Draw {
  return () => {
    let [a, b, c, d] = state as [number, number, number, number];
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    state[0] = a >>> 0;
    state[1] = b >>> 0;
    state[2] = c >>> 0;
    state[3] = d >>> 0;
    return (t >>> 0) / 4294967296;
  };
}

// requirement: D53
/** The draws of one change: a generator of its own, named by seed and position. */
export function changeDraws(seed: number, position: number): Draw {
  return generator(stateOf('change', seed, position));
}

/** An integer in [0, bound) from `draw`. */
export function pickInt(draw: Draw, bound: number): number {
  return Math.floor(draw() * bound);
}

/** The longest wait between two changes: a century, so that a tiny rate still gives a time that can be stored and written. */
const MAX_GAP_MS = 100 * 365.25 * 24 * 60 * 60 * 1000;

/**
 * The wait until the next change, in ms: exponential with mean one minute over
 * `changesPerMinute` (a Poisson process), at least 1 ms so that no two changes share a due time.
 */
export function gapMs(draw: Draw, changesPerMinute: number): number {
  const mean = 60_000 / changesPerMinute;
  return Math.min(MAX_GAP_MS, Math.max(1, Math.round(-Math.log(1 - draw()) * mean)));
}

/** The timeline's generator state for a simulation started with `seed`. */
export function timelineStart(seed: number): number[] {
  return stateOf('timeline', seed);
}

/**
 * How many changes fall due from `nextChangeAt` up to `toMs` inclusive, counting no further
 * than `cap + 1`; the timeline's state is left as it was.
 */
export function countDue(timeline: readonly number[], nextChangeAt: number, changesPerMinute: number, toMs: number, cap: number): number {
  const draw = generator([...timeline]);
  let due = nextChangeAt;
  let count = 0;
  while (due <= toMs && count <= cap) {
    count++;
    due += gapMs(draw, changesPerMinute);
  }
  return count;
}
