/**
 * A feed page as the request log keeps it (D48): `[nextCursor, [[id, updatedAtUtc, status], …]]`,
 * compact, no member names repeated per item (a page of 100 is about 8.5 KB). When the answer's
 * body is kept whole (at most 16 KiB), the page is not kept a second time: the entry says
 * `PAGE_IN_BODY` and the page is read back from the body's items when the entry is read.
 */
import { KEY_STRINGS } from '../store/feed-sql.ts';

/** A feed page as the request log keeps it (D48): its nextCursor and each item's id, updatedAtUtc and status, flat (`FeedRows.keys`). */
export interface LoggedPage {
  nextCursor: string | null;
  keys: readonly string[];
}

/**
 * An entry's page held by its response body, kept whole: what the capture hands on instead of
 * the page's text, and what a chunk stores instead of its length (chunks.ts). Making the text
 * and writing it took ~8 % of a feed page's CPU (`dev/bench/ab.ts`: 0.919 with it gone, 50 a page).
 */
export const PAGE_IN_BODY = -3;

/** A feed page as an entry has it: its text, `PAGE_IN_BODY`, or null (not a feed page the client got whole). */
export type EntryPage = string | typeof PAGE_IN_BODY | null;

/**
 * A feed page's text. Its strings are the sandbox's own — ids it made, timestamps of its clock,
 * status names of the contract — none of which holds a character JSON escapes, so each is written
 * between quotes as it is.
 */
export function feedPageText(page: LoggedPage): string {
  const { keys } = page;
  const cursor = JSON.stringify(page.nextCursor);
  if (keys.length === 0) return `[${cursor},[]]`;
  // One join of the items' inner texts: the fewest strings made on the way (a template an item made three more).
  const items = new Array<string>(keys.length / KEY_STRINGS);
  for (let at = 0, i = 0; at < keys.length; at += KEY_STRINGS, i++) items[i] = keys[at] + '","' + keys[at + 1] + '","' + keys[at + 2];
  return `[${cursor},[["${items.join('"],["')}"]]]`;
}

/** An order or trip feed's answer (`OrderPage`, `TripPage`), as much of it as a page's text reads. */
interface PageBody {
  items: { id: string; updatedAtUtc: string; status: string }[];
  nextCursor: string | null;
}

/** The text of the page `body` answered: the body of a feed page kept whole (`PAGE_IN_BODY`). */
export function pageTextOfBody(body: string): string {
  const { items, nextCursor } = JSON.parse(body) as PageBody;
  return feedPageText({ nextCursor, keys: items.flatMap(({ id, updatedAtUtc, status }) => [id, updatedAtUtc, status]) });
}
