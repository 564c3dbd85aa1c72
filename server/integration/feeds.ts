/** The order and trip feeds (D4–D9): keyset pages on `(updatedAtUtc, id)` with signed cursors. */
import type { Request, Response } from 'express';
import type { CursorCodec, FeedName } from '../domain/cursor.ts';
import { sinceBound } from '../domain/time.ts';
import type { FeedPosition, FeedQuery as PageQuery, FeedRows } from '../store/feed-sql.ts';
import { contextOf, principalOf } from '../http/context.ts';
import { fieldError, problem } from '../http/problem.ts';
import { sendJsonText } from '../http/reply.ts';

// requirement: int.orders-feed.limit
// requirement: int.limits.page-size
// requirement: D8
/** Page size when `limit` is absent, and the cap above which it is lowered (D8). */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** The validated query of a feed (types coerced by the spec's schemas). */
interface FeedQuery {
  since?: string;
  cursor?: string;
  limit?: number;
  status?: string[];
}

type PageSource = (tenantId: string, query: PageQuery) => Promise<FeedRows>;

// requirement: int.order-page.items
// requirement: int.order-page.nextCursor
// requirement: int.trip-page.items
// requirement: int.trip-page.nextCursor
/** The JSON text of a page: the items' JSON as the database built it, and the next cursor (D6). */
export function pageJson(items: readonly string[], nextCursor: string | null): string {
  return `{"items":[${items.join(',')}],"nextCursor":${nextCursor === null ? 'null' : JSON.stringify(nextCursor)}}`;
}

/** The 400 of a cursor this server did not issue for the feed (D5). */
export function cursorRefused(cursor: unknown) {
  const message = 'The cursor was not issued by this server for this feed.';
  return problem('api.malformed_request', message, [fieldError('cursor', 'api.malformed_request', message, cursor)]);
}

/** A feed handler over one store's `feedPage`. */
export function makeFeedHandler(feed: FeedName, options: { pages: PageSource; cursors: CursorCodec }) {
  return async function feedPage(_req: Request, res: Response): Promise<void> {
    // requirement: int.service.tenant-only
    const { tenantId } = principalOf(res);
    const query = contextOf(res).input?.query as FeedQuery;
    let position: FeedPosition | null = null;
    // requirement: int.orders-feed.cursor
    // requirement: int.trips-feed.refusals
    if (query.cursor !== undefined) {
      position = options.cursors.decode(feed, tenantId, query.cursor);
      if (position === null) throw cursorRefused(query.cursor);
    }
    // requirement: int.orders-feed.since
    // requirement: int.trips-feed.params
    // With a cursor, `since` is ignored (D5); the schema has already checked its format (D9).
    const since = position === null && query.since !== undefined ? sinceBound(query.since) : null;
    const page = await options.pages(tenantId, {
      position,
      since,
      // requirement: int.orders-feed.status
      statuses: query.status === undefined ? null : [...new Set(query.status)],
      limit: Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT),
    });
    // requirement: int.orders-feed.caught-up
    // requirement: D6
    const nextCursor = page.next === null ? null : options.cursors.encode(feed, tenantId, page.next);
    // The request log keeps the page's keys whatever the body's size (D48): taken from the rows, not the JSON.
    contextOf(res).feedPage = { nextCursor, keys: page.keys };
    sendJsonText(res, 200, pageJson(page.items, nextCursor));
  };
}
