import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from './db.ts';
import { q, statement } from './sql.ts';
import { type SqliteSql, sqliteSql } from './sqlite-sql.ts';

const insert = statement('INSERT INTO items (id, name) VALUES (?, ?)');
const byId = statement('SELECT id, name FROM items WHERE id = ?');
const every = statement('SELECT id, name FROM items ORDER BY id');
const count = statement('SELECT count(*) AS n FROM items');

describe('the store contract on SQLite', () => {
  let db: Db;
  let sql: SqliteSql;
  beforeEach(() => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    sql = sqliteSql(db);
  });
  afterEach(() => sql.close());

  it('answers one row, every row, and the changes of a run', async () => {
    expect(await sql.run(insert, [1, 'one'])).toEqual({ changes: 1 });
    await sql.run(insert, [2, 'two']);
    expect(await sql.one(byId, [2])).toEqual({ id: 2, name: 'two' });
    expect(await sql.one(byId, [3])).toBeUndefined();
    expect(await sql.all(every)).toEqual([{ id: 1, name: 'one' }, { id: 2, name: 'two' }]);
    expect(await sql.tuples(every)).toEqual([[1, 'one'], [2, 'two']]);
    expect(await sql.run(statement('DELETE FROM items'))).toEqual({ changes: 2 });
  });

  it('a failing statement rejects rather than throwing at the call', async () => {
    await sql.run(insert, [1, 'one']);
    const duplicate = sql.run(insert, [1, 'again']);
    await expect(duplicate).rejects.toThrow(/UNIQUE/);
  });

  it("runs a unit of work in one transaction: its reads see its own writes, and it commits when it returns", async () => {
    const seen = await sql.write('tenant', function* () {
      yield* q.run(insert, [1, 'one']);
      const row = yield* q.one<{ name: string }>(byId, [1]);
      yield* q.run(insert, [2, `${row!.name} and two`]);
      return yield* q.all<{ id: number; name: string }>(every);
    });
    expect(seen).toEqual([{ id: 1, name: 'one' }, { id: 2, name: 'one and two' }]);
    expect(await sql.one(count)).toEqual({ n: 2 });
  });

  it('rolls a unit of work back when it throws, and rejects with its error', async () => {
    await sql.run(insert, [1, 'kept']);
    const failing = sql.write(null, function* () {
      yield* q.run(insert, [2, 'two']);
      expect((yield* q.one<{ n: number }>(count))!.n).toBe(2);
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(await sql.all(every)).toEqual([{ id: 1, name: 'kept' }]);
  });

  it('ends a unit of work at a failing statement, as PostgreSQL must: its finally blocks run, its catch blocks do not', async () => {
    await sql.run(insert, [1, 'one']);
    const ran: string[] = [];
    const failing = sql.write(null, function* () {
      try {
        yield* q.run(insert, [2, 'two']);
        yield* q.run(insert, [1, 'clash']);
      } catch {
        ran.push('catch');
      } finally {
        ran.push('finally');
      }
    });
    await expect(failing).rejects.toThrow(/UNIQUE/);
    expect(ran).toEqual(['finally']);
    expect(await sql.all(every)).toEqual([{ id: 1, name: 'one' }]);
  });

  it('settles a unit of work before the call returns: nothing runs between its statements', () => {
    void sql.write(null, function* () {
      yield* q.run(insert, [1, 'one']);
    });
    // Read straight through the connection, without awaiting anything.
    expect(db.prepare('SELECT count(*) AS n FROM items').get()).toEqual({ n: 1 });
  });

  it('runs a unit of reads as one view', async () => {
    await sql.run(insert, [1, 'one']);
    const both = await sql.read(function* () {
      const first = yield* q.one<{ name: string }>(byId, [1]);
      const n = yield* q.one<{ n: number }>(count);
      return `${first!.name}:${n!.n}`;
    });
    expect(both).toBe('one:1');
  });

  it('runs the SQLite text of a statement that differs per engine', async () => {
    const larger = statement({ sqlite: 'SELECT max(?, ?) AS m', postgres: 'SELECT greatest(?, ?) AS m' });
    expect(await sql.one(larger, [3, 7])).toEqual({ m: 7 });
  });
});
