/** A tenant's lifecycle (D22, D31): Active ⇄ Suspended, either → Archived, which is terminal. */
import type { TenantState } from './store.ts';
import { refuse } from '../domain/refusal.ts';

/** A move of the lifecycle, as the control plane names it. */
export type LifecycleMove = 'suspend' | 'reactivate' | 'archive';

const targets: Record<LifecycleMove, TenantState> = { suspend: 'Suspended', reactivate: 'Active', archive: 'Archived' };

// requirement: cat.tenants.archived
// requirement: D31
/** The state after `move`; a move to the current state is allowed and changes nothing. An Archived tenant cannot move. */
export function nextState(state: TenantState, move: LifecycleMove): TenantState {
  if (state === 'Archived') refuse('tenants.tenant.archived', 'Tenant is archived (terminal); it cannot be suspended, reactivated or archived again.');
  return targets[move];
}

// requirement: cat.tenants.suspended
// requirement: cat.tenants.archived
// requirement: D22
/** Refuses a write to the data of a Suspended or Archived tenant (D22, D31). */
export function assertWritable(state: TenantState): void {
  if (state === 'Suspended') refuse('tenants.tenant.suspended', 'Tenant is suspended and read-only; mutating requests are refused until reactivated.');
  if (state === 'Archived') refuse('tenants.tenant.archived', 'Tenant is archived (terminal); all writes are blocked.');
}
