/** The suite-proof matrix, slice 4 of 4: deliberately broken references (dev/suite-proof/broken.ts). */
import { describe, it } from 'vitest';
import { brokenVariants } from './broken.ts';
import { expectBroken } from './expect-variant.ts';
import { slice } from './harness.ts';

describe('the suite against broken references, slice 4', () => {
  it.each(slice(brokenVariants, 3, 4))('catches %s, with exactly the checks meant for it', (_, variant) => expectBroken(variant), 60_000);
});
