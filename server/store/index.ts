/** The sandbox's store: one object holding every table family's prepared statements. */
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
import { makeSimulations } from '../simulation/store.ts';
import { makeTenants } from '../tenants/store.ts';
import { makeTripLife } from '../trips/life.ts';
import { makeTripStops } from '../trips/stops.ts';
import { makeTrips } from '../trips/store.ts';

/** Every table family of the sandbox, over one database. */
export function makeStore(db: Db, clock: Clock = systemClock) {
  const clocks = makeClocks(db, clock);
  const tenants = makeTenants(db, clock, clocks.now);
  const keys = makeKeys(db, clocks.now);
  const history = makeHistory(db);
  const directory = makeDirectory(db, clocks.now);
  const faults = makeFaults(db, clocks.now);
  const getMeta = db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck();
  const setMeta = db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)');
  return {
    db,
    /** The wall clock (a test's, in tests); a tenant's own time is `clocks.now(tenantId)` (D52). */
    clock,
    clocks,
    tenants,
    keys,
    orders: makeOrders(db, tenants),
    trips: makeTrips(db),
    idempotency: makeIdempotency(db, clocks.now),
    /** The control plane's tables: tags and mini-statuses, order intake and views, history, trips' life. */
    directory,
    history,
    intake: makeOrderIntake(db, { tenants, history, directory }),
    orderDetail: makeOrderDetail(db),
    tripLife: makeTripLife(db, { tenants, history, stops: makeTripStops(db) }),
    /** The tenants' fault rules (D51), cached for the integration calls. */
    faults,
    reset: makeReset(db, clocks, faults),
    /** The living-feed simulation of each tenant (D53). */
    simulations: makeSimulations(db, { tenants, history }),
    provision: makeProvisioning({ db, tenants, keys }),
    /** A secret kept with the database (the cursor signing key): created once, then stable across restarts. */
    secret(name: string): Buffer {
      setMeta.run(`secret:${name}`, randomBytes(32).toString('base64'));
      return Buffer.from(getMeta.get(`secret:${name}`)!, 'base64');
    },
  };
}

export type Store = ReturnType<typeof makeStore>;

/** Opens the database file (or `:memory:`) and returns its store. */
export function openStore(file: string, clock: Clock = systemClock): Store {
  return makeStore(openDatabase(file), clock);
}
