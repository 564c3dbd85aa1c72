/**
 * Deliberately broken variants of the reference: each breaks the seed requirements it names
 * (MUST or SHOULD) and must fail exactly the checks it lists. Together they break every
 * testable seed requirement of the register at least once (matrix.test.ts holds them to it).
 * The variants live in broken-*.ts by what they break; the slices run them in this order.
 */
import { brokenAcceptance } from './broken-acceptance.ts';
import { brokenErrors } from './broken-errors.ts';
import { brokenFeeds } from './broken-feeds.ts';
import { brokenResources } from './broken-resources.ts';
import { brokenWrites } from './broken-writes.ts';
import type { BrokenVariant } from './harness.ts';

/** Every broken variant, by name. */
export const brokenVariants: Record<string, BrokenVariant> = { ...brokenResources, ...brokenErrors, ...brokenWrites, ...brokenFeeds, ...brokenAcceptance };
