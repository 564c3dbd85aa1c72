/**
 * What the suite asks of a target before any check runs, the one way both the command and the
 * suite's own proofs do it: the preflight (an integration API that takes the full key), the
 * control plane when the profile has one, and the profile's pools read from the order feed. A
 * setup mistake is a tool or usage error; a defect of the target is a warning, and the run goes
 * on so that its checks report it.
 */
import type { Profile } from '../engine/types/profile.ts';
import { poolDemand } from '../engine/preconditions.ts';
import { defectWarning, shortageError, usablePools } from './pool-check.ts';
import { confirmControlPlane, confirmIntegrationApi, targetMismatch } from './target-check.ts';

/** Where the profile came from, for the message of pools that cannot fill the run. */
export interface ProfileSource {
  /** `the provisioned profile`, or the profile file's name. */
  name: string;
  /** True when `waybill profile refill` can refill it (a file with a control plane). */
  refillable: boolean;
}

/**
 * Confirms `target` and reads the profile's pools for the checks `selected`; resolves to the
 * profile with its pools cut to the usable ids, and the warnings to print, in order.
 */
export async function prepareTarget(target: string, profile: Profile, selected: readonly Parameters<typeof poolDemand>[0][number][], timeoutMs: number, source: ProfileSource): Promise<{ profile: Profile; warnings: string[] }> {
  const warnings: string[] = [];
  const { tenantId, defect } = await confirmIntegrationApi(target, profile, timeoutMs);
  if (defect !== undefined) warnings.push(`warning: ${defect}`);
  // After the preflight: a refused key already names the profile's target in its one line.
  const mismatch = targetMismatch(target, profile);
  if (mismatch !== null) warnings.push(mismatch);
  await confirmControlPlane(profile, tenantId, timeoutMs);
  const usable = await usablePools(target, profile, poolDemand(selected), timeoutMs);
  warnings.push(...usable.defects.map(defectWarning));
  if (usable.shortages.length > 0) throw shortageError(source.name, usable.shortages, source.refillable);
  return { profile: usable.profile, warnings };
}
