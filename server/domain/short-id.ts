/** Short human-readable codes operators use (`ORD-7K2M9`, `TRP-4KX9P`): five characters without look-alikes. */
import { randomInt } from 'node:crypto';

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** A fresh `<prefix>-XXXXX` code that `taken` does not report as used. */
export function newShortId(prefix: string, taken: (code: string) => boolean): string {
  for (let attempt = 0; attempt < 50; attempt++) {
    let code = `${prefix}-`;
    for (let i = 0; i < 5; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    if (!taken(code)) return code;
  }
  throw new Error(`no free ${prefix} short id after 50 attempts`);
}
