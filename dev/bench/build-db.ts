/**
 * The benchmark databases: `.waybill/bench/orders-<N>.db`, one tenant with N synthetic
 * orders, made with the server's own schema and stores. Only key hashes are stored, so the
 * keys' secrets are kept beside the file in `orders-<N>.keys.json` (a local, git-ignored
 * benchmark database). A database is reused while its sidecar, row count and schema
 * version match; `rebuild` forces a new one.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tagNames } from '../../fixtures/word-lists.ts';
import { openDatabase } from '../../server/store/db.ts';
import { makeStore } from '../../server/store/index.ts';
import { sqliteSql } from '../../server/store/sqlite-sql.ts';
import { MAX_RATE_LIMIT } from '../../server/tenants/keys.ts';
import { synthesizeOrders } from './synth-orders.ts';

/** Where the benchmark databases live. */
export const BENCH_DIR = '.waybill/bench';
/** Keys per database: the sandbox limits each key to 6000 requests a minute (D14), the bench rotates through them. */
export const KEY_COUNT = 400;
/** Bump when the synthesized data changes, so cached databases are rebuilt. */
const FORMAT = 2;

/** A benchmark database ready to serve. */
export interface BenchDatabase {
  file: string;
  orders: number;
  liveOrders: number;
  tenantId: string;
  /** Secrets of the tenant's keys (scope `orders:read`, 6000 requests a minute each). */
  keys: string[];
  /** False when a cached file was reused. */
  built: boolean;
  buildMs: number;
  bytes: number;
}

interface Sidecar {
  format: number;
  orders: number;
  schemaVersion: number;
  tenantId: string;
  keys: string[];
}

/** The schema version the server's migrations bring a new database to. */
function currentSchemaVersion(): number {
  const db = openDatabase(':memory:');
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

const removeDatabase = (file: string) => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
};

/** The cached database's sidecar when the file still is what it says, else null. */
function reusable(file: string, sidecarFile: string, orders: number, schemaVersion: number): Sidecar | null {
  if (!existsSync(file) || !existsSync(sidecarFile)) return null;
  const sidecar = JSON.parse(readFileSync(sidecarFile, 'utf8')) as Sidecar;
  if (sidecar.format !== FORMAT || sidecar.orders !== orders || sidecar.schemaVersion !== schemaVersion) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    const count = db.prepare<[string], number>('SELECT count(*) FROM orders WHERE tenant_id = ?').pluck().get(sidecar.tenantId);
    const keys = db.prepare<[string], number>('SELECT count(*) FROM api_keys WHERE tenant_id = ?').pluck().get(sidecar.tenantId);
    return version === schemaVersion && count === orders && keys === sidecar.keys.length ? sidecar : null;
  } finally {
    db.close();
  }
}

/** Writes a new database of `orders` orders to `file` (through a `.partial` file); returns its sidecar. */
async function build(file: string, orders: number, schemaVersion: number, progress: (line: string) => void): Promise<Sidecar> {
  const partial = `${file}.partial`;
  removeDatabase(partial);
  const db = openDatabase(partial);
  // A benchmark fixture, rebuilt on any failure: no fsync, and a cache that holds the id index.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const sql = sqliteSql(db);
  const store = await makeStore(sql);
  const tenant = await store.tenants.create({ name: 'Bench Deliveries', country: 'NL' });
  await store.secret('cursor');
  const keys: string[] = [];
  for (let i = 0; i < KEY_COUNT; i++) keys.push((await store.keys.create({ tenantId: tenant.id, name: `bench-${i}`, scopes: ['orders:read'], rateLimit: MAX_RATE_LIMIT })).secret);
  const insertTag = db.prepare('INSERT INTO tags (id, tenant_id, name, color) VALUES (?, ?, ?, ?)');
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, tenant_id, external_id, short_id, status, mini_status, type, custom_id, address, tags, created_at, updated_at, archived_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const step = Math.max(100_000, Math.ceil(orders / 10));
  await sql.write(tenant.id, function* () {
    const tagIds = tagNames.map((name, i) => {
      const id = `7a90${String(i).padStart(4, '0')}-0000-4000-8000-${tenant.id.slice(-12)}`;
      insertTag.run(id, tenant.id, name, `#${((i * 0x2f5a3b) & 0xffffff).toString(16).padStart(6, '0')}`);
      return id;
    });
    let written = 0;
    const { newest } = synthesizeOrders(orders, tagIds, (row) => {
      const [id, externalId, shortId, status, miniStatus, type, customId, address, tags, createdAt, updatedAt, archivedAt] = row;
      insertOrder.run(id, tenant.id, externalId, shortId, status, miniStatus, type, customId, address, tags, createdAt, updatedAt, archivedAt);
      if (++written % step === 0 && written < orders) progress(`  ${written.toLocaleString('en-US')} / ${orders.toLocaleString('en-US')} orders`);
    });
    yield* store.tenants.steps.observeStamp(tenant.id, newest);
  });
  await store.close();
  renameSync(partial, file);
  return { format: FORMAT, orders, schemaVersion, tenantId: tenant.id, keys };
}

/** The benchmark database of `orders` orders: the cached one, or a new one when missing, stale or `rebuild`. */
export async function benchDatabase(orders: number, options: { rebuild?: boolean; progress?: (line: string) => void } = {}): Promise<BenchDatabase> {
  const progress = options.progress ?? (() => {});
  const file = join(BENCH_DIR, `orders-${orders}.db`);
  const sidecarFile = join(BENCH_DIR, `orders-${orders}.keys.json`);
  const schemaVersion = currentSchemaVersion();
  const started = performance.now();
  let sidecar = options.rebuild ? null : reusable(file, sidecarFile, orders, schemaVersion);
  const built = sidecar === null;
  if (sidecar === null) {
    progress(`building ${file} (${orders.toLocaleString('en-US')} orders)`);
    rmSync(sidecarFile, { force: true });
    removeDatabase(file);
    sidecar = await build(file, orders, schemaVersion, progress);
    writeFileSync(sidecarFile, `${JSON.stringify(sidecar, null, 2)}\n`);
  }
  const buildMs = performance.now() - started;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const liveOrders = db.prepare<[string], number>('SELECT count(*) FROM orders WHERE tenant_id = ? AND archived_at IS NULL').pluck().get(sidecar.tenantId)!;
  db.close();
  const bytes = statSync(file).size;
  progress(`${built ? 'built' : 'reusing'} ${file}: ${orders.toLocaleString('en-US')} orders (${liveOrders.toLocaleString('en-US')} live), ${(bytes / 1e6).toFixed(0)} MB${built ? ` in ${(buildMs / 1000).toFixed(1)} s` : ''}`);
  return { file, orders, liveOrders, tenantId: sidecar.tenantId, keys: sidecar.keys, built, buildMs, bytes };
}
