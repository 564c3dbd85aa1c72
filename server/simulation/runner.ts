/**
 * The living feed's scheduler (D53): it makes each tenant's changes as they fall due on the
 * tenant's clock — from a timer while the clock runs, and all at once when the clock is
 * advanced — in slices, so that a big catch-up never stalls other requests.
 */
import { randomInt } from 'node:crypto';
import type { components } from '../../spec/sandbox-types.ts';
import { utc } from '../domain/time.ts';
import type { Logger } from '../http/log.ts';
import type { Store } from '../store/index.ts';
import type { SimulationRow } from './store.ts';
import { makeChange } from './changes.ts';
import { countDue, gapMs, generator, timelineStart } from './draws.ts';
import { leaseOf } from './lease.ts';

/** The most changes one advance may make (D53). */
export const MAX_CHANGES_PER_ADVANCE = 100_000;

/**
 * How many changes one event-loop turn makes at most, and for how long: other requests wait
 * at most about that long behind a catch-up. And how often the timer looks for due changes.
 */
const SLICE = 500;
const SLICE_MS = 10;
const TICK_MS = 250;

/** A tenant's simulation as the control plane answers it (`Simulation` of spec/sandbox.yaml). */
export type SimulationView = components['schemas']['Simulation'];

/** How a simulation is started (`SimulationSetting` of spec/sandbox.yaml). */
export type SimulationSetting = components['schemas']['SimulationSetting'];

const NEVER_STARTED: SimulationView = {
  running: false,
  changesPerMinute: null,
  seed: null,
  unknownStatuses: false,
  unknownMembers: false,
  unknownTripStatuses: false,
  startedAtUtc: null,
  changes: 0,
  nextChangeAtUtc: null,
};

const viewOf = (row: SimulationRow | undefined): SimulationView =>
  row === undefined
    ? NEVER_STARTED
    : {
        running: row.running,
        changesPerMinute: row.changesPerMinute,
        seed: row.seed,
        unknownStatuses: row.unknownStatuses,
        unknownMembers: row.unknownMembers,
        unknownTripStatuses: row.unknownTripStatuses,
        startedAtUtc: utc(row.startedAt),
        changes: row.changes,
        nextChangeAtUtc: row.running && row.nextChangeAt !== null ? utc(row.nextChangeAt) : null,
      };

/** Moves the row's next change past `nowMs` without making any: the time skipped while the tenant was not Active. */
function skipTo(row: SimulationRow, nowMs: number): void {
  row.nextChangeAt = nowMs + gapMs(generator(row.timeline), row.changesPerMinute);
}

// requirement: D53
/** The simulation of one store: start, stop, read, and catch up; `close` ends its timer. */
export function makeSimulationRunner(store: Store, options: { log?: Logger } = {}) {
  const { simulations, clocks, tenants } = store;
  /** The catch-up under way per tenant: one at a time, in order. */
  const queue = new Map<string, Promise<number>>();
  // Which tenants this process runs from its timer: all of them, unless other processes share the database (D84).
  const lease = leaseOf(store);
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  let closed = false;
  const report = (what: string) => (error: unknown) => options.log?.error(`${what}: ${(error as Error).stack ?? String(error)}`);

  const isActive = async (tenantId: string) => (await tenants.get(tenantId))?.state === 'Active';

  /** Makes up to SLICE due changes in one unit of work; answers how many, and whether more are due. */
  const slice = (tenantId: string, first: boolean): Promise<{ made: number; more: boolean }> =>
    store.sql.write(tenantId, function* () {
      const row = yield* simulations.steps.get(tenantId);
      if (row === undefined || !row.running || row.nextChangeAt === null) return { made: 0, more: false };
      const nowMs = clocks.now(tenantId);
      if (row.nextChangeAt > nowMs) return { made: 0, more: false };
      // Nothing is written while the tenant is not Active, and a backlog past the cap (a server
      // that was down for long) is skipped rather than written all at once.
      const tooMany = first && countDue(row.timeline, row.nextChangeAt, row.changesPerMinute, nowMs, MAX_CHANGES_PER_ADVANCE) > MAX_CHANGES_PER_ADVANCE;
      if ((yield* tenants.steps.get(tenantId))?.state !== 'Active' || tooMany) {
        skipTo(row, nowMs);
        yield* simulations.steps.saveProgress(row);
        return { made: 0, more: false };
      }
      const draw = generator(row.timeline);
      const until = performance.now() + SLICE_MS;
      let made = 0;
      while (made < SLICE && row.nextChangeAt <= nowMs && (made === 0 || performance.now() < until)) {
        yield* clocks.pinned(tenantId, row.nextChangeAt, makeChange(store, row));
        made++;
        row.changes++;
        row.position++;
        row.nextChangeAt += gapMs(draw, row.changesPerMinute);
      }
      yield* simulations.steps.saveProgress(row);
      return { made, more: row.nextChangeAt <= nowMs };
    });

  /** Makes every change due up to the tenant's time, a slice per event-loop turn. */
  async function run(tenantId: string): Promise<number> {
    let made = 0;
    for (let first = true; !closed && store.isOpen(); first = false) {
      const done = await slice(tenantId, first);
      made += done.made;
      if (!done.more) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return made;
  }

/** Queues a catch-up of the tenant behind any under way; answers the changes it made. */
  function catchUp(tenantId: string): Promise<number> {
    const before = queue.get(tenantId) ?? Promise.resolve(0);
    const next = before.then(
      () => run(tenantId),
      () => run(tenantId),
    );
    queue.set(tenantId, next);
    const forget = () => {
      if (queue.get(tenantId) === next) queue.delete(tenantId);
    };
    next.then(forget, forget);
    return next;
  }

  /**
   * Catches up every running simulation this process holds that has a change due. One
   * process alone ends the timer when none runs; sharing the database, it keeps looking, since
   * another process may start one, or die holding one.
   */
  async function tick(): Promise<void> {
    if (closed || !store.isOpen()) return close();
    if (ticking) return;
    ticking = true;
    try {
      const running = await simulations.running();
      const mine = await lease.hold(running);
      if (running.length === 0 && !lease.shared) return stopTimer();
      for (const tenantId of running) {
        if (!mine.has(tenantId) || queue.has(tenantId)) continue;
        // A clock another process set (or advanced) reaches this process's cache first (D81).
        await store.shared?.versions.check(tenantId);
        const row = await simulations.get(tenantId);
        if (row?.nextChangeAt == null || row.nextChangeAt > clocks.now(tenantId)) continue;
        catchUp(tenantId).catch(report(`simulation of tenant ${tenantId}`));
      }
    } finally {
      ticking = false;
    }
  }

  function startTimer(): void {
    if (timer !== null || closed) return;
    // A tick that met the store closing under it has nothing to report.
    const failed = report('simulation timer');
    timer = setInterval(() => void tick().catch((error: unknown) => (closed || !store.isOpen() ? undefined : failed(error))), TICK_MS);
    timer.unref();
  }

  function stopTimer(): void {
    if (timer !== null) clearInterval(timer);
    timer = null;
  }

  /** Ends the timer and lets go of the lease; resolves once let go. */
  function close(): Promise<void> {
    closed = true;
    stopTimer();
    return lease.close();
  }

  // The tenant's count of changes as each advance began: sharing the database, the process
  // holding the simulation's lease may make some of an advance's changes (D84), which the
  // advance still answers as its own.
  const countsBefore = new Map<string, number>();
  clocks.beforeAdvance(async (tenantId, toMs) => {
    const row = await simulations.get(tenantId);
    countsBefore.set(tenantId, row?.changes ?? 0);
    if (row === undefined || !row.running || row.nextChangeAt === null || !(await isActive(tenantId))) return null;
    const due = countDue(row.timeline, row.nextChangeAt, row.changesPerMinute, toMs, MAX_CHANGES_PER_ADVANCE);
    if (due <= MAX_CHANGES_PER_ADVANCE) return null;
    return `At ${row.changesPerMinute} changes a minute the simulation would make more than ${MAX_CHANGES_PER_ADVANCE.toLocaleString('en')} changes by ${utc(toMs)}; advance by less at a time, or stop the simulation first (D53).`;
  });
  clocks.onAdvance(async (tenantId) => {
    const made = await catchUp(tenantId);
    const before = countsBefore.get(tenantId);
    countsBefore.delete(tenantId);
    if (!lease.shared || before === undefined) return made;
    return Math.max(made, ((await simulations.get(tenantId))?.changes ?? 0) - before);
  });
  // The simulations that ran when the server stopped resume; sharing the database, the timer looks for them from the start.
  if (lease.shared) startTimer();
  else {
    simulations.running().then((running) => {
      if (running.length > 0) startTimer();
    }, report('simulations to resume'));
  }

  return {
    /** The tenant's simulation. */
    async view(tenantId: string): Promise<SimulationView> {
      return viewOf(await simulations.get(tenantId));
    },
    /** Starts (or restarts, from its seed) the tenant's simulation at the tenant's time. */
    async start(tenantId: string, setting: SimulationSetting): Promise<SimulationView> {
      const seed = setting.seed ?? randomInt(2 ** 32);
      const startedAt = clocks.now(tenantId);
      const timeline = timelineStart(seed);
      const nextChangeAt = startedAt + gapMs(generator(timeline), setting.changesPerMinute);
      const flags = { unknownStatuses: setting.unknownStatuses ?? false, unknownMembers: setting.unknownMembers ?? false, unknownTripStatuses: setting.unknownTripStatuses ?? false };
      await simulations.start(tenantId, { changesPerMinute: setting.changesPerMinute, seed, ...flags, startedAt, nextChangeAt, timeline });
      startTimer();
      return viewOf(await simulations.get(tenantId));
    },
    /** Stops the tenant's simulation; what it wrote stays. */
    async stop(tenantId: string): Promise<SimulationView> {
      await simulations.stop(tenantId);
      return viewOf(await simulations.get(tenantId));
    },
    /** Makes every change due by the tenant's time; answers how many it made. */
    catchUp,
    /** Ends the timer and lets go of the lease: the server is closing. */
    close,
  };
}

export type SimulationRunner = ReturnType<typeof makeSimulationRunner>;

const runners = new WeakMap<Store, SimulationRunner>();

/** The simulation runner of `store`, made (and resumed) the first time it is asked for. */
export function simulationOf(store: Store, options: { log?: Logger } = {}): SimulationRunner {
  let runner = runners.get(store);
  if (runner === undefined) {
    runner = makeSimulationRunner(store, options);
    runners.set(store, runner);
  }
  return runner;
}
