/** Trips: the trip feed. (Building and driving trips is the control plane's.) */
import type { Db } from './db.ts';
import { type FeedPosition, type FeedRows, lowerBound, toFeedRows, TRIP_JSON } from './feed-sql.ts';

/** Trip statements, prepared once. */
export function makeTrips(db: Db) {
  const select = `SELECT t.updated_at, t.id, ${TRIP_JSON} FROM trips t
    WHERE t.tenant_id = ? AND (t.updated_at, t.id) > (?, ?)`;
  const order = 'ORDER BY t.updated_at, t.id LIMIT ?';
  const feed = db.prepare(`${select} ${order}`).raw();
  const feedByStatus = db.prepare(`${select} AND t.status IN (SELECT value FROM json_each(?)) ${order}`).raw();

  return {
    /** A page of the tenant's trip feed after `position` (or from `since`, inclusive), optionally filtered by status. */
    feedPage(tenantId: string, query: { position: FeedPosition | null; since: string | null; statuses: string[] | null; limit: number }): FeedRows {
      const [after, afterId] = lowerBound(query.position, query.since);
      const rows = (
        query.statuses === null
          ? feed.all(tenantId, after, afterId, query.limit + 1)
          : feedByStatus.all(tenantId, after, afterId, JSON.stringify(query.statuses), query.limit + 1)
      ) as [string, string, string][];
      return toFeedRows(rows, query.limit);
    },
  };
}

export type Trips = ReturnType<typeof makeTrips>;
