/**
 * The commit-order problem of D74 at SQL level, on the real schema: concurrent writers on one
 * tenant and a follower paging the order feed with its keyset predicate (feed-sql.ts) and,
 * once caught up, `since` its last stamp (D4, D6). A change is missed when its row's last
 * state never reached the follower.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, releaseCluster, skipWithoutPostgres } from '../../../dev/testing/postgres.ts';
import { type FeedPosition, KEY_STRINGS, lowerBound, toFeedRows } from '../feed-sql.ts';
import { migrate } from './migrate.ts';
import { openPool } from './pool.ts';
import { nextStamp, tenantWrite } from './tenant-write.ts';
import { inTransaction } from './transaction.ts';

const TENANT = 'tenant-commit-order';
const WRITERS = 4;
const WRITES_PER_WRITER = 1000;

/** The order feed's page query, as `orders.ts` reads it, in PostgreSQL's placeholders. */
const FEED_PAGE = `SELECT o.updated_at, o.id, o.status, json_build_object('id', o.id, 'updatedAtUtc', o.updated_at)::text
  FROM orders o WHERE o.tenant_id = $1 AND o.archived_at IS NULL AND (o.updated_at, o.id) > ($2, $3)
  ORDER BY o.updated_at, o.id LIMIT $4`;

/** How a write gets its stamp: under the tenant's write lock until it commits (D74), or from a counter of its own, committed first. */
type Stamping = 'tenant lock' | 'stamp committed apart';

/** One write: a new order, or (one time in three) a change to one of the writer's earlier orders, with its history entry. */
async function write(pool: pg.Pool, stamping: Stamping, mine: string[]): Promise<void> {
  const existing = mine.length > 0 && Math.random() < 1 / 3 ? mine[Math.floor(Math.random() * mine.length)] : undefined;
  const id = existing ?? randomUUID();
  const apply = async (client: pg.ClientBase, stamp: string) => {
    if (existing === undefined) {
      await client.query(
        `INSERT INTO orders (id, tenant_id, short_id, status, type, created_at, updated_at) VALUES ($1, $2, $3, 'Open', 'Delivery', $4, $4)`,
        [id, TENANT, id.slice(0, 8), stamp],
      );
    } else {
      await client.query('UPDATE orders SET updated_at = $1 WHERE id = $2', [stamp, id]);
    }
    await client.query("INSERT INTO order_history (order_id, at, kind, data) VALUES ($1, $2, 'change', '{}')", [id, stamp]);
  };
  if (stamping === 'tenant lock') {
    await tenantWrite(pool, TENANT, async (client) => apply(client, await nextStamp(client, TENANT, Date.now())));
  } else {
    // Still strictly increasing (D7's first half), but a slower write may commit after a later stamp is read.
    const stamp = await inTransaction(pool, (client) => nextStamp(client, TENANT, Date.now()));
    await inTransaction(pool, (client) => apply(client, stamp));
  }
  if (existing === undefined) mine.push(id);
}

/** A follower of the tenant's order feed, polling until `done` and then once more to the end; returns every `(id, updatedAt)` it saw. */
async function follow(pool: pg.Pool, done: () => boolean): Promise<Set<string>> {
  const seen = new Set<string>();
  let position: FeedPosition | null = null;
  let since: string | null = null;
  for (let last = false; ; ) {
    const finishing = done();
    const [after, afterId] = lowerBound(position, since);
    const { rows } = await pool.query<[string, string, string, string]>({ text: FEED_PAGE, values: [TENANT, after, afterId, 101], rowMode: 'array' });
    const page = toFeedRows(rows, 100);
    for (let at = 0; at < page.keys.length; at += KEY_STRINGS) seen.add(`${page.keys[at]} ${page.keys[at + 1]}`);
    if (page.next !== null) {
      position = page.next;
      continue;
    }
    // Caught up (D6): poll again `since` the last stamp processed (D4).
    if (page.keys.length > 0) since = page.keys[page.keys.length - KEY_STRINGS + 1]!;
    position = null;
    if (last) return seen;
    last = finishing;
  }
}

/** Runs the writers and the follower on a fresh tenant; returns how many writes there were and which final states the follower missed. */
async function race(pools: { writers: pg.Pool[]; follower: pg.Pool }, stamping: Stamping) {
  await pools.follower.query('DELETE FROM order_history; DELETE FROM orders');
  let finished = false;
  const following = follow(pools.follower, () => finished);
  await Promise.all(
    pools.writers.map(async (pool) => {
      const mine: string[] = [];
      for (let n = 0; n < WRITES_PER_WRITER; n++) await write(pool, stamping, mine);
    }),
  );
  finished = true;
  const seen = await following;
  const { rows } = await pools.follower.query<{ id: string; updated_at: string }>('SELECT id, updated_at FROM orders WHERE tenant_id = $1', [TENANT]);
  const { rows: stamps } = await pools.follower.query<{ writes: number; distinct: number }>(
    'SELECT count(*)::int AS writes, count(DISTINCT at)::int AS distinct FROM order_history',
  );
  return { ...stamps[0]!, orders: rows.length, missed: rows.filter((row) => !seen.has(`${row.id} ${row.updated_at}`)).length };
}

describe.skipIf(skipWithoutPostgres('feed commit order'))('a follower of the feed under concurrent writers on PostgreSQL (D7, D74)', () => {
  let pools: { writers: pg.Pool[]; follower: pg.Pool };
  beforeAll(async () => {
    const url = await freshDatabase();
    pools = { writers: Array.from({ length: WRITERS }, () => openPool(url, { max: 1 })), follower: openPool(url, { max: 1 }) };
    await migrate(pools.follower);
    await pools.follower.query("INSERT INTO tenants (id, name, country, created_at) VALUES ($1, 'Commit order', 'NL', '2026-01-01T00:00:00.000Z')", [TENANT]);
  });
  afterAll(async () => {
    await Promise.all([...(pools?.writers ?? []), pools?.follower].map((pool) => pool?.end()));
    await releaseCluster();
  });

  it(`misses no change over ${WRITERS * WRITES_PER_WRITER} writes when each write holds the tenant's write lock from its stamp to its commit`, { timeout: 300_000 }, async () => {
    const result = await race(pools, 'tenant lock');
    expect(result.writes).toBe(WRITERS * WRITES_PER_WRITER);
    expect(result.distinct).toBe(result.writes);
    expect(result.orders).toBeGreaterThan(WRITERS * WRITES_PER_WRITER / 2);
    expect(result.missed).toBe(0);
  });

  it('misses changes when stamps strictly increase but are committed apart from their writes: the test above has teeth', { timeout: 300_000 }, async () => {
    const result = await race(pools, 'stamp committed apart');
    expect(result.writes).toBe(WRITERS * WRITES_PER_WRITER);
    expect(result.distinct).toBe(result.writes);
    expect(result.missed).toBeGreaterThan(0);
  });
});
