/**
 * The registry of checks: every family's checks, in the order the suite lists them. A family is
 * one file of this folder, or a folder whose index.ts gathers its parts; add its array here.
 */
import type { Check } from '../engine/types/check.ts';
import { acceptanceChecks } from './acceptance/index.ts';
import { authChecks } from './auth.ts';
import { discoveryChecks } from './discovery/index.ts';
import { feedsChecks } from './feeds/index.ts';
import { httpChecks } from './http/index.ts';
import { idempotencyChecks } from './idempotency.ts';
import { problemsChecks } from './problems.ts';
import { ratelimitChecks } from './ratelimit.ts';
import { sandboxChecks } from './sandbox/index.ts';
import { writesChecks } from './writes/index.ts';

/** Every check of the suite. */
export const checks: Check[] = [...discoveryChecks, ...problemsChecks, ...idempotencyChecks, ...ratelimitChecks, ...authChecks, ...writesChecks, ...httpChecks, ...feedsChecks, ...acceptanceChecks, ...sandboxChecks];
