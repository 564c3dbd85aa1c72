/** Tenants: lifecycle state and the per-tenant stamp clock of D7. */
import { randomUUID } from 'node:crypto';
import type { components } from '../../spec/sandbox-types.ts';
import { type Clock, type TenantClock, utc } from '../domain/time.ts';
import { greatest, portable } from '../store/dialect.ts';
import { q, type Sql, statement, type Steps } from '../store/sql.ts';

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

const COLUMNS = 'id, name, country, state, skills, created_at';
const INSERT = statement('INSERT INTO tenants (id, name, country, created_at, clock) VALUES (?, ?, ?, ?, ?)');
const BY_ID = statement(`SELECT ${COLUMNS} FROM tenants WHERE id = ?`);
const ALL = statement(`SELECT ${COLUMNS} FROM tenants ORDER BY created_at, id`);
const SET_STATE = statement('UPDATE tenants SET state = ? WHERE id = ?');
const SET_SKILLS = statement('UPDATE tenants SET skills = ? WHERE id = ?');
const ADVANCE_CLOCK = portable`UPDATE tenants SET clock = ${greatest('CAST(? AS bigint)', 'clock + 1')} WHERE id = ? RETURNING clock`;
const RAISE_CLOCK = portable`UPDATE tenants SET clock = ${greatest('clock', 'CAST(? AS bigint)')} WHERE id = ?`;

/**
 * The tenants over `sql`. A tenant is created at the wall time `clock`; its stamps follow
 * its own clock `tenantClock` (D52). `changed` hears of every change to a tenant's state
 * once it is committed (the key cache, whose keys carry it).
 */
export function makeTenants(sql: Sql, clock: Clock, tenantClock: TenantClock = () => clock(), changed: (tenantId: string) => void = () => {}) {
  const steps = {
    /** The tenant with `id`, or undefined. */
    *get(id: string): Steps<Tenant | undefined> {
      const row = yield* q.one<TenantRow>(BY_ID, [id]);
      return row && toTenant(row);
    },
    // requirement: D31
    /** Creates an Active tenant and returns it. */
    *create(input: { name: string; country: string; id?: string }): Steps<Tenant> {
      const id = input.id ?? randomUUID();
      yield* q.run(INSERT, [id, input.name, input.country, utc(clock()), 0]);
      return toTenant((yield* q.one<TenantRow>(BY_ID, [id]))!);
    },
    /** Moves the tenant to `state` (tell `changed` once it commits). */
    *setState(id: string, state: TenantState): Steps<void> {
      yield* q.run(SET_STATE, [state, id]);
    },
    // requirement: int.orders-feed.follows-changes
    // requirement: int.order.updatedAtUtc
    // requirement: D7
    /**
     * The `updatedAtUtc` stamp of a write transaction in the tenant (D7): the later of now
     * and one millisecond past the newest stamp issued, so stamps strictly increase.
     */
    *nextStamp(tenantId: string): Steps<string> {
      const row = yield* q.one<{ clock: number }>(ADVANCE_CLOCK, [tenantClock(tenantId), tenantId]);
      if (row === undefined) throw new Error(`no tenant ${tenantId}`);
      return utc(row.clock);
    },
    /** Makes sure later stamps come after `stamp` (used when importing data with its own stamps). */
    *observeStamp(tenantId: string, stamp: string): Steps<void> {
      yield* q.run(RAISE_CLOCK, [Date.parse(stamp), tenantId]);
    },
  };

  return {
    /** The steps other units of work run inside their own transaction. */
    steps,
    /** Creates an Active tenant and returns it. */
    create: (input: { name: string; country: string; id?: string }): Promise<Tenant> => sql.write(null, () => steps.create(input)),
    /** The tenant with `id`, or undefined. */
    get: (id: string): Promise<Tenant | undefined> => sql.read(() => steps.get(id)),
    /** Every tenant, oldest first. */
    async list(): Promise<Tenant[]> {
      return (await sql.all<TenantRow>(ALL)).map(toTenant);
    },
    /** Moves the tenant to `state`. */
    async setState(id: string, state: TenantState): Promise<void> {
      await sql.run(SET_STATE, [state, id]);
      changed(id);
    },
    /** Replaces the tenant's capability skills. */
    async setSkills(id: string, skills: string[]): Promise<void> {
      await sql.run(SET_SKILLS, [JSON.stringify(skills), id]);
    },
  };
}

export type Tenants = ReturnType<typeof makeTenants>;
