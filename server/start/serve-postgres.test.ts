/**
 * `waybill serve --db postgres://…` as a user runs it (D78): the banner names the database
 * with its password masked, WAYBILL_DB works as --db, a database a newer waybill migrated and
 * an unreachable server are refused in one line, --seed loads into an empty database once,
 * and a `kill -9` under write load loses no write it acknowledged.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, releaseCluster, queryDatabase as query, skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { bannerKey, feeds, serve, waybill } from '../../dev/testing/serve-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'waybill-serve-pg-'));
const ADMIN_TOKEN = 'wba_serve-on-postgres-admin-token';
const env = { ...process.env, WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN };

/** `url` with `password` in its user part. */
const withPassword = (url: string, password: string) => url.replace('postgres@', `postgres:${password}@`);

describe('--db schemes', () => {
  it('refuses a --db or WAYBILL_DB of another scheme in one line naming the schemes waybill serves, and makes no folder', async () => {
    for (const [args, extra] of [[['--db', 'mysql://root:hunter2@127.0.0.1/db'], {}], [[], { WAYBILL_DB: 'mysql://root:hunter2@127.0.0.1/db' }]] as const) {
      const run = await waybill(dir, ['serve', '--port', '0', ...args], { ...env, ...extra });
      expect(run.code).toBe(2);
      expect(run.err.trim().split('\n')).toHaveLength(1);
      expect(run.err).toContain("--db mysql://root:***@127.0.0.1/db: waybill serves SQLite (a file path, or ':memory:') and PostgreSQL (postgres:// or postgresql://), not mysql:");
      expect(run.err).not.toContain('hunter2');
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe.skipIf(skipWithoutPostgres('waybill serve'))('waybill serve on PostgreSQL', () => {
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await releaseCluster();
  });

  it('seeds the demo tenant into an empty database, shows the URL with its password masked, and finds it again from WAYBILL_DB', async () => {
    const url = withPassword(await freshDatabase(), 's3cret-pw');
    const first = await serve(dir, ['--db', url], env);
    expect(first.banner).toMatch(/created the demo tenant/);
    expect(first.banner).toContain(`  database: ${url.replace('s3cret-pw', '***')}\n`);
    expect(first.banner + first.err).not.toContain('s3cret-pw');
    const { key, url: base } = bannerKey(first.banner);
    const data = await feeds(base, key);
    expect(data.orders.length).toBeGreaterThan(0);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // The rows are PostgreSQL's: the sandbox wrote there, not into a file named after the URL.
    expect((await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM orders'))[0]!.n).toBe(data.orders.length);
    const again = await serve(dir, [], { ...env, WAYBILL_DB: url });
    expect(again.banner).not.toMatch(/created the demo tenant/);
    expect(again.banner).toMatch(/existing database/);
    expect((await feeds(bannerKey(first.banner).url.replace(/:\d+$/, `:${new URL(/listening on (\S+)/.exec(again.banner)![1]!).port}`), key)).orders).toEqual(data.orders);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 120_000);

  it('loads --seed 3 into an empty database once; a restart finds it, a database holding other data is refused', async () => {
    const url = await freshDatabase();
    const loaded = await serve(dir, ['--seed', '3', '--db', url], env);
    expect(loaded.banner).toMatch(/loaded fixtures seed 3 into tenant [0-9a-f-]{36}: 500 orders, 125 trips/);
    const { key, url: base } = bannerKey(loaded.banner);
    const data = await feeds(base, key);
    expect(data.orders).toHaveLength(500);
    expect(data.trips).toHaveLength(125);
    loaded.child.kill('SIGTERM');
    expect(await loaded.exited).toBe(0);
    const again = await serve(dir, ['--seed', '3', '--db', url], env);
    expect(again.banner).toMatch(/fixtures seed 3: already loaded into tenant/);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    const other = await waybill(dir, ['serve', '--port', '0', '--seed', '4', '--db', url], env);
    expect(other.code).toBe(2);
    expect(other.err.trim().split('\n')).toHaveLength(1);
    expect(other.err).toContain(`--seed 4: the database ${url} already holds other data`);
  }, 120_000);

  it('refuses in one line, leaving it untouched, a database a newer waybill migrated, and a server that does not answer', async () => {
    const url = withPassword(await freshDatabase(), 'pw-of-newer');
    const first = await serve(dir, ['--db', url], env);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await query(url, "INSERT INTO waybill_migrations (history, version, name) VALUES ('sandbox', 999, '999-from-the-future.sql')");
    const before = await query(url, 'SELECT count(*)::int AS n FROM tenants');
    const newer = await waybill(dir, ['serve', '--port', '0', '--db', url], env);
    expect(newer.code).toBe(2);
    expect(newer.err.trim().split('\n')).toHaveLength(1);
    expect(newer.err).toContain(`--db ${url.replace('pw-of-newer', '***')}: the database's 'sandbox' schema is at version 999, newer than this waybill's`);
    expect(newer.err).not.toContain('pw-of-newer');
    expect(await query(url, 'SELECT count(*)::int AS n FROM tenants')).toEqual(before);
    // A port nothing listens on: taken, then freed.
    const probe = createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
    await new Promise((resolve) => probe.close(resolve));
    const down = await waybill(dir, ['serve', '--port', '0', '--db', `postgres://waybill:pw-down@127.0.0.1:${port}/waybill`], env);
    expect(down.code).toBe(2);
    expect(down.err.trim().split('\n')).toHaveLength(1);
    expect(down.err).toMatch(new RegExp(`^waybill: --db postgres://waybill:\\*\\*\\*@127\\.0\\.0\\.1:${port}/waybill: .*ECONNREFUSED`));
  }, 120_000);

  it('loses no acknowledged write to a kill -9 under write load', async () => {
    const url = await freshDatabase();
    const { child, banner, exited } = await serve(dir, ['--db', url], env);
    const { url: base } = bannerKey(banner);
    const tenantId = /tenants\/(\S+?)\/keys/.exec(banner)![1]!;
    const key = (await (await fetch(`${base}/sandbox/v1/tenants/${tenantId}/keys`, {
      method: 'POST', headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'load', scopes: ['orders:read', 'orders:write', 'trips:read'], rateLimitPerMinute: 6000 }),
    })).json() as { secret: string }).secret;
    const live = (await feeds(base, key)).orders as { externalId: string | null }[];
    const externalIds = live.map((order) => order.externalId).filter((id): id is string => id !== null);
    const paymentsBefore = (await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM order_payments'))[0]!.n;
    // Writers: payments through the integration API and new orders through the control plane, each remembered once answered 2xx.
    const paid: string[] = [];
    const created: string[] = [];
    let failed = 0;
    let stop = false;
    const writer = async (n: number) => {
      for (let w = 0; !stop; w++) {
        try {
          if (w % 2 === 0) {
            const paymentId = randomUUID();
            const answer = await fetch(`${base}/api/v1/integration/orders/externalid/${encodeURIComponent(externalIds[(n * 7 + w) % externalIds.length]!)}/payment`, {
              method: 'POST', headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ paymentId, amount: 1, currency: 'EUR' }),
            });
            if (answer.status === 200) paid.push(paymentId);
          } else {
            const externalId = `KILL-${n}-${w}`;
            const answer = await fetch(`${base}/sandbox/v1/tenants/${tenantId}/orders`, {
              method: 'POST', headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ externalId, type: 'Delivery', lines: [{ warehouseId: randomUUID(), productId: randomUUID(), quantity: 1, weightKg: 1, volumeM3: 0.01, price: 1 }] }),
            });
            if (answer.status === 201) created.push(externalId);
          }
        } catch {
          // The connection the kill cut: its write may or may not have committed, and was never acknowledged.
          failed++;
          return;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, n) => writer(n));
    // Killed mid-load, once a few hundred writes were acknowledged.
    while (paid.length + created.length < 400) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGKILL');
    await exited;
    stop = true;
    await Promise.all(writers);
    const acknowledged = { payments: paid.length, orders: created.length };
    const storedPayments = new Set((await query<{ payment_id: string }>(url, 'SELECT payment_id FROM order_payments')).map((row) => row.payment_id));
    const storedOrders = new Set((await query<{ external_id: string }>(url, "SELECT external_id FROM orders WHERE external_id LIKE 'KILL-%'")).map((row) => row.external_id));
    expect({ lostPayments: paid.filter((id) => !storedPayments.has(id)), lostOrders: created.filter((id) => !storedOrders.has(id)) }).toEqual({ lostPayments: [], lostOrders: [] });
    expect(acknowledged.payments + acknowledged.orders).toBeGreaterThanOrEqual(400);
    // Writes were in flight when the process died: the kill struck under load.
    expect(failed).toBeGreaterThan(0);
    console.info(`kill -9 under write load: ${acknowledged.payments} payments and ${acknowledged.orders} orders acknowledged, all stored; ${failed} requests cut; ${storedPayments.size - paymentsBefore - paid.length} payments and ${storedOrders.size - created.length} orders committed but never acknowledged`);
    // The database opens again and serves.
    const again = await serve(dir, ['--db', url], env);
    expect(again.banner).toMatch(/existing database/);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 180_000);
});
