/**
 * The loaded runs' latency does what their proof relies on: the slowed SQLite `Sql` delays
 * every statement once it is on (a unit of work by one draw per statement, still one
 * transaction), and the proxy in front of PostgreSQL delays what a client sends without
 * reordering it. Fixed draws of 30 ms, so that the bounds below hold on a busy machine.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/store/db.ts';
import { q, statement } from '../../server/store/sql.ts';
import { sqliteSql } from '../../server/store/sqlite-sql.ts';
import { type Latency, uniformLatency } from './latency.ts';
import { slowSqliteSql } from './slow-sql.ts';
import { startSlowProxy } from './slow-proxy.ts';

const DRAW_MS = 30;
/** A timer may fire a millisecond before its time. */
const atLeast = (draws: number) => draws * DRAW_MS - 2;

/** How long `work` takes, in milliseconds, and what it answers or throws. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; outcome: PromiseSettledResult<T> }> {
  const started = performance.now();
  const [outcome] = await Promise.allSettled([work()]);
  return { ms: performance.now() - started, outcome: outcome! };
}

describe('the slowed SQLite Sql', () => {
  const count = statement('SELECT count(*) AS n FROM events');
  const insert = statement('INSERT INTO events (name) VALUES (?)');
  async function slowed(latency = uniformLatency(DRAW_MS, DRAW_MS)): Promise<{ sql: ReturnType<typeof slowSqliteSql>; latency: Latency }> {
    const sql = slowSqliteSql(sqliteSql(new Database(':memory:') as Db), latency);
    await sql.run(statement('CREATE TABLE events (name TEXT NOT NULL)'));
    return { sql, latency };
  }

  it('answers at once while the latency is off', async () => {
    const { sql, latency } = await slowed();
    expect(await sql.one(count)).toEqual({ n: 0 });
    expect(latency.delayed).toBe(0);
  });

  it('delays each statement once on, and a unit of work by one draw per statement it ran', async () => {
    const { sql, latency } = await slowed();
    latency.on = true;
    const single = await timed(() => sql.run(insert, ['one']));
    expect(single.ms).toBeGreaterThanOrEqual(atLeast(1));
    const unit = await timed(() =>
      sql.write(null, function* () {
        yield* q.run(insert, ['two']);
        yield* q.run(insert, ['three']);
        return (yield* q.one<{ n: number }>(count))!.n;
      }),
    );
    expect(unit.outcome).toEqual({ status: 'fulfilled', value: 3 });
    expect(unit.ms).toBeGreaterThanOrEqual(atLeast(3));
    expect(latency.delayed).toBe(4);
  });

  it('keeps a failing unit one transaction: rolled back, its finally run, its delays paid', async () => {
    const { sql, latency } = await slowed();
    latency.on = true;
    let finallyRan = false;
    const unit = await timed(() =>
      sql.write(null, function* () {
        try {
          yield* q.run(insert, ['kept?']);
          yield* q.run(statement('INSERT INTO nowhere VALUES (1)'));
        } finally {
          finallyRan = true;
        }
      }),
    );
    expect(unit.outcome.status).toBe('rejected');
    expect(unit.ms).toBeGreaterThanOrEqual(atLeast(2));
    expect(finallyRan).toBe(true);
    latency.on = false;
    expect(await sql.one(count)).toEqual({ n: 0 });
  });

  it('ends every delay at once when released', async () => {
    const { sql, latency } = await slowed(uniformLatency(60_000, 60_000));
    latency.on = true;
    const pending = timed(() => sql.one(count));
    latency.release();
    const { ms, outcome } = await pending;
    expect(outcome).toEqual({ status: 'fulfilled', value: { n: 0 } });
    expect(ms).toBeLessThan(5_000);
  });
});

describe('the latency proxy', () => {
  let upstream: Server | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await new Promise((resolve) => upstream?.close(resolve));
  });

  /** An echo server behind a proxy with `latency`; answers a connected client and the echoes it has received so far. */
  async function echoThroughProxy(latency: Latency): Promise<{ client: Socket; received: () => { text: string; at: number }[] }> {
    upstream = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', resolve));
    const proxy = await startSlowProxy(`postgres://user@127.0.0.1:${(upstream.address() as AddressInfo).port}/db`, latency);
    close = proxy.close;
    const { port } = new URL(proxy.url);
    const client = connect({ host: '127.0.0.1', port: Number(port) });
    await new Promise((resolve) => client.once('connect', resolve));
    const received: { text: string; at: number }[] = [];
    client.on('data', (chunk) => received.push({ text: chunk.toString(), at: performance.now() }));
    return { client, received: () => received };
  }

  it('holds each chunk a client sends for a draw, never letting a later one overtake it', async () => {
    // The first chunk draws the longest delay: the others must still come after it.
    const draws = [3 * DRAW_MS, DRAW_MS, DRAW_MS];
    const latency: Latency = { ...uniformLatency(), on: true, draw: () => draws.shift() ?? DRAW_MS };
    const { client, received } = await echoThroughProxy(latency);
    const sentAt = performance.now();
    for (const [index, text] of ['a', 'b', 'c'].entries()) setTimeout(() => client.write(text), index * 5);
    await expect.poll(() => received().map(({ text }) => text).join(''), { timeout: 5000 }).toBe('abc');
    expect(received()[0]!.at - sentAt).toBeGreaterThanOrEqual(atLeast(3));
    client.destroy();
  });

  it('passes chunks on at once while the latency is off', async () => {
    const latency = uniformLatency(60_000, 60_000);
    const { client, received } = await echoThroughProxy(latency);
    client.write('now');
    await expect.poll(() => received().map(({ text }) => text).join(''), { timeout: 5000 }).toBe('now');
    expect(latency.delayed).toBe(0);
    client.destroy();
  });
});
