/**
 * The test clock of each tenant (D52): the wall clock, a clock frozen at an instant, or the
 * wall clock shifted by an offset. Every time a tenant sees — its stamps (D7), its keys'
 * rate-limit buckets (D14), its Idempotency-Keys' replay window (D13), its simulation
 * (D53) — is read from `now(tenantId)`.
 *
 * The settings are kept in `tenant_clocks` and cached in memory, loaded at start (`load`):
 * `now()` is read on every request, with no await. Where several processes share a
 * PostgreSQL database, a tenant's setting is read again when its version says another
 * process may have changed it (`read`, `put`; tenants/versions.ts, D81).
 */
import type { components } from '../../spec/sandbox-types.ts';
import { type Clock, utc } from '../domain/time.ts';
import { type Sql, statement, type Steps } from '../store/sql.ts';

/** The wall clock, a stopped clock, or the wall clock shifted. */
export type ClockMode = ClockView['mode'];

/** A tenant's clock as the control plane answers it (`Clock` of spec/sandbox.yaml). */
export type ClockView = components['schemas']['Clock'];

/** How a tenant's clock is set: frozen at `frozenAt`, or running `offsetMs` from the wall clock. */
export interface ClockSetting {
  frozenAt: number | null;
  offsetMs: number;
}

/** A setting that would move the tenant's time backwards (D52); the control plane answers it 409. */
export class ClockBackwards extends Error {
  constructor(
    readonly nowMs: number,
    readonly wouldBeMs: number,
  ) {
    super(`The tenant's clock reads ${utc(nowMs)}; ${utc(wouldBeMs)} would move it backwards, and its stamps must keep increasing (D7). Set a later time.`);
    this.name = 'ClockBackwards';
  }
}

/** Called after a tenant's clock moved forward; answers how many changes it made (the simulation, D53). */
export type AdvanceListener = (tenantId: string) => number | Promise<number>;

/** Called before a tenant's clock moves forward to `toMs`: answers why the move is refused, or null (the simulation's cap, D53). */
export type AdvanceCheck = (tenantId: string, toMs: number) => string | null | Promise<string | null>;

/** An advance a check refused, before the clock moved; the control plane answers it 400 naming `by`. */
export class AdvanceRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdvanceRefused';
  }
}

const SYSTEM: ClockSetting = { frozenAt: null, offsetMs: 0 };

// requirement: D52
const READ = statement('SELECT tenant_id, frozen_at, offset_ms FROM tenant_clocks');
const READ_ONE = statement('SELECT frozen_at, offset_ms FROM tenant_clocks WHERE tenant_id = ?');
const UPSERT = statement(
  'INSERT INTO tenant_clocks (tenant_id, frozen_at, offset_ms) VALUES (?, ?, ?) ON CONFLICT (tenant_id) DO UPDATE SET frozen_at = excluded.frozen_at, offset_ms = excluded.offset_ms',
);
const REMOVE = statement('DELETE FROM tenant_clocks WHERE tenant_id = ?');

/** The tenants' clocks over `sql`, on top of the base clock `base` (the wall clock, or a test's); `load` before use. */
export function makeClocks(sql: Sql, base: Clock) {
  let settings = new Map<string, ClockSetting>();
  /** Reads every tenant's setting into the cache (at start, and after a reset emptied the table). */
  const load = async () => {
    const rows = await sql.all<{ tenant_id: string; frozen_at: number | null; offset_ms: number }>(READ);
    settings = new Map(rows.map((row) => [row.tenant_id, { frozenAt: row.frozen_at, offsetMs: row.offset_ms }]));
  };
  /** Readings forced for the length of a call: the simulation stamps a change at the time it fell due. */
  const pinned = new Map<string, number>();
  const listeners: AdvanceListener[] = [];
  const checks: AdvanceCheck[] = [];

  const settingOf = (tenantId: string): ClockSetting => settings.get(tenantId) ?? SYSTEM;
  const reading = (setting: ClockSetting, wall: number) => setting.frozenAt ?? wall + setting.offsetMs;
  const now = (tenantId: string): number => pinned.get(tenantId) ?? reading(settingOf(tenantId), base());
  const modeOf = (setting: ClockSetting): ClockMode => (setting.frozenAt !== null ? 'frozen' : setting.offsetMs !== 0 ? 'offset' : 'system');

  // How many settings this process wrote per tenant: a setting read from the database before
  // one of them committed must not replace it in the cache (`put`).
  const writes = new Map<string, number>();
  /** Stores `setting` unless it moves the tenant's time backwards, both read at the wall time `wall`. */
  async function apply(tenantId: string, setting: ClockSetting, wall: number): Promise<ClockView> {
    const before = reading(settingOf(tenantId), wall);
    const after = reading(setting, wall);
    if (after < before) throw new ClockBackwards(before, after);
    if (setting.frozenAt === null && setting.offsetMs === 0) await sql.run(REMOVE, [tenantId]);
    else await sql.run(UPSERT, [tenantId, setting.frozenAt, setting.offsetMs]);
    writes.set(tenantId, (writes.get(tenantId) ?? 0) + 1);
    settings.set(tenantId, setting);
    return view(tenantId);
  }

  function view(tenantId: string): ClockView {
    const setting = settingOf(tenantId);
    const wall = base();
    const nowMs = reading(setting, wall);
    return { mode: modeOf(setting), nowUtc: utc(nowMs), offsetMs: nowMs - wall };
  }

  return {
    /** The tenant's time, ms since the epoch. */
    now,
    /** The tenant's clock as the control plane shows it. */
    view,
    /**
     * Sets the tenant's clock: `frozen` at `atMs` (default: its current time), `offset`
     * running from `atMs` (default: its current time), or `system`. Throws ClockBackwards
     * for a setting that puts the tenant's time before its current time.
     */
    set(tenantId: string, mode: ClockMode, atMs?: number): Promise<ClockView> {
      // One reading of the wall clock for the default and the check: read twice, a millisecond
      // ticking between them made "freeze now" a backwards move (409).
      const wall = base();
      const at = atMs ?? pinned.get(tenantId) ?? reading(settingOf(tenantId), wall);
      if (mode === 'frozen') return apply(tenantId, { frozenAt: at, offsetMs: 0 }, wall);
      if (mode === 'offset') return apply(tenantId, { frozenAt: null, offsetMs: at - wall }, wall);
      return apply(tenantId, SYSTEM, wall);
    },
    /**
     * Moves the tenant's time forward by `ms` (a `system` clock becomes an `offset` one),
     * then lets every listener catch up; answers the clock and the changes they made.
     */
    async advance(tenantId: string, ms: number): Promise<{ clock: ClockView; changes: number }> {
      const setting = settingOf(tenantId);
      const toMs = now(tenantId) + ms;
      for (const check of checks) {
        const refusal = await check(tenantId, toMs);
        if (refusal !== null) throw new AdvanceRefused(refusal);
      }
      await apply(tenantId, setting.frozenAt !== null ? { frozenAt: setting.frozenAt + ms, offsetMs: 0 } : { frozenAt: null, offsetMs: setting.offsetMs + ms }, base());
      let changes = 0;
      for (const listener of listeners) changes += await listener(tenantId);
      return { clock: view(tenantId), changes };
    },
    /** Registers a listener called after every advance (the simulation, D53). */
    onAdvance(listener: AdvanceListener): void {
      listeners.push(listener);
    },
    /** Registers a check run before every advance, which may refuse it (the simulation's cap, D53). */
    beforeAdvance(check: AdvanceCheck): void {
      checks.push(check);
    },
    /**
     * Runs the steps of `work` with the tenant's clock reading `atMs`: the simulation stamps
     * each change at the time it fell due with it. Inside one unit of work: on SQLite nothing
     * else runs meanwhile; on PostgreSQL another request of the tenant reading its time while
     * the work waits on a statement reads `atMs` too, a time the tenant already passed.
     */
    *pinned<T>(tenantId: string, atMs: number, work: Steps<T>): Steps<T> {
      pinned.set(tenantId, atMs);
      try {
        return yield* work;
      } finally {
        pinned.delete(tenantId);
      }
    },
    /** Reads the settings (at start; and after a reset emptied the table, the cache follows). */
    load,
    /** Reads the tenant's setting from the database (undefined: the wall clock), for `put`. */
    async read(tenantId: string): Promise<ClockSetting | undefined> {
      const row = await sql.one<{ frozen_at: number | null; offset_ms: number }>(READ_ONE, [tenantId]);
      return row && { frozenAt: row.frozen_at, offsetMs: row.offset_ms };
    },
    /** How many settings of the tenant this process wrote: taken before a `read`, handed to `put`. */
    writesOf: (tenantId: string): number => writes.get(tenantId) ?? 0,
    /** Keeps `setting`, as `read` answered it, as the tenant's, unless this process wrote one since `writesOf` answered `seen`. */
    put(tenantId: string, setting: ClockSetting | undefined, seen: number): void {
      if ((writes.get(tenantId) ?? 0) !== seen) return;
      if (setting === undefined) settings.delete(tenantId);
      else settings.set(tenantId, setting);
    },
  };
}

export type Clocks = ReturnType<typeof makeClocks>;
