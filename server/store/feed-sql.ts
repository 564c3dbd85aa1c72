import { json, jsonElements, jsonObject, portable } from './dialect.ts';
import type { Sql, Statement } from './sql.ts';

/**
 * The JSON of the API's Order and Trip, built by the database itself: the feeds hand each
 * row's text straight to the response, with no parse or stringify in between. Key order is
 * the field order of the spec (and D15 for trips).
 */

// requirement: int.order.all-present
// requirement: int.order.id
// requirement: int.order.externalId
// requirement: int.order.shortId
// requirement: int.order.status
// requirement: int.order.miniStatus
// requirement: int.order.type
// requirement: int.order.customId
// requirement: int.order.createdAtUtc
// requirement: int.order.updatedAtUtc
// requirement: int.order.tags
// requirement: int.status.by-name
/** The members of every order, in the contract's order. */
const ORDER_MEMBERS: Parameters<typeof jsonObject>[0] = [
  ['id', 'o.id'], ['externalId', 'o.external_id'], ['shortId', 'o.short_id'], ['status', 'o.status'],
  ['miniStatus', 'o.mini_status'], ['type', 'o.type'], ['customId', 'o.custom_id'],
  ['createdAtUtc', 'o.created_at'], ['updatedAtUtc', 'o.updated_at'], ['tags', json('o.tags')],
];

// requirement: D93
/**
 * The JSON text of an order row aliased `o`. An order a simulation with `unknownMembers` took
 * in also carries `deliveryWindow`, last: a member the contract does not list yet (D93).
 */
export const ORDER_JSON = portable`CASE WHEN o.delivery_window IS NULL THEN ${jsonObject(ORDER_MEMBERS)} ELSE ${jsonObject([...ORDER_MEMBERS, ['deliveryWindow', json('o.delivery_window')]])} END`;

// requirement: int.trip.members
// requirement: int.trip.status-name
// requirement: D15
/** The JSON text of a trip row aliased `t`. */
export const TRIP_JSON = jsonObject([
  ['id', 't.id'], ['shortId', 't.short_id'], ['status', 't.status'], ['warehouseId', 't.warehouse_id'],
  ['driverId', 't.driver_id'], ['vehicleId', 't.vehicle_id'], ['stopCount', 't.stop_count'],
  ['plannedAtUtc', 't.planned_at'], ['updatedAtUtc', 't.updated_at'],
]);

/** A position in a feed: the `(updatedAtUtc, id)` of the last item seen (D7). */
export interface FeedPosition {
  updatedAt: string;
  id: string;
}

/** How many strings an item's key takes in `FeedRows.keys`: its id, updatedAtUtc and status. */
export const KEY_STRINGS = 3;

/** One page of a feed as the store returns it: each item's JSON text and key, and the last item's position. */
export interface FeedRows {
  items: string[];
  /**
   * The items' keys, in page order, flat: each item's id, updatedAtUtc and status, as the row
   * has them (the request log keeps them whatever the body's size, D48). Flat, they are no
   * array an item to make, and cross to the log's writer thread as plain strings.
   */
  keys: string[];
  /** Position of the last item of the page, or null when the page ends the feed (D6). */
  next: FeedPosition | null;
}

/** A row of a feed query, its columns in select order: the item's position, status and JSON text. */
export type FeedRow = readonly [updatedAt: string, id: string, status: string, json: string];

/** The flat keys of `rows` (`FeedRows.keys`). */
function keysOf(rows: readonly FeedRow[]): string[] {
  const keys: string[] = [];
  for (const row of rows) keys.push(row[1], row[0], row[2]);
  return keys;
}

// requirement: int.orders-feed.caught-up
// requirement: D6
/**
 * Turns `limit + 1` fetched rows into a page of `limit` items: the extra row only tells
 * that more follow (D6).
 */
export function toFeedRows(rows: FeedRow[], limit: number): FeedRows {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map((row) => row[3]),
    keys: keysOf(page),
    next: more && last !== undefined ? { updatedAt: last[0], id: last[1] } : null,
  };
}

// requirement: int.orders-feed.since
// requirement: D4
/**
 * The keyset bound of a feed query as `(updated_at, id) > (?, ?)`: after the cursor's
 * position, or from `since` inclusive (every id sorts after ''), or from the start.
 */
export function lowerBound(position: FeedPosition | null, since: string | null): [string, string] {
  if (position !== null) return [position.updatedAt, position.id];
  return [since ?? '', ''];
}

/**
 * Where a newest-first list starts (D87): above every stamp, as the keyset bound
 * `(updated_at, id) < (?, ?)` reads it. Stamps are RFC 3339 text starting with a digit, and
 * text compares byte by byte on both engines (PostgreSQL's columns are COLLATE "C"), so `~`
 * sorts after all of them.
 */
export const ABOVE_EVERY_STAMP: FeedPosition = { updatedAt: '~', id: '' };

/** What a feed page is asked for: after a position (or from `since`, inclusive), optionally by status. */
export interface FeedQuery {
  position: FeedPosition | null;
  since: string | null;
  statuses: string[] | null;
  limit: number;
}

// requirement: int.orders-feed.oldest-first
// requirement: int.trips-feed.oldest-first
// requirement: D7
/**
 * A feed's page function over `select` (which must yield `updated_at, id, status, json`, in that order, and end
 * in a WHERE clause with `tenant_id = ?` and `(updated_at, id) > (?, ?)`), the keyset
 * `orderBy` of its index, and the status column to filter on. One statement per page. A
 * newest-first list (D87) is the same with `< (?, ?)`, the index read backwards
 * (`updated_at DESC, id DESC`), and its first page asked from `ABOVE_EVERY_STAMP`.
 *
 * The LIMIT is written into the statement's text, one statement per page size, not bound:
 * SQLite's planner reads a bound LIMIT's value, so binding one expires the statement and each
 * page prepared it again (better-sqlite3's SQLite 3.53, 1M orders: a caught-up poll's query
 * 32 µs bound against 3 µs written in, a 50-order page 322 against 280 µs). The API's page
 * sizes are the contract's 1–100, so a feed keeps a hundred or so statements of each kind
 * (and one for each other size the sandbox's own code reads, as the simulation's tests do).
 */
export function makeFeedPage(sql: Sql, feed: { select: Statement; orderBy: string; statusColumn: string }) {
  const bySize = new Map<number, { all: Statement; byStatus: Statement }>();
  const statementsOf = (limit: number) => {
    let found = bySize.get(limit);
    if (found === undefined) {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`a feed page holds a whole number of items, at least 1, not ${limit}`);
      // One row more than the page: it only tells that more follow (D6).
      const tail = `ORDER BY ${feed.orderBy} LIMIT ${limit + 1}`;
      found = {
        all: portable`${feed.select} ${tail}`,
        byStatus: portable`${feed.select} AND ${feed.statusColumn} IN (SELECT value FROM ${jsonElements('?', 'j')}) ${tail}`,
      };
      bySize.set(limit, found);
    }
    return found;
  };
  return function feedPage(tenantId: string, query: FeedQuery): Promise<FeedRows> {
    const [after, afterId] = lowerBound(query.position, query.since);
    const { all, byStatus } = statementsOf(query.limit);
    const rows =
      query.statuses === null
        ? sql.tuples<FeedRow>(all, [tenantId, after, afterId])
        : sql.tuples<FeedRow>(byStatus, [tenantId, after, afterId, JSON.stringify(query.statuses)]);
    return rows.then((fetched) => toFeedRows(fetched, query.limit));
  };
}
