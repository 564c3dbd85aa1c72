/**
 * The draws of fault rules (D51): a number in [0, 1) that depends only on the rule's seed,
 * the call's place among the rule's matching calls, and which draw of that call it is, so
 * that the same calls fire again on a rerun. Two rounds of MurmurHash3's 32-bit finaliser.
 */

/** MurmurHash3's finaliser: every input bit moves about half of the output bits. */
function mix(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Which draw of a call: whether the rule fires, and the wait of a latency range. */
export const DRAW = { fire: 1, latency: 2 } as const;

/** The `stream`-th draw of the `n`-th matching call (0-based) of a rule seeded `seed`, in [0, 1). */
export function draw(seed: number, n: number, stream: number): number {
  const high = Math.floor(n / 2 ** 32);
  const h = mix(mix(mix(seed ^ 0x9e3779b9) ^ (n >>> 0)) ^ mix(high + Math.imul(stream, 0x27d4eb2d)));
  return h / 2 ** 32;
}

/** A whole number of ms drawn uniformly from `min` to `max`, both included. */
export function drawBetween(min: number, max: number, unit: number): number {
  return min + Math.min(max - min, Math.floor(unit * (max - min + 1)));
}
