/**
 * `waybill serve --workers 2` as a user runs it (D83, D84): real worker processes over a fresh
 * PostgreSQL database. The banner comes once with a port that answers; connections land on
 * both workers (each process issues request ids of its own prefix); a live tail opened on one
 * worker hears the requests the other served; a worker killed with SIGKILL is replaced;
 * SIGTERM answers every request in flight, exits 0 and leaves no process or connection
 * behind; a simulation runs in one process at its rate, and is taken over when that one is killed.
 * With an SQLite database `--workers` is refused.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, releaseCluster, queryDatabase as query, skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { fresh, type FreshAnswer as Answer, processOf } from '../../dev/testing/fresh-request.ts';
import { bannerKey, serve, type ServeChild, waybill } from '../../dev/testing/serve-child.ts';
import { expectOnSchedule, schedule, type SimulationView } from '../../dev/testing/simulation-schedule.ts';
import { leaseApplicationName } from '../simulation/lease.ts';
import { SIMULATION_LEASE_NAMESPACE } from '../store/postgres/locks.ts';

const dir = mkdtempSync(join(tmpdir(), 'waybill-serve-workers-'));
const ADMIN_TOKEN = 'wba_serve-workers-admin-token';
const env = { ...process.env, WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN };
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

/** The pids of the workers the banner lists. */
const workerPids = (banner: string) => /workers: 2 processes on one port \(pids (\d+), (\d+)\)/.exec(banner)!.slice(1).map(Number);

/** Whether a process of that pid runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The whole standard output of `served` from its banner on, kept up to date. */
function output(served: ServeChild): { readonly text: string } {
  let text = served.banner;
  served.child.stdout!.on('data', (chunk) => (text += chunk));
  return { get text() { return text; } };
}

/** Starts `waybill serve --workers 2` on a fresh database; answers it with its base URL, demo tenant and key, and worker pids. */
async function serveTwo() {
  const url = await freshDatabase();
  const served = await serve(dir, ['--workers', '2', '--db', url], env);
  const { key, url: base } = bannerKey(served.banner);
  const tenantId = /tenants\/(\S+?)\/keys/.exec(served.banner)![1]!;
  return { url, served, base, key, tenantId, pids: workerPids(served.banner), stdout: output(served) };
}

describe('--workers on SQLite', () => {
  it('is refused in one line naming why, exit 2, no database file made', async () => {
    for (const db of ['.waybill/workers.db', ':memory:']) {
      const run = await waybill(dir, ['serve', '--port', '0', '--workers', '2', '--db', db], env);
      expect(run.code).toBe(2);
      expect(run.err.trim().split('\n')).toHaveLength(1);
      expect(run.err).toContain('waybill: --workers 2: a SQLite database is served by one process (its file takes one writer at a time); run several workers on PostgreSQL (--db postgres://…), or leave --workers out');
    }
    const out = await waybill(dir, ['serve', '--port', '0', '--workers', '65', '--db', ':memory:'], env);
    expect(out.code).toBe(2);
    expect(out.err.trim()).toBe("waybill: --workers must be an integer from 1 to 64, got '65' (see waybill serve --help)");
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe.skipIf(skipWithoutPostgres('waybill serve --workers'))('waybill serve --workers 2 on PostgreSQL', () => {
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await releaseCluster();
  });

  it('prints the banner once, serves connections on both workers, and a tail opened on one hears what the other served', async () => {
    const { served, base, key, tenantId, pids, stdout } = await serveTwo();
    expect(pids.every(alive)).toBe(true);
    expect((await fresh(base, '/health')).status).toBe(200);
    // The tail, on whichever worker its connection landed.
    const heard: { requestId: string }[] = [];
    let streamProcess = '';
    const stream = request(`${base}/sandbox/v1/tenants/${tenantId}/requests/stream`, { headers: admin, agent: false });
    const opened = new Promise<void>((resolve, reject) => {
      stream.on('response', (res) => {
        streamProcess = processOf(String(res.headers['x-request-id']));
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const data = /^data: (.*)$/m.exec(buffer.slice(0, end));
            if (data) heard.push(JSON.parse(data[1]!) as { requestId: string });
            buffer = buffer.slice(end + 2);
          }
        });
        resolve();
      });
      stream.on('error', reject);
    });
    stream.end();
    await opened;
    const answers: Answer[] = [];
    for (let n = 0; n < 12; n++) answers.push(await fresh(base, '/api/v1/integration/orders?limit=1', { headers: { 'X-Api-Key': key } }));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
    const processes = new Set(answers.map((answer) => processOf(answer.requestId)));
    expect(processes.size).toBe(2);
    expect(processes).toContain(streamProcess);
    // Every request reaches the tail, those the other worker served included.
    const sent = answers.map((answer) => answer.requestId);
    await vi.waitFor(() => expect(heard.map((entry) => entry.requestId).filter((id) => sent.includes(id)).sort()).toEqual([...sent].sort()), { timeout: 30_000 });
    expect(heard.some((entry) => processOf(entry.requestId) !== streamProcess)).toBe(true);
    // The log lists them too, from whichever worker reads it.
    const listed = JSON.parse((await fresh(base, `/sandbox/v1/tenants/${tenantId}/requests?limit=100`, { headers: admin })).body) as { items: { requestId: string }[] };
    expect(listed.items.map((item) => item.requestId).filter((id) => sent.includes(id)).sort()).toEqual([...sent].sort());
    stream.destroy();
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
    expect(stdout.text.match(/waybill sandbox listening on/g)).toHaveLength(1);
  }, 180_000);

  it('replaces a worker killed with SIGKILL, in one line, and goes on answering; its workers stop when the primary is killed', async () => {
    const { served, base, key, pids } = await serveTwo();
    const before = new Set<string>();
    for (let n = 0; n < 4; n++) before.add(processOf((await fresh(base, '/api/v1/integration/orders?limit=1', { headers: { 'X-Api-Key': key } })).requestId));
    expect(before.size).toBe(2);
    const killedAt = Date.now();
    process.kill(pids[0]!, 'SIGKILL');
    await vi.waitFor(() => expect(served.err).toMatch(new RegExp(`^waybill: worker ${pids[0]} killed by SIGKILL; started worker \\d+ in its place\\n$`)), { timeout: 30_000 });
    const replacement = Number(/started worker (\d+)/.exec(served.err)![1]);
    expect(alive(replacement)).toBe(true);
    // Every request answers meanwhile, and the replacement takes connections once it listens.
    const after = new Set<string>();
    await vi.waitFor(async () => {
      const answer = await fresh(base, '/api/v1/integration/orders?limit=1', { headers: { 'X-Api-Key': key } });
      expect(answer.status).toBe(200);
      after.add(processOf(answer.requestId));
      expect([...after].filter((id) => !before.has(id))).toHaveLength(1);
    }, { timeout: 60_000, interval: 50 });
    console.info(`worker replaced: its replacement answered ${Date.now() - killedAt} ms after the SIGKILL, every request answered meanwhile`);
    expect(served.err.trim().split('\n')).toHaveLength(1);
    // The primary killed: its workers see their channel close and stop on their own, none left behind.
    served.child.kill('SIGKILL');
    await served.exited;
    await vi.waitFor(() => expect([pids[1]!, replacement].filter(alive)).toEqual([]), { timeout: 30_000, interval: 100 });
  }, 180_000);

  it('on SIGTERM answers every request in flight, stops listening, exits 0 and leaves no worker or database connection behind', async () => {
    const { url, served, base, pids, stdout } = await serveTwo();
    // Requests in flight: a worker has each (it answered 100 Continue to its headers) and half its body, the rest held back until the shutdown began.
    const body = JSON.stringify({ name: 'in flight', country: 'NL' });
    const inFlight = Array.from({ length: 6 }, () => {
      const headers = { ...admin, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Expect: '100-continue' };
      const req = request(`${base}/sandbox/v1/tenants`, { method: 'POST', agent: false, headers });
      const continued = new Promise<void>((resolve) => req.once('continue', () => req.write(body.slice(0, 10), () => resolve())));
      const answered = new Promise<Pick<Answer, 'status' | 'requestId' | 'body'>>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']), body: text }));
        });
        req.on('error', reject);
      });
      req.flushHeaders();
      return { req, continued, answered };
    });
    await Promise.all(inFlight.map(({ continued }) => continued));
    served.child.kill('SIGTERM');
    await vi.waitFor(() => expect(stdout.text).toContain('\nSIGTERM: shutting down\n'), { timeout: 30_000 });
    // The port stops taking connections once every worker stopped listening.
    await vi.waitFor(async () => expect(await fresh(base, '/health').then(() => 'answered', (error: NodeJS.ErrnoException) => error.code)).toBe('ECONNREFUSED'), { timeout: 30_000, interval: 20 });
    for (const { req } of inFlight) req.end(body.slice(10));
    const answers = await Promise.all(inFlight.map(({ answered }) => answered));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((answer) => processOf(answer.requestId))).size).toBe(2);
    expect(await served.exited).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    // Every pool, the log's, the tail's and the lease's connections closed with their workers.
    expect(await query(url, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).toEqual([]);
    expect((await query<{ n: number }>(url, "SELECT count(*)::int AS n FROM tenants WHERE name = 'in flight'"))[0]!.n).toBe(6);
  }, 180_000);

  it('runs a simulation in one worker at its rate, each due change once, and another process takes it over when that worker is killed', async () => {
    const { url, served, base, tenantId, pids } = await serveTwo();
    const path = `/sandbox/v1/tenants/${tenantId}/simulation`;
    const seed = 31;
    const rate = 600;
    const view = async () => JSON.parse((await fresh(base, path, { headers: admin })).body) as SimulationView;
    const holders = () =>
      query<{ pid: number; name: string }>(
        url,
        `SELECT l.pid, a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.granted
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [SIMULATION_LEASE_NAMESPACE],
      );
    expect((await fresh(base, path, { method: 'PUT', headers: { ...admin, 'Content-Type': 'application/json' }, body: JSON.stringify({ changesPerMinute: rate, seed }) })).status).toBe(200);
    await vi.waitFor(async () => expect((await view()).changes).toBeGreaterThan(20), { timeout: 60_000 });
    const [holder, ...others] = await holders();
    expect(others).toEqual([]);
    const runner = pids.find((pid) => holder!.name === leaseApplicationName(pid));
    expect(runner, holder!.name).toBeDefined();
    /** The view read, held to the seed's schedule, and its changes kept up with the clock: none ahead of it, none more than 10 s behind. */
    const onSchedule = async () => {
      const asked = Date.now();
      const seen = await view();
      expectOnSchedule(seen, seed, rate);
      const due = schedule(Date.parse(seen.startedAtUtc), seed, rate, seen.changes + 2000);
      expect(due[seen.changes - 1]!).toBeLessThanOrEqual(Date.now());
      expect(seen.changes).toBeGreaterThanOrEqual(due.filter((at) => at <= asked - 10_000).length);
      return seen;
    };
    await onSchedule();

    const killedAt = Date.now();
    process.kill(runner!, 'SIGKILL');
    // Asked once the primary knows: a connection it handed the worker as it died would have no answer.
    await vi.waitFor(() => expect(served.err).toMatch(new RegExp(`worker ${runner} killed by SIGKILL; started worker \\d+ in its place`)), { timeout: 30_000 });
    const atKill = (await view()).changes;
    await vi.waitFor(async () => {
      const [taken, ...more] = await holders();
      expect(more).toEqual([]);
      expect(taken?.name).toMatch(/^waybill simulation lease pid \d+$/);
      expect(taken!.name).not.toBe(leaseApplicationName(runner!));
    }, { timeout: 30_000, interval: 100 });
    const takenAfter = Date.now() - killedAt;
    await vi.waitFor(async () => expect((await view()).changes).toBeGreaterThan(atKill + 20), { timeout: 60_000 });
    const last = await onSchedule();
    console.info(`simulation lease: taken over ${takenAfter} ms after the SIGKILL of its holder (seen by polling pg_locks every 100 ms); ${last.changes} changes on the seed's schedule`);
    served.child.kill('SIGTERM');
    expect(await served.exited).toBe(0);
  }, 180_000);
});
