/**
 * Benchmark child: the ceiling for the order feed on this machine. A bare `node:http`
 * server doing only the feed's own work — the sandbox's feed SQL and row-to-page step
 * (`makeOrders(...).feedPage`), its cursor codec, and the page text of
 * `server/integration/feeds.ts` — with no Express, auth, rate limit, validation or
 * request id. The tenant is fixed on the command line. Prints its base URL on stdout.
 * Over a SQLite file, or the PostgreSQL database a `postgres://` URL names. On PostgreSQL it
 * also makes the one statement the sandbox makes there for every request besides the feed's
 * (D81: the key's rate-limit token, with the tenant's version), for the key the request
 * names, so that both servers send the database the same SQL (issue 25); on SQLite the
 * sandbox takes its tokens in memory.
 *
 *   node --import tsx dev/bench/serve-baseline.ts --db FILE|URL --tenant ID [--port 0]
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { Sql } from '../../server/store/sql.ts';
import { served } from './served.ts';

// The sandbox's own modules, from where the sandbox child takes them: compiled, unless WAYBILL_BENCH_CODE=sources (served.ts).
const { makeCursorCodec } = await served<typeof import('../../server/domain/cursor.ts')>('server/domain/cursor');
const { systemClock } = await served<typeof import('../../server/domain/time.ts')>('server/domain/time');
const { listen } = await served<typeof import('../../server/http/server.ts')>('server/http/server');
const { pageJson } = await served<typeof import('../../server/integration/feeds.ts')>('server/integration/feeds');
const { MMAP_BYTES } = await served<typeof import('../../server/store/db.ts')>('server/store/db');
const { makeOrders } = await served<typeof import('../../server/orders/store.ts')>('server/orders/store');
const { postgresSql } = await served<typeof import('../../server/store/postgres/sql.ts')>('server/store/postgres/sql');
const { statement } = await served<typeof import('../../server/store/sql.ts')>('server/store/sql');
const { sqliteSql } = await served<typeof import('../../server/store/sqlite-sql.ts')>('server/store/sqlite-sql');
const { makeTenants } = await served<typeof import('../../server/tenants/store.ts')>('server/tenants/store');
const { makeSharedBuckets } = await served<typeof import('../../server/http/token-bucket.ts')>('server/http/token-bucket');
const { MAX_RATE_LIMIT } = await served<typeof import('../../server/tenants/keys.ts')>('server/tenants/keys');

const { values } = parseArgs({ options: { db: { type: 'string' }, tenant: { type: 'string' }, port: { type: 'string', default: '0' } } });
if (values.db === undefined || values.tenant === undefined) throw new Error('--db FILE|URL and --tenant ID are required');
const tenantId = values.tenant;

/** The feed's engine: the SQLite file read as the sandbox's own connection reads it, or a pool to the PostgreSQL database as large as the sandbox's. */
function open(target: string): Sql {
  if (/^postgres(ql)?:\/\//i.test(target)) return postgresSql(target);
  const db = new Database(target, { readonly: true, fileMustExist: true });
  // The same read settings as the sandbox's own connection (server/store/db.ts).
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  return sqliteSql(db);
}

const sql = open(values.db);
const orders = makeOrders(sql, makeTenants(sql, systemClock));
const secret = await sql.one<{ value: string }>(statement("SELECT value FROM meta WHERE key = 'secret:cursor'"));
if (secret === undefined) throw new Error('the database has no cursor secret; rebuild it with --rebuild');
const cursors = makeCursorCodec(Buffer.from(secret.value, 'base64'));
// The bench's keys each allow MAX_RATE_LIMIT a minute (build-db.ts); the key id is in the key's text.
const buckets = sql.engine === 'postgres' ? makeSharedBuckets(sql, systemClock) : null;
const KEY_ID = /^wbk_([A-Za-z0-9]{12})_/;

const server = createServer(async (req, res) => {
  const url = req.url ?? '';
  const mark = url.indexOf('?');
  if ((mark === -1 ? url : url.slice(0, mark)) !== '/api/v1/integration/orders') {
    res.writeHead(404).end();
    return;
  }
  if (buckets !== null) {
    const keyId = KEY_ID.exec(String(req.headers['x-api-key'] ?? ''))?.[1];
    if (keyId === undefined) {
      res.writeHead(401).end();
      return;
    }
    await buckets.take(tenantId, `key_${keyId}`, MAX_RATE_LIMIT);
  }
  const query = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
  const cursor = query.get('cursor');
  const position = cursor === null ? null : cursors.decode('orders', tenantId, cursor);
  if (cursor !== null && position === null) {
    res.writeHead(400).end();
    return;
  }
  const page = await orders.feedPage(tenantId, { position, since: null, statuses: null, limit: Math.min(Number(query.get('limit') ?? 50) || 50, 100) });
  const body = pageJson(page.items, page.next === null ? null : cursors.encode('orders', tenantId, page.next));
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});
process.stdout.write(`${await listen(server, Number(values.port), '127.0.0.1')}\n`);

const stop = () => {
  server.close(() => {
    void sql.close().then(() => process.exit(0));
  });
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
