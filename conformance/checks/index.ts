/**
 * The registry of checks: every family's checks, in the order the suite lists them. A family is
 * one file of this folder; add its array here.
 */
import type { Check } from '../types.ts';
import { authChecks } from './auth.ts';
import { discoveryChecks } from './discovery.ts';
import { feedsChecks } from './feeds.ts';
import { httpChecks } from './http.ts';
import { idempotencyChecks } from './idempotency.ts';
import { problemsChecks } from './problems.ts';
import { ratelimitChecks } from './ratelimit.ts';
import { sandboxChecks } from './sandbox.ts';
import { writesChecks } from './writes.ts';

/** Every check of the suite. */
export const checks: Check[] = [...discoveryChecks, ...problemsChecks, ...idempotencyChecks, ...ratelimitChecks, ...authChecks, ...writesChecks, ...httpChecks, ...feedsChecks, ...sandboxChecks];
