/** The sandbox's store: one object holding every table family's prepared statements. */
import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../domain/time.ts';
import { type Db, openDatabase } from './db.ts';
import { makeIdempotency } from './idempotency.ts';
import { makeKeys } from './keys.ts';
import { makeOrders } from './orders.ts';
import { makeTenants } from './tenants.ts';
import { makeTrips } from './trips.ts';

/** Every table family of the sandbox, over one database. */
export function makeStore(db: Db, clock: Clock = systemClock) {
  const tenants = makeTenants(db, clock);
  const getMeta = db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck();
  const setMeta = db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)');
  return {
    db,
    clock,
    tenants,
    keys: makeKeys(db, clock),
    orders: makeOrders(db, tenants),
    trips: makeTrips(db),
    idempotency: makeIdempotency(db, clock),
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
