/**
 * What the sync scenarios grade with: the pages the client read, from the request log's
 * structured page of each feed answer (D48: nextCursor and each item's id, updatedAtUtc and
 * status, whatever the body's size, so every page size from 1 to 100 is graded), the feed as the
 * grader reads it now, and the findings that compare the two.
 */
import { orderStatuses } from '../../../spec/load.ts';
import type { Finding } from '../../engine/types/check.ts';
import type { LogEntry, LogSummary, PageItem } from '../control-plane.ts';
import type { ClientRun, ScenarioSession } from '../scenario.ts';
import { found } from './grading.ts';
import { counted } from '../../../cli/counted.ts';

/** A page the client read: its request, its query and what it answered. */
export interface ReadPage {
  entry: LogSummary;
  query: URLSearchParams;
  items: PageItem[];
  nextCursor: string | null;
}

export const FEED_PATH = '/api/v1/integration/orders';
export const TRIP_FEED_PATH = '/api/v1/integration/trips';

/** The statuses the contract lists: any other is one a client must treat as not final. */
const LISTED = new Set<string>(orderStatuses);

/** True for an order status the contract does not list (OnHold, D54). */
export const unlisted = (status: string) => !LISTED.has(status);

/** `id@updatedAtUtc`: one version of an item, as consumers dedupe on it (D4). */
const versionOf = (item: PageItem) => `${item.id}@${Date.parse(item.updatedAtUtc)}`;

/** Entries of the log with their pages, fetched a few at a time, in the order given. */
async function entriesOf(session: ScenarioSession, summaries: readonly LogSummary[]): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  for (let start = 0; start < summaries.length; start += 8) entries.push(...(await Promise.all(summaries.slice(start, start + 8).map((summary) => session.entry(summary)))));
  return entries;
}

/** The pages of a feed (`orderFeed`, `tripFeed`) the client read whole in `run`, oldest first. */
export async function pagesOf(session: ScenarioSession, run: ClientRun, operation = 'orderFeed'): Promise<ReadPage[]> {
  const answered = run.requests.filter((request) => request.operation === operation && request.status === 200);
  const pages: ReadPage[] = [];
  for (const entry of await entriesOf(session, answered)) {
    if (entry.page === null || entry.page === undefined) {
      // A `malformed` fault cut the answer: the client never got that page.
      if (entry.fault?.fault === 'malformed') continue;
      throw new Error(`the request log kept no page for ${entry.method} ${entry.path} (#${entry.id}); client-check needs a sandbox whose log keeps feed pages (D48)`);
    }
    pages.push({ entry, query: new URL(entry.path, 'http://log').searchParams, items: entry.page.items, nextCursor: entry.page.nextCursor });
  }
  return pages;
}

/** A feed (`path`) as it stands now, read by the grader to the end: every item in feed order (a changed item again at the tail). */
export async function feedNow(session: ScenarioSession, path = FEED_PATH): Promise<PageItem[]> {
  const { http, key } = await session.integration();
  const items: PageItem[] = [];
  let cursor: string | null = null;
  do {
    const answer = await http.request({ method: 'GET', path, key, query: { limit: 100, cursor: cursor ?? undefined } });
    if (answer.status !== 200) throw new Error(`the grader's feed read answered ${answer.status}`);
    const page = answer.json as { items: PageItem[]; nextCursor: string | null };
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return items;
}

/** The newest version of every item of the feed `path` now. */
export async function currentItems(session: ScenarioSession, path = FEED_PATH): Promise<PageItem[]> {
  return [...new Map((await feedNow(session, path)).map((item) => [item.id, item])).values()];
}

/** The newest `updatedAtUtc` among `pages`' items, in ms; null when they hold none. */
export function newestOf(pages: readonly ReadPage[]): number | null {
  const stamps = pages.flatMap((page) => page.items.map((item) => Date.parse(item.updatedAtUtc)));
  return stamps.length === 0 ? null : Math.max(...stamps);
}

/** Findings unless some page of the feed was read and the last one ended the feed (`nextCursor` null). */
export function reachedTheEnd(pages: readonly ReadPage[], run: ClientRun, path = FEED_PATH): Finding[] {
  const last = pages.at(-1);
  if (last === undefined) return [found('The client never read a page of the feed', `GET ${path} answered 200`, 'no such request in the request log', run.requests.slice(-3))];
  if (last.nextCursor === null) return [];
  const shown = pages.slice(-2).map((page) => page.entry);
  const stopper = path === FEED_PATH ? last.items.find((item) => unlisted(item.status)) : undefined;
  if (stopper !== undefined) {
    return [found(`The sync stopped at an order in status ${stopper.status}, which the contract does not list`, 'an unknown status treated as not final: pages read on until one answers nextCursor null', `the last page read (order ${stopper.id} ${stopper.status}) had a nextCursor`, shown)];
  }
  return [found('The sync stopped before the feed was caught up', 'pages read until one answers nextCursor null', `the last page read had nextCursor ${last.nextCursor.slice(0, 24)}…`, shown)];
}

/** Findings for each page not read from the previous page's `nextCursor` (while that was not null). */
export function followedCursors(pages: readonly ReadPage[]): Finding[] {
  const broken = pages.slice(1).filter((page, index) => {
    const previous = pages[index] as ReadPage;
    return previous.nextCursor !== null && page.query.get('cursor') !== previous.nextCursor;
  });
  const first = broken[0];
  if (first === undefined) return [];
  const previous = pages[pages.indexOf(first) - 1] as ReadPage;
  const sent = first.query.get('cursor') === null ? `no cursor (${first.query.toString() || 'no query'})` : `another cursor`;
  return [found(`${counted(broken.length, 'page was', 'pages were')} not read from the previous page's nextCursor`, `cursor=${(previous.nextCursor as string).slice(0, 24)}… (the previous page's nextCursor)`, sent, [previous.entry, first.entry])];
}

/**
 * A finding when an item changed between the walk's start (`since`, when it gave one) and the
 * newest change it read is missing from its pages in that version. An item that changed while
 * the walk went on moves to the feed's tail, so a walk that follows `nextCursor` to null reads it.
 */
export function missedNothing(pages: readonly ReadPage[], current: readonly PageItem[]): Finding[] {
  const newest = newestOf(pages);
  if (newest === null) return [];
  const since = pages[0]?.query.get('cursor') === null ? pages[0]?.query.get('since') : null;
  const from = since === null || since === undefined ? -Infinity : Date.parse(since);
  const read = new Set(pages.flatMap((page) => page.items.map(versionOf)));
  const missed = current.filter((item) => {
    const stamp = Date.parse(item.updatedAtUtc);
    return stamp >= from && stamp <= newest && !read.has(versionOf(item));
  });
  if (missed.length === 0) return [];
  const examples = missed.slice(0, 3).map((item) => `${item.id} ${item.status} at ${item.updatedAtUtc}`).join('; ');
  return [found('The sync missed changes', `every item changed from ${since ?? 'the start'} to ${new Date(newest).toISOString()} (the newest change it read), in that version`, `${missed.length} missed, e.g. ${examples}`, pages.map((page) => page.entry).slice(-3))];
}
