/**
 * One sandbox as several processes (issue 24): `waybill serve --workers 2 --db postgres://…`
 * as a user runs it, every call on a connection of its own so that the primary hands the
 * calls to both workers in turn. Each promise the API makes holds across the processes: a
 * key's rate limit counts every worker's answers, an Idempotency-Key has one effect, a revoke
 * is seen by every worker on the next call, a follower misses no change whichever worker
 * wrote it, and a worker killed under write load loses nothing it acknowledged.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, queryDatabase as query, releaseCluster, skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { orderIntake } from '../../dev/testing/sandbox.ts';
import { fresh, type FreshAnswer, processOf } from '../../dev/testing/fresh-request.ts';
import { serve, type ServeChild } from '../../dev/testing/serve-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'waybill-workers-'));
const ADMIN_TOKEN = 'wba_workers-on-postgres-admin-token';
const env = { ...process.env, WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN };
const ORDERS = '/api/v1/integration/orders';

/** The control plane, with the admin token. */
const admin = (base: string, path: string, init: { method?: string; json?: unknown } = {}) =>
  fresh(base, `/sandbox/v1${path}`, { ...init, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });

/** The pids of the workers the banner lists (D83). */
const workerPids = (banner: string) => /workers: 2 processes on one port \(pids (\d+), (\d+)\)/.exec(banner)!.slice(1).map(Number);

/** The processes that served `answers`: both workers, where a scenario claims to run across them. */
const servedBy = (answers: readonly FreshAnswer[]) => new Set(answers.map((answer) => processOf(answer.requestId)));

/** Waits until `condition` holds, looking every 50 ms, for at most `ms`. */
async function until(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(skipWithoutPostgres('workers'))('waybill serve --workers 2 on PostgreSQL: every promise across processes', () => {
  let sandbox: ServeChild;
  let base: string;
  let database: string;
  let tenantId: string;

  /** A new key of the tenant with `scopes` and `rateLimitPerMinute`; answers its id and secret. */
  async function newKey(rateLimitPerMinute: number, scopes = ['orders:read', 'orders:write', 'trips:read']): Promise<{ id: string; secret: string }> {
    const created = await admin(base, `/tenants/${tenantId}/keys`, { json: { name: `k-${randomUUID().slice(0, 8)}`, scopes, rateLimitPerMinute } });
    expect(created.status).toBe(201);
    const { id, secret } = created.json<{ id: string; secret: string }>();
    return { id, secret };
  }

  beforeAll(async () => {
    database = await freshDatabase();
    sandbox = await serve(dir, ['--db', database, '--workers', '2'], env);
    base = /listening on (\S+)/.exec(sandbox.banner)![1]!;
    tenantId = (await admin(base, '/tenants', { json: { name: 'Workers', country: 'NL' } })).json().id;
  }, 120_000);

  afterAll(async () => {
    sandbox?.child.kill('SIGTERM');
    expect(await sandbox?.exited).toBe(0);
    rmSync(dir, { recursive: true, force: true });
    await releaseCluster();
  });

  it('serves from two worker processes, a connection to each in turn', async () => {
    expect(workerPids(sandbox.banner)).toHaveLength(2);
    const answers = await Promise.all(Array.from({ length: 8 }, () => fresh(base, '/health')));
    expect(servedBy(answers).size).toBe(2);
  });

  it('answers a key of 30 a minute, called 90 times on fresh connections, at most 30 times 200', async () => {
    // The tenant's clock stands still, so that no token comes back during the calls (D52, D14).
    expect((await admin(base, `/tenants/${tenantId}/clock`, { method: 'PUT', json: { mode: 'frozen' } })).status).toBe(200);
    try {
      const key = await newKey(30);
      const answers: FreshAnswer[] = [];
      for (let n = 0; n < 90; n++) answers.push(await fresh(base, '/api/v1/integration/whoami', { headers: { 'X-Api-Key': key.secret } }));
      expect(servedBy(answers).size).toBe(2);
      const statuses = answers.map((answer) => answer.status);
      expect({ ok: statuses.filter((status) => status === 200).length, limited: statuses.filter((status) => status === 429).length }).toEqual({ ok: 30, limited: 60 });
    } finally {
      expect((await admin(base, `/tenants/${tenantId}/clock`, { method: 'PUT', json: { mode: 'system' } })).status).toBe(200);
    }
  });

  it('records one payment of 40 concurrent calls with one Idempotency-Key', async () => {
    const key = await newKey(6000);
    const externalId = `IDEM-${randomUUID().slice(0, 8)}`;
    expect((await admin(base, `/tenants/${tenantId}/orders`, { json: orderIntake(externalId) })).status).toBe(201);
    const idempotencyKey = randomUUID();
    const payment = { paymentId: randomUUID(), amount: 12.5, currency: 'EUR' };
    const answers = await Promise.all(Array.from({ length: 40 }, () =>
      fresh(base, `${ORDERS}/externalid/${externalId}/payment`, { headers: { 'X-Api-Key': key.secret, 'Idempotency-Key': idempotencyKey }, json: payment })));
    expect(servedBy(answers).size).toBe(2);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    // Every 200 is the same answer: the first one's, replayed.
    expect(new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.body)).size).toBe(1);
    for (const answer of answers.filter((one) => one.status === 429)) expect(answer.json().type).toMatch(/idempotency/i);
    // One call ran the operation; every other 200 is its answer replayed.
    expect(answers.filter((answer) => answer.status === 200 && answer.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect((await query<{ n: number }>(database, 'SELECT count(*)::int AS n FROM order_payments WHERE payment_id = $1', [payment.paymentId]))[0]!.n).toBe(1);
  });

  it('refuses a key revoked through one worker on each of the next 20 calls, whichever worker they reach', async () => {
    const key = await newKey(6000);
    // Both workers know the key first (each cached it answering a call).
    const known: FreshAnswer[] = [];
    for (let n = 0; n < 10; n++) known.push(await fresh(base, '/api/v1/integration/whoami', { headers: { 'X-Api-Key': key.secret } }));
    expect(known.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(servedBy(known).size).toBe(2);
    expect((await admin(base, `/tenants/${tenantId}/keys/${key.id}/revoke`, { method: 'POST' })).status).toBe(200);
    const refused: FreshAnswer[] = [];
    for (let n = 0; n < 20; n++) refused.push(await fresh(base, '/api/v1/integration/whoami', { headers: { 'X-Api-Key': key.secret } }));
    expect(servedBy(refused).size).toBe(2);
    expect(refused.map((answer) => answer.status)).toEqual(Array(20).fill(401));
  });

  it('misses no change of 4 writers, spread over both workers, to a follower polling meanwhile', { timeout: 600_000 }, async () => {
    const WRITERS = 4;
    const WRITES = 250;
    const keys = await Promise.all(Array.from({ length: WRITERS + 1 }, () => newKey(6000)));
    const prefix = `F${randomUUID().slice(0, 6)}`;
    const writes: FreshAnswer[] = [];
    /** One writer: a new order through the control plane, or (one time in three) a payment on one of its orders. */
    const writer = async (n: number) => {
      const mine: string[] = [];
      for (let w = 0; w < WRITES; w++) {
        if (mine.length > 0 && w % 3 === 2) {
          const externalId = mine[w % mine.length]!;
          const paid = await fresh(base, `${ORDERS}/externalid/${externalId}/payment`, { headers: { 'X-Api-Key': keys[n]!.secret }, json: { paymentId: randomUUID(), amount: 1, currency: 'EUR' } });
          expect(paid.status).toBe(200);
          writes.push(paid);
        } else {
          const externalId = `${prefix}-${n}-${w}`;
          const created = await admin(base, `/tenants/${tenantId}/orders`, { json: orderIntake(externalId) });
          expect(created.status).toBe(201);
          writes.push(created);
          mine.push(externalId);
        }
      }
    };
    const follow = keys[WRITERS]!.secret;
    const seen = new Set<string>();
    let finished = false;
    let seenDuringWrites = 0;
    const follower = (async () => {
      let cursor: string | null = null;
      let since: string | null = null;
      for (let last = false; ; ) {
        const finishing = finished;
        if (!finishing) seenDuringWrites = seen.size;
        const query: string = cursor !== null ? `&cursor=${encodeURIComponent(cursor)}` : since !== null ? `&since=${encodeURIComponent(since)}` : '';
        const page = await fresh(base, `${ORDERS}?limit=100${query}`, { headers: { 'X-Api-Key': follow } });
        expect(page.status).toBe(200);
        const { items, nextCursor } = page.json<{ items: { id: string; updatedAtUtc: string }[]; nextCursor: string | null }>();
        for (const item of items) seen.add(`${item.id} ${item.updatedAtUtc}`);
        cursor = nextCursor;
        if (cursor !== null) continue;
        since = items.at(-1)?.updatedAtUtc ?? since;
        if (last) return;
        last = finishing;
        if (!last) await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
    finished = true;
    await follower;
    const final: { id: string; externalId: string; updatedAtUtc: string }[] = [];
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const page = await fresh(base, `${ORDERS}?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { headers: { 'X-Api-Key': follow } });
      const { items, nextCursor } = page.json<{ items: { id: string; externalId: string; updatedAtUtc: string }[]; nextCursor: string | null }>();
      final.push(...items);
      cursor = nextCursor;
    }
    const written = final.filter((order) => order.externalId.startsWith(prefix));
    expect(written).toHaveLength(Math.ceil((WRITES * 2) / 3) * WRITERS);
    // The follower read while the writers wrote, and both workers served the writes.
    expect(seenDuringWrites).toBeGreaterThan(0);
    expect(servedBy(writes).size).toBe(2);
    expect(final.filter((order) => !seen.has(`${order.id} ${order.updatedAtUtc}`))).toEqual([]);
  });

  it('loses no acknowledged write when a worker is killed with SIGKILL under write load, and goes on answering', { timeout: 300_000 }, async () => {
    const key = await newKey(6000);
    const prefix = `K${randomUUID().slice(0, 6)}`;
    const created: string[] = [];
    let cut = 0;
    let stop = false;
    const writer = async (n: number) => {
      for (let w = 0; !stop; w++) {
        const externalId = `${prefix}-${n}-${w}`;
        try {
          const answer = await admin(base, `/tenants/${tenantId}/orders`, { json: orderIntake(externalId) });
          if (answer.status === 201) created.push(externalId);
        } catch {
          // The connection the kill cut: the write may or may not have committed, and was never acknowledged.
          cut++;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, n) => writer(n));
    await until(() => created.length >= 200, 60_000, '200 writes acknowledged');
    const [victim] = workerPids(sandbox.banner);
    process.kill(victim!, 'SIGKILL');
    const acknowledgedAtKill = created.length;
    // The sandbox goes on answering: the other worker, then the replacement.
    await until(() => created.length >= acknowledgedAtKill + 200, 60_000, '200 more writes acknowledged after the kill');
    stop = true;
    await Promise.all(writers);
    await until(() => new RegExp(`worker ${victim} killed by SIGKILL; started worker \\d+ in its place`).test(sandbox.err), 30_000, 'a replacement worker');
    const stored = new Set((await query<{ external_id: string }>(database, 'SELECT external_id FROM orders WHERE external_id LIKE $1', [`${prefix}-%`])).map((row) => row.external_id));
    expect(created.filter((externalId) => !stored.has(externalId))).toEqual([]);
    console.info(`kill -9 of a worker under write load: ${created.length} writes acknowledged, all stored; ${cut} requests cut`);
    expect(cut).toBeGreaterThan(0);
  });
});
