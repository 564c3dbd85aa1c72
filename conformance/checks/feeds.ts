/**
 * Feeds: the order feed and the trip feed as a consumer pages through them — order, page
 * size, cursors, filters, and what writes do to the order feed. Each rule is one builder
 * applied to both feeds (`feeds.orders.*`, `feeds.trips.*`); the parts live in feeds-*.ts.
 */
import type { Check } from '../types.ts';
import { changeChecks } from './feeds-changes.ts';
import { cursorChecks } from './feeds-cursor.ts';
import { filterChecks } from './feeds-filters.ts';
import { pagingChecks } from './feeds-paging.ts';
import { type FeedSpec, orderFeed, tripFeed } from './feeds-walk.ts';

/** The checks every feed gets. */
function checksOf(feed: FeedSpec): Check[] {
  return [...pagingChecks(feed), ...cursorChecks(feed), ...filterChecks(feed)];
}

/** The feeds family: the order feed's checks, then the trip feed's. */
export const feedsChecks: Check[] = [...checksOf(orderFeed), ...changeChecks, ...checksOf(tripFeed)];
