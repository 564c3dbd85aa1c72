/**
 * The suite-proof in `npm test`: of every family of broken variants (each `broken-<family>.ts`:
 * resources, errors, writes, feeds, …) one variant for each way its members break the reference
 * (a wrapped store, a proxy, an answer rewritten in the server, …), and of the seed-valid
 * alternatives one for each way they are made — each held to its lists exactly as the full matrix
 * holds it. The first variant of each such class is its representative, so a family or a way that
 * a new variant opens is represented at once. The full gate (`npm run test:all`) runs every
 * variant instead (broken-*.test.ts and alternatives-*.test.ts) and leaves this file out.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { alternativeVariants } from './alternatives.ts';
import { brokenVariants } from './broken.ts';
import { expectAlternative, expectBroken } from './expect-variant.ts';
import type { Breakage, BrokenVariant } from './harness.ts';

/** A variant's time limit: the slices' 60 s, doubled, as two run at once here. */
const VARIANT_TIMEOUT_MS = 120_000;

/** How a variant changes the reference: the parts of its breakage it has, in a fixed order (`proxy+answer`). */
const wayOf = (variant: Breakage) => (['wrapStore', 'proxy', 'answer', 'server', 'rawRefuse'] as const).filter((part) => variant[part] !== undefined).join('+');

/** The first variant of `variants` for each way of changing the reference, as `it.each` rows. */
function firstOfEachWay<V extends Breakage>(family: string, variants: Record<string, V>): [string, V][] {
  const firsts = new Map<string, [string, V]>();
  for (const [name, variant] of Object.entries(variants)) if (!firsts.has(wayOf(variant))) firsts.set(wayOf(variant), [`${family} by ${wayOf(variant)}: ${name}`, variant]);
  return [...firsts.values()];
}

/** The families of broken variants, by the name of their file (`broken-writes.ts` is `writes`). */
const families: Record<string, Record<string, BrokenVariant>> = Object.fromEntries(
  await Promise.all(
    readdirSync(new URL('.', import.meta.url))
      .filter((name) => /^broken-[a-z][a-z-]*\.ts$/.test(name))
      .sort()
      .map(async (name) => [name.slice('broken-'.length, -'.ts'.length), Object.assign({}, ...Object.values(await import(`./${name}`)))]),
  ),
);
const broken = Object.entries(families).flatMap(([family, variants]) => firstOfEachWay(family, variants));
const alternatives = firstOfEachWay('alternative', alternativeVariants);

describe('the representatives', () => {
  it('are drawn from every broken variant and every alternative the full matrix runs', () => {
    expect(Object.values(families).flatMap((variants) => Object.keys(variants)).sort()).toEqual(Object.keys(brokenVariants).sort());
    expect(broken.length).toBeGreaterThanOrEqual(Object.keys(families).length);
    expect(new Set(alternatives.map(([, variant]) => wayOf(variant))).size).toBe(new Set(Object.values(alternativeVariants).map(wayOf)).size);
  });
});

describe('the suite against a broken reference of each family and way', () => {
  it.concurrent.each(broken)('catches %s, with exactly the checks meant for it', (_, variant) => expectBroken(variant), VARIANT_TIMEOUT_MS);
});

describe('the suite against a seed-valid alternative of each way', () => {
  it.concurrent.each(alternatives)('passes %s, failing only DECISION checks under --strict', (_, variant) => expectAlternative(variant), VARIANT_TIMEOUT_MS);
});
