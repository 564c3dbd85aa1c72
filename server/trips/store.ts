/** Trips: the trip feed, and the control plane's list of them newest first. (Building and driving trips is the control plane's.) */
import { portable } from '../store/dialect.ts';
import { makeFeedPage, TRIP_JSON } from '../store/feed-sql.ts';
import type { Sql } from '../store/sql.ts';

/** The trips over `sql`. */
export function makeTrips(sql: Sql) {
  return {
    // requirement: int.trips-feed.oldest-first
    // requirement: int.trips-feed.params
    /** A page of the tenant's trip feed. */
    feedPage: makeFeedPage(sql, {
      select: portable`SELECT t.updated_at, t.id, t.status, ${TRIP_JSON} AS json FROM trips t WHERE t.tenant_id = ? AND (t.updated_at, t.id) > (?, ?)`,
      orderBy: 't.updated_at, t.id',
      statusColumn: 't.status',
    }),
    // requirement: D87
    /** A page of the tenant's trips newest-changed first, before a position (the control plane's list). */
    newestPage: makeFeedPage(sql, {
      select: portable`SELECT t.updated_at, t.id, t.status, ${TRIP_JSON} AS json FROM trips t WHERE t.tenant_id = ? AND (t.updated_at, t.id) < (?, ?)`,
      orderBy: 't.updated_at DESC, t.id DESC',
      statusColumn: 't.status',
    }),
  };
}

export type Trips = ReturnType<typeof makeTrips>;
