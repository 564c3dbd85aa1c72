/** Trips: the trip feed. (Building and driving trips is the control plane's.) */
import type { Db } from '../store/db.ts';
import { makeFeedPage, TRIP_JSON } from '../store/feed-sql.ts';

/** Trip statements, prepared once. */
export function makeTrips(db: Db) {
  return {
    // requirement: int.trips-feed.oldest-first
    // requirement: int.trips-feed.params
    /** A page of the tenant's trip feed. */
    feedPage: makeFeedPage(db, {
      select: `SELECT t.updated_at, t.id, t.status, ${TRIP_JSON} FROM trips t WHERE t.tenant_id = ? AND (t.updated_at, t.id) > (?, ?)`,
      orderBy: 't.updated_at, t.id',
      statusColumn: 't.status',
    }),
  };
}

export type Trips = ReturnType<typeof makeTrips>;
