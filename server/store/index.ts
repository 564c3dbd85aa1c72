/** The sandbox's store: every table family, written once over the store contract (`sql.ts`). */
import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../domain/time.ts';
import { type Db, openDatabase } from './db.ts';
import { makeClocks } from '../clock/store.ts';
import { makeDirectory } from '../directory/store.ts';
import { makeFaults } from '../faults/store.ts';
import { makeHistory } from '../orders/history.ts';
import { makeIdempotency } from '../idempotency/store.ts';
import { makeKeys } from '../tenants/keys.ts';
import { makeOrderDetail } from '../orders/detail.ts';
import { makeOrderIntake } from '../orders/intake.ts';
import { makeOrders } from '../orders/store.ts';
import { makeProvisioning } from '../profiles/provision.ts';
import { makeReset } from './reset.ts';
import { makeSharedBuckets } from '../http/token-bucket.ts';
import { makeSharedInFlight } from '../idempotency/in-flight.ts';
import { makeSimulations } from '../simulation/store.ts';
import { type Sql, statement } from './sql.ts';
import { type SqliteSql, sqliteSql } from './sqlite-sql.ts';
import { makeTenants } from '../tenants/store.ts';
import { makeTenantVersions } from '../tenants/versions.ts';
import { makeTripLife } from '../trips/life.ts';
import { makeTripStops } from '../trips/stops.ts';
import { makeTrips } from '../trips/store.ts';

const GET_META = statement('SELECT value FROM meta WHERE key = ?');
const SET_META = statement('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');

/** Every table family of the sandbox over `sql`, its caches loaded. */
export async function makeStore(sql: Sql, clock: Clock = systemClock) {
  const clocks = makeClocks(sql, clock);
  const keys = makeKeys(sql, clocks.now, sql.engine === 'sqlite' ? (sql as SqliteSql).db : undefined);
  const tenants = makeTenants(sql, clock, clocks.now, (tenantId) => keys.forget(tenantId));
  const history = makeHistory(sql);
  const directory = makeDirectory(sql, clocks.now);
  const faults = makeFaults(sql, clocks.now);
  const stops = makeTripStops();
  // Several processes may share a PostgreSQL database (D81, D82); one process serves SQLite.
  const shared = sql.engine === 'postgres'
    ? { versions: makeTenantVersions(sql, { keys, clocks, faults }), buckets: makeSharedBuckets(sql, clock), inFlight: makeSharedInFlight(sql) }
    : null;
  // The versions first: the caches read after them are at least as new (tenants/versions.ts).
  await shared?.versions.load();
  await clocks.load();
  await faults.load();
  let open = true;
  return {
    /** The engine the families run on; a unit of work of several families runs through `sql.write`. */
    sql,
    /** The wall clock (a test's, in tests); a tenant's own time is `clocks.now(tenantId)` (D52). */
    clock,
    clocks,
    tenants,
    keys,
    orders: makeOrders(sql, tenants),
    trips: makeTrips(sql),
    idempotency: makeIdempotency(sql, clocks.now),
    /** The control plane's tables: tags and mini-statuses, order intake and views, history, trips' life. */
    directory,
    history,
    intake: makeOrderIntake(sql, { tenants, history, directory }),
    orderDetail: makeOrderDetail(sql),
    tripLife: makeTripLife(sql, { tenants, history, stops }),
    /** The tenants' fault rules (D51), cached for the integration calls. */
    faults,
    reset: makeReset(sql, { clocks, faults, keys }),
    /**
     * What processes sharing a PostgreSQL database share through it (D81, D82): the tenants'
     * versions their caches are checked against, the keys' rate-limit buckets and the
     * Idempotency-Keys in flight. Null on SQLite, whose one process keeps them in memory.
     */
    shared,
    /** The living-feed simulation of each tenant (D53). */
    simulations: makeSimulations(sql, { tenants, history }),
    provision: makeProvisioning({ sql, tenants, keys }),
    /** A secret kept with the database (the cursor signing key): created once, then stable across restarts. */
    async secret(name: string): Promise<Buffer> {
      await sql.run(SET_META, [`secret:${name}`, randomBytes(32).toString('base64')]);
      return Buffer.from((await sql.one<{ value: string }>(GET_META, [`secret:${name}`]))!.value, 'base64');
    },
    /** Whether the store still answers (`close` not called). */
    isOpen: () => open,
    /** Writes what waits (the fault counters) and closes the database. */
    async close(): Promise<void> {
      if (!open) return;
      open = false;
      await faults.settle();
      await sql.close();
    },
  };
}

/** The sandbox's store, on either engine. */
export type Store = Awaited<ReturnType<typeof makeStore>>;

/** A store on SQLite, with its connection: what only SQLite offers (tests that break things through it, the request log's file beside it). */
export type SqliteStore = Store & { readonly sql: SqliteSql; readonly db: Db };

/** Opens the SQLite database file (or `:memory:`) and returns its store. */
export async function openStore(file: string, clock: Clock = systemClock): Promise<SqliteStore> {
  const sql = sqliteSql(openDatabase(file));
  return { ...(await makeStore(sql, clock)), sql, db: sql.db };
}
