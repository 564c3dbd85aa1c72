/** Opens the pool of connections the PostgreSQL store works through (D73). */
import pg from 'pg';

/**
 * Type parsers of the store's connections: `bigint` as a JavaScript number (every bigint
 * waybill stores, a millisecond stamp or a counter, is far below 2^53), the rest as `pg` reads them.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * A pool of connections to the database at `url` (`postgres://` or `postgresql://`).
 * `synchronousCommit: false` makes its commits return before the disk has them (the request
 * log's: a crash of the database's machine may lose its last fraction of a second).
 */
// requirement: D73
export function openPool(url: string, options: { max?: number; synchronousCommit?: boolean } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: 'waybill',
    types,
    ...(options.synchronousCommit === false ? { options: '-c synchronous_commit=off' } : {}),
  });
  // An idle connection the server drops (a restart, a terminated backend) leaves the pool,
  // which opens another on demand; without a listener the error would end the process.
  pool.on('error', () => {});
  return pool;
}
