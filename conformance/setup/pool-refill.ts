/**
 * `waybill profile refill`: tops a saved profile's pools up to their sizes again through the
 * target's control plane (`spec/sandbox.yaml`) and nothing else, so it works against any
 * sandbox of the contract. Ids still in their pool's state stay; the rest are replaced by
 * orders taken in for the purpose and, for `onTrip` and `notCancellable`, moved on by trips
 * built, started and delivered as a driver would (D67).
 */
import { randomBytes } from 'node:crypto';
import { adminTokenRefused } from '../../cli/admin-token-refused.ts';
import { UsageError, WaybillError } from '../../cli/errors.ts';
import { intake } from '../checks/support/control-plane.ts';
import type { PoolName, Profile } from '../engine/types/profile.ts';
import { objectBody, problemTypeOf, send, type SetupRequest } from './http.ts';
import { POOL_STATES, readOrderStates } from './pool-check.ts';
import { confirmIntegrationApi } from './target-check.ts';

/** What a refill did to one pool. */
export interface PoolRefill {
  pool: PoolName;
  kept: number;
  added: number;
}

/** The most rows one import takes (D37). */
const IMPORT_ROWS = 1000;

/** A control-plane session on the profile's sandbox: `need` sends, and anything but 2xx ends the refill with a tool error. */
function controlPlane(sandbox: NonNullable<Profile['sandbox']>, source: string, timeoutMs: number) {
  const base = sandbox.url.replace(/\/+$/, '');
  const where = `${source} sandbox ${base}`;
  return async function need(what: string, path: string, request: SetupRequest = {}): Promise<Record<string, unknown>> {
    const answer = await send(`${base}${path}`, { ...request, headers: { authorization: `Bearer ${sandbox.token}` } }, timeoutMs, `${what}: cannot reach ${where}`);
    if (answer.status >= 200 && answer.status < 300) return objectBody(answer) ?? {};
    if (answer.status === 401) throw adminTokenRefused(where);
    const type = (objectBody(answer)?.['type'] as string | undefined) ?? '';
    if (type === 'tenants.tenant.archived' || type === 'tenants.tenant.suspended') {
      throw new WaybillError(`${what}: the profile's tenant is ${type.split('.').pop()} (${where} answered ${answer.status}), so its pools cannot be refilled; provision a new profile with --provision --save-profile FILE`, 'tool');
    }
    throw new WaybillError(`${what}: ${where} answered ${answer.status}${problemTypeOf(answer)}`, 'tool');
  };
}

type Need = ReturnType<typeof controlPlane>;

/** Takes in one Delivery order per external id in `tenantPath`; resolves to the order id of each external id. */
async function takeIn(need: Need, tenantPath: string, externalIds: readonly string[]): Promise<Map<string, string>> {
  const orderIds = new Map<string, string>();
  for (let start = 0; start < externalIds.length; start += IMPORT_ROWS) {
    const rows = externalIds.slice(start, start + IMPORT_ROWS).map((externalId) => intake(externalId));
    const result = await need(`taking in ${rows.length} orders`, `${tenantPath}/order-imports`, { method: 'POST', body: { rows } });
    for (const row of Array.isArray(result['rows']) ? (result['rows'] as Record<string, unknown>[]) : []) {
      if (typeof row['orderId'] !== 'string') throw new WaybillError(`taking in order ${String(row['externalId'])}: refused (${String(row['type'])}: ${String(row['detail'])})`, 'tool');
      orderIds.set(String(row['externalId']), row['orderId']);
    }
  }
  const missing = externalIds.filter((externalId) => !orderIds.has(externalId));
  if (missing.length > 0) throw new WaybillError(`taking in orders: the import answered no order for ${missing.slice(0, 3).join(', ')}`, 'tool');
  return orderIds;
}

/** Builds a trip of `orderIds` (they become Planned); started, they become InProgress; `deliver` stops are then delivered in full. */
async function trip(need: Need, tenantPath: string, orderIds: readonly string[], options: { start: boolean; deliver?: number }): Promise<void> {
  if (orderIds.length === 0) return;
  const built = await need('building a trip', `${tenantPath}/trips`, { method: 'POST', body: { orderIds } });
  const path = `${tenantPath}/trips/${encodeURIComponent(String(built['id']))}`;
  if (!options.start) return;
  await need('starting the trip', `${path}/start`, { method: 'POST' });
  // intake() makes one line of quantity 2: delivering both ends a Delivery as FullyDelivered.
  for (let stop = 0; stop < (options.deliver ?? 0); stop += 1) {
    await need(`delivering stop ${stop}`, `${path}/stops/${stop}/outcome`, { method: 'POST', body: { status: 'Completed', lines: [{ line: 0, delivered: 2 }] } });
  }
}

/**
 * Refills every pool of `profile` (read from `source`) to its size and resolves to the
 * profile with the new pools and what was done per pool. Needs the profile's `target` and
 * `sandbox`.
 */
export async function refillPools(profile: Profile, source: string, timeoutMs: number): Promise<{ profile: Profile; refills: PoolRefill[] }> {
  const { target, sandbox } = profile;
  if (target === undefined) throw new UsageError(`${source}: the profile names no target, so there is nothing to refill at`);
  if (sandbox === undefined) throw new UsageError(`${source}: the profile has no sandbox, so its pools cannot be refilled through a control plane; give fresh external ids in them by hand`);
  const base = target.replace(/\/+$/, '');
  const need = controlPlane(sandbox, source, timeoutMs);
  const tenantOf = async (key: 'full' | 'otherTenant') => {
    const secret = profile.keys[key];
    const where = `${source} target ${base} (the ${key} key)`;
    const { tenantId } = await confirmIntegrationApi(base, { ...profile, keys: { ...profile.keys, full: secret as string } }, timeoutMs, where);
    if (tenantId === undefined) throw new WaybillError(`${where}: whoami names no tenantId`, 'tool');
    return `/tenants/${encodeURIComponent(tenantId)}`;
  };
  const suffix = randomBytes(4).toString('hex');
  let serial = 0;
  const freshIds = (count: number) => Array.from({ length: count }, () => `WB-REFILL-${suffix}-${++serial}`);

  const pools = Object.entries(profile.orders ?? {}) as [PoolName, string[]][];
  const orders: Partial<Record<PoolName, string[]>> = {};
  const refills: PoolRefill[] = [];
  const states = new Map<string, Awaited<ReturnType<typeof readOrderStates>>>();
  for (const [pool, ids] of pools) {
    const { key, qualifies } = POOL_STATES[pool];
    if (profile.keys[key] === undefined) {
      orders[pool] = ids;
      continue;
    }
    if (!states.has(key)) states.set(key, await readOrderStates(base, profile, key, timeoutMs));
    const known = states.get(key);
    if (known === null || known === undefined || 'refused' in known) throw new WaybillError(`${source}: the order feed of the ${key} key at ${base} cannot be read, so the pools' states are unknown`, 'tool');
    // An order whose item breaks the contract is in no state the checks can rely on: it is replaced.
    const kept = ids.filter((id) => {
      const state = known.states.get(id);
      return state !== undefined && state.breach === undefined && qualifies(state);
    });
    const added = freshIds(ids.length - kept.length);
    orders[pool] = [...kept, ...added];
    refills.push({ pool, kept: kept.length, added: added.length });
  }

  const added = (pool: PoolName) => (orders[pool] ?? []).slice(refills.find((refill) => refill.pool === pool)?.kept ?? 0);
  const mainPools: PoolName[] = ['payable', 'cancellable', 'notCancellable', 'archivable', 'onTrip'];
  const mainIds = mainPools.flatMap(added);
  if (mainIds.length > 0) {
    const tenant = await tenantOf('full');
    const orderIds = await takeIn(need, tenant, mainIds);
    const idsOf = (pool: PoolName) => added(pool).map((externalId) => orderIds.get(externalId)!);
    // onTrip: half Planned (a confirmed trip), half InProgress (a started one); notCancellable:
    // on one started trip, half delivered (an end status of the seeds), half still under way.
    const onTrip = idsOf('onTrip');
    const planned = Math.ceil(onTrip.length / 2);
    await trip(need, tenant, onTrip.slice(0, planned), { start: false });
    await trip(need, tenant, onTrip.slice(planned), { start: true });
    const ending = idsOf('notCancellable');
    await trip(need, tenant, ending, { start: true, deliver: Math.ceil(ending.length / 2) });
  }
  const otherIds = added('otherTenant');
  if (otherIds.length > 0) await takeIn(need, await tenantOf('otherTenant'), otherIds);
  return { profile: { ...profile, orders }, refills };
}
