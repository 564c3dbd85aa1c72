/**
 * Feeds: the order feed and the trip feed as a consumer pages through them — order, page
 * size, cursors, filters, order statuses, what writes do to the order feed, and (once the run
 * is over) every page the run read. Each rule is one builder applied to both feeds
 * (`feeds.orders.*`, `feeds.trips.*`) where it applies to both; the parts live in this folder.
 */
import type { Check } from '../../engine/types/check.ts';
import { changeChecks } from './changes.ts';
import { cursorChecks } from './cursor.ts';
import { filterChecks } from './filters.ts';
import { pagingChecks } from './paging.ts';
import { runLevelChecks } from './run.ts';
import { statusChecks } from './statuses.ts';
import { type FeedSpec, orderFeed, tripFeed } from './walk.ts';

/** The checks every feed gets. */
function checksOf(feed: FeedSpec): Check[] {
  return [...pagingChecks(feed), ...cursorChecks(feed), ...filterChecks(feed)];
}

/** The feeds family: the order feed's checks, then the trip feed's, then those that look at the whole run. */
export const feedsChecks: Check[] = [...checksOf(orderFeed), ...statusChecks, ...changeChecks, ...checksOf(tripFeed), ...runLevelChecks];
