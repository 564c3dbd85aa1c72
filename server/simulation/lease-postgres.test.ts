/**
 * The simulation lease on PostgreSQL (D84): two sandboxes over one database stand for two
 * processes (they share nothing in memory but the database). A tenant's timer-driven
 * simulation runs in the one holding its lease; when that one goes, the other takes over and
 * makes the changes due meanwhile, none twice and none skipped; an advance makes its due
 * changes whichever process gets it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, releaseCluster, skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { type RunningServer, sandboxClient, startServer, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';
import { expectOnSchedule, schedule, type SimulationView as View } from '../../dev/testing/simulation-schedule.ts';
import { SIMULATION_LEASE_NAMESPACE } from '../store/postgres/locks.ts';
import { openPostgresStore, type PostgresStore } from '../store/postgres/open-store.ts';
import { leaseApplicationName } from './lease.ts';
import { simulationOf } from './runner.ts';

describe.skipIf(skipWithoutPostgres('simulation lease'))('the simulation lease over two processes on one database', () => {
  let url: string;
  let watcher: pg.Client;
  type Process = { server: RunningServer<PostgresStore>; store: PostgresStore; api: ReturnType<typeof sandboxClient> };
  const sandboxes: Process[] = [];

  /** A sandbox over the test's database, as another process would start it. */
  async function sandbox(): Promise<Process> {
    const store = await openPostgresStore(url);
    const server = await startServer(store, { adminToken: TEST_ADMIN_TOKEN });
    const started = { server, store, api: sandboxClient(server.url) };
    sandboxes.push(started);
    return started;
  }

  /** Stops a sandbox as a dying process would lose it: its server, its lease's connection, its pool. */
  async function stop(which: Process) {
    await which.server.close();
    await simulationOf(which.store).close();
    await which.store.close();
    sandboxes.splice(sandboxes.indexOf(which), 1);
  }

  /** The backend pids holding a lease, with their sessions' names. */
  async function holders(): Promise<{ pid: number; name: string }[]> {
    const { rows } = await watcher.query<{ pid: number; name: string }>(
      `SELECT l.pid, a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.granted
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY l.pid`,
      [SIMULATION_LEASE_NAMESPACE],
    );
    return rows;
  }

  beforeAll(async () => {
    url = await freshDatabase({ migrated: true });
    watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
  });
  afterAll(async () => {
    for (const which of [...sandboxes]) await stop(which);
    await watcher?.end();
    await releaseCluster();
  });

  it('runs a simulation in the one process holding its lease; the other takes over when it goes, catching up, no change made twice or skipped', async () => {
    const a = await sandbox();
    const tenantId = (await a.api('createTenant', '/tenants', { json: { name: 'Leased', country: 'NL' } })).body.id as string;
    const path = `/tenants/${tenantId}/simulation`;
    const seed = 11;
    const rate = 600;
    expect((await a.api('setSimulation', path, { method: 'PUT', json: { changesPerMinute: rate, seed } })).status).toBe(200);
    // A alone ticks first: it takes the lease.
    await vi.waitFor(async () => expect((await a.api('getSimulation', path)).body.changes).toBeGreaterThan(5), { timeout: 30_000 });
    const [first] = await holders();
    expect(await holders()).toEqual([{ pid: first!.pid, name: leaseApplicationName(process.pid) }]);

    const b = await sandbox();
    await vi.waitFor(async () => expect((await b.api('getSimulation', path)).body.changes).toBeGreaterThan(15), { timeout: 30_000 });
    // B's timer ticked meanwhile and found the lease taken: one holder, still A's session.
    expect(await holders()).toEqual([first]);
    expectOnSchedule((await b.api('getSimulation', path)).body as View, seed, rate);

    await stop(a);
    const atStop = (await b.api('getSimulation', path)).body as View;
    await vi.waitFor(async () => expect((await b.api('getSimulation', path)).body.changes).toBeGreaterThan(atStop.changes + 10), { timeout: 30_000 });
    const taken = await holders();
    expect(taken).toHaveLength(1);
    expect(taken[0]!.pid).not.toBe(first!.pid);
    expectOnSchedule((await b.api('getSimulation', path)).body as View, seed, rate);
    const stopped = (await b.api('stopSimulation', path, { method: 'DELETE' })).body as View;
    // Its last change was due before the stop answered: nothing ran ahead of the clock.
    expect(schedule(Date.parse(stopped.startedAtUtc), seed, rate, stopped.changes).at(-1)!).toBeLessThanOrEqual(Date.now());
    // A stopped simulation is let go of on the next tick.
    await vi.waitFor(async () => expect(await holders()).toEqual([]), { timeout: 30_000 });
  });

  it('makes an advance\'s due changes in the process the advance reaches', async () => {
    const a = sandboxes[0] ?? (await sandbox());
    const b = await sandbox();
    const tenantId = (await b.api('createTenant', '/tenants', { json: { name: 'Advanced', country: 'NL' } })).body.id as string;
    const base = `/tenants/${tenantId}`;
    // Frozen a day ahead: the clock set in B (another process's cached clock is issue 24's shared state, not this test's).
    const frozen = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 86_400_000).toISOString();
    expect((await b.api('setClock', `${base}/clock`, { method: 'PUT', json: { mode: 'frozen', atUtc: frozen } })).status).toBe(200);
    const seed = 23;
    const rate = 30;
    expect((await b.api('setSimulation', `${base}/simulation`, { method: 'PUT', json: { changesPerMinute: rate, seed } })).status).toBe(200);
    const before = (await b.api('getSimulation', `${base}/simulation`)).body as View;
    const advanced = await b.api('advanceClock', `${base}/clock/advance`, { method: 'POST', json: { by: 'PT10M' } });
    expect(advanced.status).toBe(200);
    const now = Date.parse(advanced.body.clock.nowUtc as string);
    const due = schedule(Date.parse(before.startedAtUtc), seed, rate, 1000).filter((at) => at <= now).length;
    expect(due).toBeGreaterThan(200);
    expect(advanced.body.changes).toBe(due - before.changes);
    // Read in the other process: the changes are the database's.
    expectOnSchedule((await a.api('getSimulation', `${base}/simulation`)).body as View, seed, rate);
  });
});
