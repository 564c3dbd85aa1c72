/**
 * A feed page's statement has its LIMIT written into its text, one statement per page size:
 * SQLite's planner reads a bound LIMIT's value, so binding one made every page prepare its
 * statement again (the feeds' own tests, through the API, hold what a page holds).
 */
import { describe, expect, it } from 'vitest';
import { makeFeedPage } from './feed-sql.ts';
import { statement, type Sql, type Statement } from './sql.ts';

/** An Sql that only records what `tuples` is asked, answering `rows`. */
function recordingSql(rows: (readonly [string, string, string, string])[]) {
  const asked: { statement: Statement; args: readonly unknown[] }[] = [];
  const sql = {
    engine: 'sqlite',
    tuples: async (s: Statement, args: readonly unknown[] = []) => {
      asked.push({ statement: s, args });
      return rows;
    },
  } as unknown as Sql;
  return { sql, asked };
}

const feed = { select: statement('SELECT updated_at, id, status, json FROM things WHERE tenant_id = ? AND (updated_at, id) > (?, ?)'), orderBy: 'updated_at, id', statusColumn: 'status' };

describe('a feed page statement', () => {
  it('writes limit + 1 into the text and binds only the tenant and the bound, one statement per size', async () => {
    const { sql, asked } = recordingSql([]);
    const page = makeFeedPage(sql, feed);
    await page('t1', { position: null, since: null, statuses: null, limit: 50 });
    await page('t2', { position: { updatedAt: 'a', id: 'b' }, since: null, statuses: null, limit: 50 });
    await page('t1', { position: null, since: null, statuses: null, limit: 7 });
    await page('t1', { position: null, since: null, statuses: ['New'], limit: 7 });
    expect(asked.map(({ statement: s }) => / LIMIT (\S+)$/.exec(s.sqlite)?.[1])).toEqual(['51', '51', '8', '8']);
    expect(asked.every(({ statement: s }) => !s.sqlite.includes('LIMIT ?') && !s.postgres.includes('LIMIT ?'))).toBe(true);
    expect(asked[1]!.statement).toBe(asked[0]!.statement);
    expect(asked.map(({ args }) => args)).toEqual([
      ['t1', '', ''],
      ['t2', 'a', 'b'],
      ['t1', '', ''],
      ['t1', '', '', '["New"]'],
    ]);
  });

  it('refuses a size no page has, rather than write it into SQL', () => {
    const page = makeFeedPage(recordingSql([]).sql, feed);
    for (const limit of [0, -2, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => page('t', { position: null, since: null, statuses: null, limit })).toThrow(RangeError);
  });

});
