/**
 * Two sandboxes over one PostgreSQL database stand for two processes (D81, D82): they share
 * nothing in memory, only the database. Every promise of one process must hold across both:
 * a key's rate limit, a revoke, a suspend, a clock set, a fault rule's `times`, and an
 * Idempotency-Key in flight. Their base clock is one frozen instant (two machines' synchronised
 * clocks), so nothing refills while a test runs.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { type Answer, call, callSandbox, type RunningServer, seedTenant, startServer, TEST_ADMIN_TOKEN, tinyDataset } from '../../dev/testing/sandbox.ts';
import { openPostgresStore, type PostgresStore } from '../store/postgres/open-store.ts';
import { RUNNING_IDS } from '../simulation/store.ts';
import { statement } from '../store/sql.ts';

const WALL = Date.parse('2026-11-20T10:00:00.000Z');
const payment = (n: number) => ({ paymentId: `4c1a7e93-2b5d-4f08-9e6c-${String(n).padStart(12, '0')}`, amount: 5, currency: 'EUR' });

let a: RunningServer<PostgresStore>;
let b: RunningServer<PostgresStore>;
/** Which sandbox a call goes through. */
type Via = { url: string };

/** A tenant made through A, with its 40 orders EXT-0…39, and `rateLimit` a minute on each key. */
async function tenant(rateLimit?: number) {
  return seedTenant(a.store, tinyDataset({ orders: 40 }), rateLimit === undefined ? {} : { rateLimit });
}

const whoami = (via: Via, key: string) => call(via.url, 'whoami', '/api/v1/integration/whoami', { key });
const pay = (via: Via, key: string, externalId: string, body: unknown, idempotencyKey?: string) =>
  call(via.url, 'attachPayment', `/api/v1/integration/orders/externalid/${externalId}/payment`, {
    method: 'POST', key, json: body, headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
  });
const control = (via: Via, operationId: string, path: string, init: Parameters<typeof callSandbox>[3] = {}) => callSandbox(via.url, operationId, path, init);
/**
 * The statements the sandboxes send to the database while `work` runs (each a round trip: pg sends a
 * statement's messages at once), but the simulation timer's poll: on PostgreSQL each sandbox asks
 * for the running simulations every tick, whenever it falls (CI once caught one in a request's window).
 */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const query = pg.Client.prototype.query;
  const sent: string[] = [];
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: unknown } | undefined)?.text);
    if (text !== RUNNING_IDS.postgres) sent.push(text);
    return Reflect.apply(query, this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}
const limitHeaders = (answer: Answer) => ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'].map((name) => answer.headers.get(name));

describe.skipIf(skipWithoutPostgres('two processes'))('two sandboxes on one PostgreSQL database (D81, D82)', () => {
  beforeAll(async () => {
    const url = await freshDatabase({ migrated: true });
    const open = async () => startServer(await openPostgresStore(url, () => WALL, { max: 8 }), { adminToken: TEST_ADMIN_TOKEN, requestLog: null });
    [a, b] = [await open(), await open()];
  });
  afterAll(async () => {
    for (const sandbox of [a, b]) {
      await sandbox?.close();
      await sandbox?.store.close();
    }
  });

  it('count a key of 30 a minute once: of 90 calls alternating between them, 30 answered 200 and 60 answered 429, with the headers of one bucket', async () => {
    const { keys } = await tenant(30);
    const answers: Answer[] = [];
    for (let n = 0; n < 90; n += 1) answers.push(await whoami(n % 2 === 0 ? a : b, keys.full));
    const accepted = answers.filter((answer) => answer.status === 200);
    expect(accepted).toHaveLength(30);
    // One bucket, whichever process answers: 29 left, then 28, … (a token every 2 s).
    expect(accepted.map(limitHeaders)).toEqual(Array.from({ length: 30 }, (_, n) => ['30', String(29 - n), '2', null]));
    const refused = answers.slice(30);
    expect(refused.map((answer) => [answer.status, answer.body.type])).toEqual(Array(60).fill([429, 'api.rate_limited']));
    expect(refused.map(limitHeaders)).toEqual(Array(60).fill(['30', '0', '2', '2']));
  });

  it('refuse a key revoked through A on the very next 20 calls through B, which had it cached', async () => {
    const { tenantId } = await tenant();
    const created = (await control(a, 'createApiKey', `/tenants/${tenantId}/keys`, { json: { name: 'to revoke', scopes: ['orders:read'] } })).body;
    expect((await whoami(b, created.secret)).status).toBe(200);
    expect((await control(a, 'revokeApiKey', `/tenants/${tenantId}/keys/${created.id}/revoke`)).status).toBe(200);
    const answers = [];
    for (let n = 0; n < 20; n += 1) answers.push(await whoami(b, created.secret));
    expect(answers.map((answer) => [answer.status, answer.headers.get('www-authenticate') !== null, answer.body.detail])).toEqual(
      Array(20).fill([401, true, 'The API key is not valid or was revoked.']),
    );
  });

  it('refuse the writes of a tenant suspended through A on the very next 20 writes through B, and keep its reads', async () => {
    const { tenantId, keys } = await tenant();
    expect((await pay(b, keys.full, 'EXT-0', payment(1))).status).toBe(200);
    expect((await control(a, 'suspendTenant', `/tenants/${tenantId}/suspend`)).status).toBe(200);
    const answers = [];
    for (let n = 0; n < 20; n += 1) answers.push(await pay(b, keys.full, `EXT-${n}`, payment(100 + n)));
    expect(answers.map((answer) => [answer.status, answer.body.type])).toEqual(Array(20).fill([409, 'tenants.tenant.suspended']));
    expect((await whoami(b, keys.full)).status).toBe(200);
  });

  it("show a clock set through A in B's next request, and in B's control plane", async () => {
    const { tenantId, keys } = await tenant();
    const clock = `/tenants/${tenantId}/clock`;
    expect((await control(b, 'getClock', clock)).body.mode).toBe('system');
    expect((await pay(b, keys.full, 'EXT-0', payment(1))).body.updatedAtUtc).toBe(new Date(WALL).toISOString());
    expect((await control(a, 'setClock', clock, { method: 'PUT', json: { mode: 'frozen', atUtc: '2026-12-01T00:00:00.000Z' } })).status).toBe(200);
    expect((await pay(b, keys.full, 'EXT-9', payment(2))).body.updatedAtUtc).toBe('2026-12-01T00:00:00.000Z');
    expect((await control(a, 'advanceClock', `${clock}/advance`, { json: { by: 'PT1H' } })).status).toBe(200);
    expect((await control(b, 'getClock', clock)).body).toMatchObject({ mode: 'frozen', nowUtc: '2026-12-01T01:00:00.000Z' });
  });

  it('fire a rule of times: 3 added through A exactly 3 times over calls through A and B, concurrent ones too', async () => {
    const { tenantId, keys } = await tenant();
    for (const via of [a, b]) expect((await whoami(via, keys.full)).status).toBe(200);
    const added = await control(a, 'createFault', `/tenants/${tenantId}/faults`, { json: { operation: 'whoami', fault: 'status', status: 503, times: 3 } });
    expect(added.status).toBe(201);
    // The first call through each process fires: B learns of the rule on its next request.
    expect([(await whoami(a, keys.full)).status, (await whoami(b, keys.full)).status]).toEqual([503, 503]);
    // Both processes now hold the rule with one firing left; twenty calls race for it.
    const statuses = (await Promise.all(Array.from({ length: 20 }, (_, n) => whoami(n % 2 === 0 ? a : b, keys.full)))).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 503)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(19);
    for (const via of [a, b]) {
      expect((await control(via, 'listFaults', `/tenants/${tenantId}/faults`)).body.items).toMatchObject([{ id: added.body.id, times: 3, remaining: 0, fired: 3, matched: 22 }]);
    }
  });

  it('record one payment of 40 concurrent requests with one Idempotency-Key spread over A and B: one answered, the rest 429 in flight or its replay', async () => {
    const { tenantId, keys } = await tenant();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => pay(n % 2 === 0 ? a : b, keys.full, 'EXT-3', payment(7), 'shared-key')));
    const fresh = answers.filter((answer) => answer.status === 200 && answer.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const answer of answers.filter((other) => other !== fresh[0])) {
      if (answer.status === 429) expect([answer.body.type, answer.headers.get('retry-after')]).toEqual(['idempotency.inFlight', '1']);
      else expect([answer.status, answer.headers.get('idempotent-replayed'), answer.body]).toEqual([200, 'true', fresh[0]!.body]);
    }
    const payments = statement("SELECT count(*) AS n FROM order_payments p JOIN orders o ON o.id = p.order_id WHERE o.tenant_id = ? AND o.external_id = 'EXT-3'");
    const history = statement("SELECT count(*) AS n FROM order_history h JOIN orders o ON o.id = h.order_id WHERE o.tenant_id = ? AND o.external_id = 'EXT-3' AND h.kind = 'payment'");
    expect([await a.store.sql.one(payments, [tenantId]), await a.store.sql.one(history, [tenantId])]).toEqual([{ n: 1 }, { n: 1 }]);
    // Every key in flight was let go once its answer was out.
    expect(await a.store.sql.one(statement('SELECT count(*) AS n FROM idempotency_in_flight'))).toEqual({ n: 0 });
  });

  it('replay a completed payment sent again through B the moment A answered it, never 429 in flight: each key let go before its answer left, however slow the database', async () => {
    const { keys } = await tenant();
    // A's database lets go of keys slowly: a client that retries on seeing the answer is faster.
    const sql = a.store.sql;
    const run = sql.run;
    sql.run = async (query, args) => {
      if (query.postgres.startsWith('DELETE FROM idempotency_in_flight')) await new Promise((resolve) => setTimeout(resolve, 150));
      return run.call(sql, query, args);
    };
    const repeats: unknown[] = [];
    try {
      for (let n = 0; n < 10; n += 1) {
        const sent = await pay(a, keys.full, `EXT-${5 + n}`, payment(100 + n), `completed-${n}`);
        const again = await pay(b, keys.full, `EXT-${5 + n}`, payment(100 + n), `completed-${n}`);
        repeats.push([sent.status, again.status, again.headers.get('idempotent-replayed')]);
      }
    } finally {
      sql.run = run;
    }
    expect(repeats).toEqual(Array.from({ length: 10 }, () => [200, 200, 'true']));
  });

  it('take over an Idempotency-Key whose holder stopped renewing it once it expired, and never a live one', async () => {
    const { tenantId, keys } = await tenant();
    const hold = statement("INSERT INTO idempotency_in_flight (tenant_id, key, holder, expires_at) VALUES (?, ?, 'a process', clock_timestamp() + CAST(? AS interval))");
    await a.store.sql.run(hold, [tenantId, 'held', '1 minute']);
    await a.store.sql.run(hold, [tenantId, 'abandoned', '-1 second']);
    for (const via of [a, b]) expect((await pay(via, keys.full, 'EXT-4', payment(8), 'held')).body.type).toBe('idempotency.inFlight');
    const answer = await pay(b, keys.full, 'EXT-4', payment(9), 'abandoned');
    expect([answer.status, answer.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('renew a key held in flight: its expiry moves a lease ahead of the database\'s time', async () => {
    const { tenantId } = await tenant();
    const lease = (await a.store.shared!.inFlight.take(tenantId, 'renewed'))!;
    expect(await b.store.shared!.inFlight.take(tenantId, 'renewed')).toBeNull();
    const expiry = statement(
      "SELECT expires_at - clock_timestamp() > interval '29 seconds' AS ahead, CAST(extract(epoch FROM expires_at) * 1000000 AS bigint) AS at FROM idempotency_in_flight WHERE key = 'renewed'",
    );
    const before = (await a.store.sql.one<{ ahead: number; at: number }>(expiry))!;
    await lease.renew();
    const after = (await a.store.sql.one<{ ahead: number; at: number }>(expiry))!;
    expect(after.ahead).toBe(1);
    expect(after.at).toBeGreaterThan(before.at);
    await lease.release();
    const next = await b.store.shared!.inFlight.take(tenantId, 'renewed');
    expect(next).not.toBeNull();
    await next!.release();
  });

  it('cost an authenticated GET of a known key one statement: the token taken, which answers the version too', async () => {
    const { keys } = await tenant();
    const feed = () => call(b.url, 'orderFeed', '/api/v1/integration/orders?limit=5', { key: keys.full });
    // The first request of a key reads it and its tenant's caches; the next ones find them.
    expect((await feed()).status).toBe(200);
    expect(await statementsOf(async () => expect((await whoami(b, keys.full)).status).toBe(200))).toHaveLength(1);
    expect(await statementsOf(async () => expect((await feed()).status).toBe(200))).toHaveLength(2);
  });

  it('refuse every key through B on its next request after a reset through A (its tenants are gone, versions and all)', async () => {
    const { keys } = await tenant();
    expect((await whoami(b, keys.full)).status).toBe(200);
    expect((await control(a, 'resetSandbox', '/reset', { method: 'POST' })).status).toBe(204);
    expect((await whoami(b, keys.full)).status).toBe(401);
  });
});
