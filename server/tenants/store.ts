/** Tenants: lifecycle state and the per-tenant stamp clock of D7. */
import { randomUUID } from 'node:crypto';
import type { components } from '../../spec/sandbox-types.ts';
import { type Clock, type TenantClock, utc } from '../domain/time.ts';
import type { Db } from '../store/db.ts';

/** A tenant's lifecycle state (`TenantState` of spec/sandbox.yaml, D22). */
export type TenantState = components['schemas']['TenantState'];

/** A tenant as the store keeps it and the control plane shows it (`Tenant`). */
export type Tenant = components['schemas']['Tenant'];

interface TenantRow {
  id: string;
  name: string;
  country: string;
  state: TenantState;
  skills: string;
  created_at: string;
}

const toTenant = (row: TenantRow): Tenant => ({
  id: row.id,
  name: row.name,
  country: row.country,
  state: row.state,
  skills: JSON.parse(row.skills) as string[],
  createdAtUtc: row.created_at,
});

/**
 * Tenant statements, prepared once. A tenant is created at the wall time `clock`; its
 * stamps follow its own clock `tenantClock` (D52).
 */
export function makeTenants(db: Db, clock: Clock, tenantClock: TenantClock = () => clock()) {
  const insert = db.prepare('INSERT INTO tenants (id, name, country, created_at, clock) VALUES (?, ?, ?, ?, ?)');
  const byId = db.prepare<[string], TenantRow>('SELECT * FROM tenants WHERE id = ?');
  const all = db.prepare<[], TenantRow>('SELECT * FROM tenants ORDER BY created_at, id');
  const setState = db.prepare('UPDATE tenants SET state = ? WHERE id = ?');
  const setSkills = db.prepare('UPDATE tenants SET skills = ? WHERE id = ?');
  const advanceClock = db.prepare<[number, string], { clock: number }>(
    'UPDATE tenants SET clock = max(?, clock + 1) WHERE id = ? RETURNING clock',
  );
  const raiseClock = db.prepare('UPDATE tenants SET clock = max(clock, ?) WHERE id = ?');

  return {
    // requirement: D31
    /** Creates an Active tenant and returns it. */
    create(input: { name: string; country: string; id?: string }): Tenant {
      const id = input.id ?? randomUUID();
      insert.run(id, input.name, input.country, utc(clock()), 0);
      return toTenant(byId.get(id)!);
    },
    /** The tenant with `id`, or undefined. */
    get(id: string): Tenant | undefined {
      const row = byId.get(id);
      return row && toTenant(row);
    },
    /** Every tenant, oldest first. */
    list(): Tenant[] {
      return all.all().map(toTenant);
    },
    /** Moves the tenant to `state`. */
    setState(id: string, state: TenantState): void {
      setState.run(state, id);
    },
    /** Replaces the tenant's capability skills. */
    setSkills(id: string, skills: string[]): void {
      setSkills.run(JSON.stringify(skills), id);
    },
    // requirement: int.orders-feed.follows-changes
    // requirement: int.order.updatedAtUtc
    // requirement: D7
    /**
     * The `updatedAtUtc` stamp of a write transaction in the tenant (D7): the later of now
     * and one millisecond past the newest stamp issued, so stamps strictly increase.
     * Call inside the write's transaction.
     */
    nextStamp(tenantId: string): string {
      const row = advanceClock.get(tenantClock(tenantId), tenantId);
      if (row === undefined) throw new Error(`no tenant ${tenantId}`);
      return utc(row.clock);
    },
    /** Makes sure later stamps come after `stamp` (used when importing data with its own stamps). */
    observeStamp(tenantId: string, stamp: string): void {
      raiseClock.run(Date.parse(stamp), tenantId);
    },
  };
}

export type Tenants = ReturnType<typeof makeTenants>;
