import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, releaseCluster, skipWithoutPostgres } from '../../../dev/testing/postgres.ts';
import { q, type Sql, statement } from '../sql.ts';
import { numberPlaceholders } from './placeholders.ts';
import { postgresSql } from './sql.ts';

describe('numbering placeholders for PostgreSQL', () => {
  it('numbers each ? in order, leaving those inside literals, quoted names and comments alone', () => {
    expect(numberPlaceholders('SELECT a FROM t WHERE b = ? AND c IN (?, ?)')).toBe('SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)');
    expect(numberPlaceholders("SELECT '?', 'it''s ?', \"a?\" FROM t WHERE x = ? -- why?\n AND y = ? /* or ? */ AND z = ?")).toBe(
      "SELECT '?', 'it''s ?', \"a?\" FROM t WHERE x = $1 -- why?\n AND y = $2 /* or ? */ AND z = $3",
    );
    expect(numberPlaceholders('SELECT 1')).toBe('SELECT 1');
  });
});

const TABLE = statement(`CREATE TABLE things (
  id text COLLATE "C" PRIMARY KEY, tenant_id text NOT NULL, n bigint NOT NULL DEFAULT 0, x double precision, blob bytea, flag integer NOT NULL DEFAULT 0)`);
const INSERT = statement('INSERT INTO things (id, tenant_id, n, x, blob) VALUES (?, ?, ?, ?, ?)');
const BY_ID = statement('SELECT id, n, x, blob, flag FROM things WHERE id = ?');
const COUNT = statement('SELECT count(*) AS count, sum(n) AS total, avg(n) AS mean FROM things');
const ADVISORY_HELD = statement("SELECT count(*) AS held FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted");
// Of this database only: the cluster is the run's, and other test files hold and wait for locks in theirs.
const WAITING_ON_ADVISORY = statement("SELECT count(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");

describe.skipIf(skipWithoutPostgres('Sql contract'))('the store contract on PostgreSQL (server/store/postgres/sql.ts)', () => {
  let sql: Sql;
  beforeAll(async () => {
    sql = postgresSql(await freshDatabase(), { max: 4 });
    await sql.run(TABLE);
  });
  afterAll(async () => {
    await sql?.close();
    await releaseCluster();
  });

  it('reads rows as SQLite answers them: bigint, counts and sums as numbers, comparisons as 1 or 0, built JSON as text, bytea as a Buffer', async () => {
    expect(await sql.run(INSERT, ['a', 't1', 1_700_000_000_123, 1.5, Buffer.from([1, 2])])).toEqual({ changes: 1 });
    await sql.run(INSERT, ['b', 't1', 2, null, null]);
    expect(await sql.one(BY_ID, ['a'])).toEqual({ id: 'a', n: 1_700_000_000_123, x: 1.5, blob: Buffer.from([1, 2]), flag: 0 });
    expect(await sql.one(BY_ID, ['missing'])).toBeUndefined();
    expect(await sql.one(COUNT)).toEqual({ count: 2, total: 1_700_000_000_125, mean: 850_000_000_062.5 });
    expect(await sql.one(statement("SELECT 1 = 1 AS yes, 1 = 2 AS no, EXISTS (SELECT 1 FROM things) AS some, json_build_object('a', 1, 'b', 'x') AS doc"))).toEqual({
      yes: 1, no: 0, some: 1, doc: '{"a" : 1, "b" : "x"}',
    });
    expect(await sql.all(statement('SELECT id FROM things ORDER BY id'))).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(await sql.tuples(statement('SELECT id, n, flag FROM things ORDER BY id'))).toEqual([['a', 1_700_000_000_123, 0], ['b', 2, 0]]);
    // Past 2^53 a number would be wrong: a BigInt says so instead.
    expect(await sql.one(statement('SELECT 9007199254740993::bigint AS big'))).toEqual({ big: 9007199254740993n });
    expect(await sql.run(statement('UPDATE things SET flag = 1 WHERE tenant_id = ?'), ['t1'])).toEqual({ changes: 2 });
  });

  it('runs a statement of each engine\'s own text, and prepares each text once per connection under one name', async () => {
    const own = statement({ sqlite: 'SELECT max(1, 2) AS m', postgres: 'SELECT greatest(1, 2) AS m' });
    const single = postgresSql(await freshDatabase(), { max: 1 });
    try {
      for (let n = 0; n < 3; n++) expect(await single.one(own)).toEqual({ m: 2 });
      const statements = await single.all<{ name: string; statement: string }>(statement('SELECT name, statement FROM pg_prepared_statements'));
      expect(statements.filter((row) => row.statement === 'SELECT greatest(1, 2) AS m')).toEqual([{ name: expect.stringMatching(/^waybill-\d+$/), statement: 'SELECT greatest(1, 2) AS m' }]);
    } finally {
      await single.close();
    }
  });

  it('commits a unit of work when its generator returns, answering each step and returning its value', async () => {
    const result = await sql.write('t2', function* () {
      yield* q.run(INSERT, ['c', 't2', 5, null, null]);
      const row = yield* q.one<{ n: number }>(BY_ID, ['c']);
      const changed = yield* q.run(statement('UPDATE things SET n = n + ? WHERE id = ?'), [row!.n, 'c']);
      const all = yield* q.all<{ id: string }>(statement("SELECT id FROM things WHERE tenant_id = 't2'"));
      return { changed, ids: all.map((r) => r.id) };
    });
    expect(result).toEqual({ changed: { changes: 1 }, ids: ['c'] });
    expect(await sql.one(BY_ID, ['c'])).toMatchObject({ n: 10 });
  });

  it('rolls a unit of work back when its generator throws, and rethrows', async () => {
    const refusal = new Error('refused after a write');
    await expect(sql.write('t3', function* () {
      yield* q.run(INSERT, ['d', 't3', 1, null, null]);
      throw refusal;
    })).rejects.toBe(refusal);
    expect(await sql.one(BY_ID, ['d'])).toBeUndefined();
  });

  it('ends a unit of work at a failed statement: its finally runs, its catch does not, and the whole unit rolls back', async () => {
    const seen: string[] = [];
    await expect(sql.write(null, function* () {
      yield* q.run(INSERT, ['e', 't4', 1, null, null]);
      try {
        yield* q.run(INSERT, ['e', 't4', 2, null, null]);
        seen.push('after');
      } catch {
        seen.push('catch');
      } finally {
        seen.push('finally');
      }
    })).rejects.toMatchObject({ code: '23505', constraint: 'things_pkey' });
    expect(seen).toEqual(['finally']);
    expect(await sql.one(BY_ID, ['e'])).toBeUndefined();
  });

  it('lets a unit of work catch an error its own code threw, and go on', async () => {
    const result = await sql.write('t4', function* () {
      yield* q.run(INSERT, ['f', 't4', 1, null, null]);
      try {
        yield* q.run(INSERT, ['g', 't4', 1, null, null]);
        throw new Error('refused');
      } catch (error) {
        yield* q.run(statement('DELETE FROM things WHERE id = ?'), ['g']);
        return (error as Error).message;
      }
    });
    expect(result).toBe('refused');
    expect(await sql.all(statement("SELECT id FROM things WHERE tenant_id = 't4'"))).toEqual([{ id: 'f' }]);
  });

  it('runs a unit of reads in one read-only snapshot', async () => {
    const seen = await sql.read(function* () {
      const first = yield* q.one<{ now: string }>(statement('SELECT statement_timestamp()::text AS now, transaction_timestamp()::text AS began'));
      const again = yield* q.one<{ began: string }>(statement('SELECT transaction_timestamp()::text AS began'));
      const mode = yield* q.one(statement("SELECT current_setting('transaction_isolation') AS isolation, current_setting('transaction_read_only') AS ro"));
      return { same: (first as unknown as { began: string }).began === again!.began, mode };
    });
    expect(seen).toEqual({ same: true, mode: { isolation: 'repeatable read', ro: 'on' } });
    await expect(sql.read(function* () { yield* q.run(INSERT, ['h', 't6', 1, null, null]); })).rejects.toMatchObject({ code: '25006' });
  });

  it('holds the tenant\'s write lock for a unit of work naming a tenant, and none for one naming no tenant (D74)', async () => {
    expect(await sql.write('t5', function* () { return yield* q.one(ADVISORY_HELD); })).toEqual({ held: 1 });
    expect(await sql.write(null, function* () { return yield* q.one(ADVISORY_HELD); })).toEqual({ held: 0 });
    expect(await sql.one(ADVISORY_HELD)).toEqual({ held: 0 });
  });

  it('runs a tenant\'s units of work one at a time, in the order they took the lock; another tenant\'s do not wait (D74)', async () => {
    const engine = postgresSql(await freshDatabase(), { max: 4 });
    const { pool } = engine;
    const blocker = await pool.connect();
    try {
      await engine.run(TABLE);
      await engine.run(INSERT, ['gate', 'x', 0, null, null]);
      // The test holds the gate row: the first writer stops on it, holding the tenant's lock.
      await blocker.query('BEGIN');
      await blocker.query("SELECT * FROM things WHERE id = 'gate' FOR UPDATE");
      const order: string[] = [];
      const first = engine.write('same', function* () {
        yield* q.run(statement("UPDATE things SET n = n + 1 WHERE id = 'gate'"));
        order.push('first');
      });
      const waitFor = async (check: () => Promise<boolean>) => {
        while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
      };
      await waitFor(async () => (await pool.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())")).rows[0].n === 1);
      const second = engine.write('same', function* () {
        order.push('second');
        yield* q.run(INSERT, ['after', 'same', 1, null, null]);
      });
      await waitFor(async () => (await engine.one<{ waiting: number }>(WAITING_ON_ADVISORY))!.waiting === 1);
      // Another tenant's write neither waits for the lock nor for the first writer.
      await engine.write('other', function* () {
        yield* q.run(INSERT, ['other', 'other', 1, null, null]);
      });
      expect(order).toEqual([]);
      await blocker.query('COMMIT');
      await Promise.all([first, second]);
      expect(order).toEqual(['first', 'second']);
      expect(await engine.one(BY_ID, ['gate'])).toMatchObject({ n: 1 });
    } finally {
      blocker.release();
      await engine.close();
    }
  });
});
