/**
 * Sandbox: every catalog code the control plane answers (`reach: sandbox` in spec/errors.yaml,
 * spec/sandbox.yaml, decisions D30–D44), produced in tenants each check builds for itself, the
 * decisions on the plane itself (its access, profiles, request log and lists: D30, D39, D48,
 * D87), and an archived tenant's integration writes (D22). Skipped when the profile has no sandbox.
 */
import type { Check } from '../../engine/types/check.ts';
import { sandboxDirectoryChecks } from './directory.ts';
import { sandboxListChecks } from './lists.ts';
import { sandboxOrderChecks } from './orders.ts';
import { sandboxPlaneChecks } from './plane.ts';
import { sandboxTenantChecks } from './tenants.ts';
import { sandboxTripChecks } from './trips.ts';

/** The sandbox family, in the order it runs. */
export const sandboxChecks: Check[] = [...sandboxPlaneChecks, ...sandboxTenantChecks, ...sandboxDirectoryChecks, ...sandboxOrderChecks, ...sandboxTripChecks, ...sandboxListChecks];
