/**
 * The registry of checks: every family's checks, in the order the suite lists them. A family is
 * one file of this folder; add its array here.
 */
import type { Check } from '../types.ts';
import { discoveryChecks } from './discovery.ts';
import { problemsChecks } from './problems.ts';

/** Every check of the suite. */
export const checks: Check[] = [...discoveryChecks, ...problemsChecks];
