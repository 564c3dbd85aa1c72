/**
 * How every command words a control plane that refuses the admin token (`conformance
 * --provision`, `profile refill`, the run's clean-up, `client-check --target`): one sentence,
 * so the same mistake reads the same wherever it is made.
 */
import { WaybillError } from './errors.ts';

/** The tool error for a 401 from the control plane at `where` (`--target URL`, `profile.json sandbox URL`). */
export function adminTokenRefused(where: string): WaybillError {
  return new WaybillError(`${where}: its control plane refused the admin token (401); give the token that sandbox printed`, 'tool');
}
