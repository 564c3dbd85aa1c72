/**
 * The rate limit's one statement on PostgreSQL (D81), on a throwaway cluster of the
 * machine's binaries made durable as a real one is (fsync, synchronous commit): µs a call
 * one at a time, and with 16 in flight (on one key, whose row they queue on, and on 16 keys),
 * beside `SELECT 1`, a bare round trip through the same pool; and the same statement with the
 * buckets' table made LOGGED, as a plain table would be. Medians of interleaved rounds.
 * Run: `npx tsx dev/bench/rate-limit-statement.ts`.
 */
import { performance } from 'node:perf_hooks';
import { openPostgresStore } from '../../server/store/postgres/open-store.ts';
import { statement } from '../../server/store/sql.ts';
import { startCluster } from '../testing/postgres-cluster.ts';

const CALLS = 4000;
const ROUNDS = 5;
const IN_FLIGHT = 16;

/** µs a call of `call` (given which caller makes it), `width` callers at once, `CALLS` in all. */
async function perCall(width: number, call: (caller: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: width }, async (_, caller) => {
    for (let n = 0; n < CALLS / width; n += 1) await call(caller);
  }));
  return ((performance.now() - started) * 1000) / CALLS;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

const cluster = await startCluster({ settings: ['fsync = on', 'synchronous_commit = on', 'full_page_writes = on'] });
try {
  const store = await openPostgresStore(cluster.url, Date.now, { max: IN_FLIGHT });
  const tenant = await store.tenants.create({ name: 'Bench', country: 'NL' });
  const keys = await Promise.all(Array.from({ length: IN_FLIGHT }, (_, n) => store.keys.create({ tenantId: tenant.id, name: `k${n}`, scopes: [], rateLimit: 6000 })));
  const { buckets } = store.shared!;
  const bare = statement('SELECT 1 AS one');
  const cases: Record<string, () => Promise<number>> = {
    'SELECT 1, one at a time': () => perCall(1, () => store.sql.one(bare)),
    'token, one at a time': () => perCall(1, () => buckets.take(tenant.id, keys[0]!.id, 6000)),
    [`SELECT 1, ${IN_FLIGHT} in flight`]: () => perCall(IN_FLIGHT, () => store.sql.one(bare)),
    [`token, ${IN_FLIGHT} in flight on one key`]: () => perCall(IN_FLIGHT, () => buckets.take(tenant.id, keys[0]!.id, 6000)),
    [`token, ${IN_FLIGHT} in flight on ${IN_FLIGHT} keys`]: () => perCall(IN_FLIGHT, (caller) => buckets.take(tenant.id, keys[caller]!.id, 6000)),
  };
  const tokenCases = Object.keys(cases).filter((name) => name.startsWith('token'));
  const results = new Map<string, number[]>([...Object.keys(cases), ...tokenCases.map((name) => `${name}, LOGGED`)].map((name) => [name, []]));
  const logged = (on: boolean) => store.sql.run(statement(`ALTER TABLE rate_limit_buckets SET ${on ? 'LOGGED' : 'UNLOGGED'}`));
  for (const run of Object.values(cases)) await run();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, run] of Object.entries(cases)) results.get(name)!.push(await run());
    await logged(true);
    for (const name of tokenCases) results.get(`${name}, LOGGED`)!.push(await cases[name]!());
    await logged(false);
  }
  console.log(`PostgreSQL ${cluster.version} (fsync, synchronous commit), ${CALLS} calls a case, median of ${ROUNDS} interleaved rounds (µs a call; rounds in brackets)`);
  for (const [name, values] of results) console.log(`${name.padEnd(44)} ${median(values).toFixed(0).padStart(6)}  [${values.map((value) => value.toFixed(0)).join(', ')}]`);
  await store.close();
} finally {
  cluster.stop();
}
