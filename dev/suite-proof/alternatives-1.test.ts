/** Seed-valid alternatives that decide gaps otherwise (dev/suite-proof/alternatives.ts), slice 1 of 3. */
import { describe, it } from 'vitest';
import { alternativeVariants } from './alternatives.ts';
import { expectAlternative } from './expect-variant.ts';
import { slice } from './harness.ts';

describe('the suite against seed-valid alternatives, slice 1', () => {
  it.each(slice(alternativeVariants, 0, 3))('passes %s, failing only DECISION checks under --strict', (_, variant) => expectAlternative(variant), 60_000);
});
