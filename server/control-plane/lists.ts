/**
 * The control plane's lists of a tenant's orders and trips (D87): the items of the feeds,
 * newest-changed first unless `sort=oldest`, filtered by status, paged with a signed cursor
 * bound to the tenant, the list and its sort.
 */
import type { CursorCodec } from '../domain/cursor.ts';
import { refuse } from '../domain/refusal.ts';
import { ABOVE_EVERY_STAMP, type FeedPosition, type FeedQuery, type FeedRows } from '../store/feed-sql.ts';
import { sendJsonText } from '../http/reply.ts';
import { pageJson } from '../integration/feeds.ts';
import { type Handler, paramsOf, queryOf } from './respond.ts';

/** Page size of a list when `limit` is absent, and its cap (as D40's). */
const LIST_LIMIT = { default: 50, max: 100 };

/** How a list is sorted (`ListSort` of spec/sandbox.yaml). */
type Sort = 'newest' | 'oldest';

/** A page source of the store: a feed's page (oldest first) or its newest-first twin. */
type PageSource = (tenantId: string, query: FeedQuery) => Promise<FeedRows>;

// requirement: D87
/** The handler of a list: `pages` reads the store in each sort; `noun` names the list in a refusal. */
export function makeListHandler(list: 'order-list' | 'trip-list', options: { pages: Record<Sort, PageSource>; cursors: CursorCodec; noun: string }): Handler {
  const { pages, cursors, noun } = options;
  return async function listPage(_req, res) {
    const tenantId = paramsOf(res)['tenantId']!;
    const query = queryOf<{ after?: string; limit?: number; status?: string[]; sort?: Sort }>(res);
    const sort = query.sort ?? 'newest';
    // A cursor is bound to its sort as well as its tenant: its position means nothing read the other way.
    const scope = `${tenantId}/${sort}`;
    let position: FeedPosition | null = null;
    if (query.after !== undefined) {
      position = cursors.decode(list, scope, query.after);
      if (position === null) {
        refuse('audit.cursor.invalid', `The after cursor was not issued by this server for this tenant's ${noun} list sorted ${sort} first.`, 'after', query.after);
      }
    }
    const page = await pages[sort](tenantId, {
      position: position ?? (sort === 'newest' ? ABOVE_EVERY_STAMP : null),
      since: null,
      statuses: query.status === undefined ? null : [...new Set(query.status)],
      limit: Math.min(query.limit ?? LIST_LIMIT.default, LIST_LIMIT.max),
    });
    sendJsonText(res, 200, pageJson(page.items, page.next === null ? null : cursors.encode(list, scope, page.next)));
  };
}
