/**
 * The commit-order problem of D74 end to end, on PostgreSQL: writers calling the sandbox
 * over HTTP at once (the control plane's order intake, the integration API's payments) and
 * a follower reading the order feed over HTTP meanwhile, paging with `nextCursor` and, once
 * caught up, polling `since` its last stamp (D4, D6). A change is missed when an order's
 * last state never reached the follower.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, releaseCluster, skipWithoutPostgres } from '../../dev/testing/postgres.ts';
import { call, callSandbox, orderIntake, TEST_ADMIN_TOKEN } from '../../dev/testing/sandbox.ts';
import { memoryLogger } from '../http/log.ts';
import { type RunningSandbox, startSandbox } from '../start/start-sandbox.ts';

const WRITERS = 4;
const WRITES_PER_WRITER = 750;
const ORDERS = '/api/v1/integration/orders';

describe.skipIf(skipWithoutPostgres('follow over HTTP'))('a follower of the order feed over HTTP, under concurrent writers, on PostgreSQL (D7, D74)', () => {
  let sandbox: RunningSandbox;
  let tenantId: string;
  const keys: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ store: await freshDatabase(), adminToken: TEST_ADMIN_TOKEN, log: memoryLogger() });
    tenantId = (await callSandbox(sandbox.url, 'createTenant', '/tenants', { json: { name: 'Followed', country: 'NL' } })).body.id;
    // A key per writer and one for the follower, each at the highest rate limit (D14).
    for (let n = 0; n <= WRITERS; n++) {
      const created = await callSandbox(sandbox.url, 'createApiKey', `/tenants/${tenantId}/keys`, { json: { name: `k${n}`, scopes: ['orders:read', 'orders:write'], rateLimitPerMinute: 6000 } });
      keys.push(created.body.secret);
    }
  });
  afterAll(async () => {
    await sandbox?.close();
    await releaseCluster();
  });

  /** One writer: a new order through the control plane, or (one time in three) a payment on one of its earlier orders. */
  async function writer(n: number): Promise<void> {
    const mine: string[] = [];
    for (let w = 0; w < WRITES_PER_WRITER; w++) {
      if (mine.length > 0 && w % 3 === 2) {
        const externalId = mine[Math.floor(Math.random() * mine.length)]!;
        const paid = await call(sandbox.url, 'attachPayment', `${ORDERS}/externalid/${externalId}/payment`, {
          method: 'POST', key: keys[n]!, json: { paymentId: randomUUID(), amount: 1, currency: 'EUR' },
        });
        expect(paid.status).toBe(200);
      } else {
        const externalId = `W${n}-${w}`;
        const created = await callSandbox(sandbox.url, 'createOrder', `/tenants/${tenantId}/orders`, { json: orderIntake(externalId) });
        expect(created.status).toBe(201);
        mine.push(externalId);
      }
    }
  }

  /** The follower: every `(id, updatedAtUtc)` it read, polling until `done` and then once more to the end. */
  async function follower(done: () => boolean, during: (seen: number) => void = () => {}): Promise<Set<string>> {
    const seen = new Set<string>();
    let cursor: string | null = null;
    let since: string | null = null;
    for (let last = false; ; ) {
      const finishing = done();
      if (!finishing) during(seen.size);
      const query: string = cursor !== null ? `&cursor=${encodeURIComponent(cursor)}` : since !== null ? `&since=${encodeURIComponent(since)}` : '';
      const page = await call(sandbox.url, 'orderFeed', `${ORDERS}?limit=100${query}`, { key: keys[WRITERS]! });
      expect(page.status).toBe(200);
      const items = page.body.items as { id: string; updatedAtUtc: string }[];
      for (const item of items) seen.add(`${item.id} ${item.updatedAtUtc}`);
      cursor = page.body.nextCursor;
      if (cursor !== null) continue;
      // Caught up (D6): poll again from the last stamp read (D4, inclusive).
      since = items.at(-1)?.updatedAtUtc ?? since;
      if (last) return seen;
      last = finishing;
      // A caught-up poller waits a little, as a client would, within its rate limit.
      if (!last) await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it(`misses no change over ${WRITERS * WRITES_PER_WRITER} writes by ${WRITERS} concurrent writers`, { timeout: 600_000 }, async () => {
    expect(sandbox.store.sql.engine).toBe('postgres');
    let finished = false;
    let seenDuringWrites = 0;
    const following = follower(() => finished, (count) => (seenDuringWrites = count));
    await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
    finished = true;
    const seen = await following;
    // The final state of every order, read once the writes are over.
    const final: { id: string; updatedAtUtc: string }[] = [];
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const page = await call(sandbox.url, 'orderFeed', `${ORDERS}?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, { key: keys[0]! });
      final.push(...page.body.items);
      cursor = page.body.nextCursor;
    }
    const created = Math.ceil((WRITES_PER_WRITER * 2) / 3) * WRITERS;
    expect(final).toHaveLength(created);
    // Every write took its own stamp (D7): the payments moved their orders past every earlier write.
    const stamps = final.map((order) => order.updatedAtUtc);
    expect(new Set(stamps).size).toBe(stamps.length);
    // The follower read while the writers wrote, not only once they were done.
    expect(seenDuringWrites).toBeGreaterThan(final.length / 2);
    const missed = final.filter((order) => !seen.has(`${order.id} ${order.updatedAtUtc}`));
    expect(missed).toEqual([]);
  });
});
