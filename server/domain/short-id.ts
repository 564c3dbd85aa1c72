/** Short human-readable codes operators use (`ORD-7K2M9`, `TRP-4KX9P`): five characters without look-alikes. */
import { randomInt } from 'node:crypto';

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * Ids a caller chooses for what it creates, instead of random ones: the simulation draws
 * them from its seed so that the same seed gives the same feed (D53).
 */
export interface ChosenIds {
  id: string;
  /** The ids of an order's lines, in line order. */
  lineIds?: readonly string[];
  /** Draws an integer in [0, bound) for the short id's characters. */
  pick: (bound: number) => number;
}

// requirement: int.order.shortId
/**
 * A fresh `<prefix>-XXXXX` code that `taken` does not report as used; `pick` draws its
 * characters (random by default). `taken` asks the database, a step of the caller's unit of
 * work: this is a generator of the steps `taken` yields.
 */
export function* newShortId<S>(prefix: string, taken: (code: string) => Generator<S, boolean, unknown>, pick: (bound: number) => number = randomInt): Generator<S, string, unknown> {
  for (let attempt = 0; attempt < 50; attempt++) {
    let code = `${prefix}-`;
    for (let i = 0; i < 5; i++) code += ALPHABET[pick(ALPHABET.length)];
    if (!(yield* taken(code))) return code;
  }
  throw new Error(`no free ${prefix} short id after 50 attempts`);
}
