/**
 * A run cleans up after itself (D68): once it ends, the tenants it created through the
 * control plane — those its checks made, and a provisioned profile's unless the profile was
 * saved for another run — are archived, so a sandbox's tenant list does not fill with
 * "waybill conformance" tenants. `--keep-tenants` keeps them all.
 */
import { adminTokenRefused } from '../../cli/admin-token-refused.ts';
import type { ExchangeRecord } from '../engine/types/exchange.ts';
import type { Profile } from '../engine/types/profile.ts';
import { objectBody, send } from './http.ts';
import { confirmIntegrationApi } from './target-check.ts';

/** The ids of the tenants the run's own requests created: 201 answers to `POST {sandbox}/tenants`. */
export function tenantsCreatedBy(exchanges: readonly ExchangeRecord[], sandboxUrl: string): string[] {
  const created = `${sandboxUrl.replace(/\/+$/, '')}/tenants`;
  const ids: string[] = [];
  for (const exchange of exchanges) {
    const { request, response } = exchange;
    if (exchange.channel !== 'sandbox' || request.method !== 'POST' || request.url.split('?')[0] !== created || response?.status !== 201) continue;
    try {
      const id = (JSON.parse(response.body ?? '') as { id?: unknown }).id;
      if (typeof id === 'string') ids.push(id);
    } catch {
      // A created tenant whose answer is not JSON has no id to archive.
    }
  }
  return ids;
}

/** The tenants of a profile's keys (full, otherTenant, suspendedTenant), as whoami names them. */
export async function profileTenants(target: string, profile: Profile, timeoutMs: number): Promise<string[]> {
  const ids = new Set<string>();
  for (const key of ['full', 'otherTenant', 'suspendedTenant'] as const) {
    const secret = profile.keys[key];
    if (secret === undefined) continue;
    const { tenantId } = await confirmIntegrationApi(target, { ...profile, keys: { ...profile.keys, full: secret } }, timeoutMs);
    if (tenantId !== undefined) ids.add(tenantId);
  }
  return [...ids];
}

/**
 * Archives each tenant through the profile's control plane; one already archived counts as
 * archived. Resolves to how many are archived and the ids that could not be, with why.
 */
export async function archiveTenants(sandbox: NonNullable<Profile['sandbox']>, tenantIds: readonly string[], timeoutMs: number): Promise<{ archived: number; failed: string[] }> {
  const base = sandbox.url.replace(/\/+$/, '');
  let archived = 0;
  const failed: string[] = [];
  for (const id of new Set(tenantIds)) {
    const answer = await send(`${base}/tenants/${encodeURIComponent(id)}/archive`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.token}` } }, timeoutMs, `archiving tenant ${id}: cannot reach the sandbox ${base}`);
    if (answer.status === 401) throw adminTokenRefused(`the profile's sandbox ${base}`);
    if (answer.status === 200 || objectBody(answer)?.['type'] === 'tenants.tenant.archived') archived += 1;
    else failed.push(`${id} (${answer.status})`);
  }
  return { archived, failed };
}
