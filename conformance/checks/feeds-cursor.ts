/**
 * Feeds, cursors the target did not issue: a garbage string, an issued cursor with junk
 * appended, cut short, or with one character changed. None of it assumes a cursor format.
 */
import { finding, show } from '../findings.ts';
import type { Check, CheckContext, Finding } from '../types.ts';
import { feedRun, type FeedSpec, parameterProblem, readPage, requestFeed } from './feeds-walk.ts';

/** A value no server issues as a cursor. */
const GARBAGE = '***not-a-cursor***';

/** A cursor the target issued (the first page's, one item a page); skips when the feed issues none. */
async function issuedCursor(ctx: CheckContext, feed: FeedSpec): Promise<string> {
  const page = await readPage(ctx, feed, { limit: 1 });
  if (page.nextCursor === null) return ctx.skip(`the ${feed.label} holds at most one item, so it issued no cursor to alter`);
  return page.nextCursor;
}

/** `cursor` with its middle character replaced by another (a different letter in either case, or digit). */
function edited(cursor: string): string {
  const middle = Math.floor(cursor.length / 2);
  const character = cursor[middle] ?? '';
  const replacement = /\d/.test(character) ? String((Number(character) + 1) % 10) : character.toLowerCase() === 'q' ? 'r' : 'q';
  return `${cursor.slice(0, middle)}${replacement}${cursor.slice(middle + 1)}`;
}

/** Damaged cursors by name: those any reading of "malformed" covers, and those D5 adds. */
function damaged(cursor: string, withDecision: boolean): [string, string][] {
  const plain: [string, string][] = [
    ['a garbage string', GARBAGE],
    ['an issued cursor with junk appended', `${cursor}!*~junk`],
  ];
  if (!withDecision) return plain;
  return [...plain, ...(cursor.length > 3 ? [['an issued cursor without its last 3 characters', cursor.slice(0, -3)] as [string, string]] : []), ['an issued cursor with its middle character changed', edited(cursor)]];
}

/** A garbage cursor or an issued one with junk appended is answered 400. */
const malformedCursor = (feed: FeedSpec): Check => ({
  id: `feeds.${feed.name}.cursor.malformed`,
  family: 'feeds',
  title: `the ${feed.label} answers 400 to a malformed cursor`,
  verifies: feed.name === 'orders' ? ['int.orders-feed.cursor'] : ['int.trips-feed.refusals'],
  requires: [],
  run: feedRun(async (ctx) => {
    const cursor = await issuedCursor(ctx, feed);
    const findings: Finding[] = [];
    for (const [name, value] of damaged(cursor, false)) {
      const response = await requestFeed(ctx, feed, { cursor: value, limit: 1 });
      if (response.status !== 400) findings.push(finding(`${feed.label}: ${name} as cursor was not answered 400`, '400', `${response.status} ${show(response.json ?? response.text, 200)}`, response.exchange));
    }
    return findings;
  }),
});

/** Every cursor the target did not issue, cut or edited ones too, is 400 `api.malformed_request` naming `cursor` (D5). */
const unissuedCursor = (feed: FeedSpec): Check => ({
  id: `feeds.${feed.name}.cursor.unissued`,
  family: 'feeds',
  title: `the ${feed.label} refuses any cursor it did not issue (garbage, junk appended, cut short, edited) with 400 naming cursor`,
  verifies: ['D5'],
  requires: [],
  run: feedRun(async (ctx) => {
    const cursor = await issuedCursor(ctx, feed);
    const findings: Finding[] = [];
    for (const [name, value] of damaged(cursor, true)) {
      const response = await requestFeed(ctx, feed, { cursor: value, limit: 1 });
      const problem = parameterProblem(response, 'cursor');
      if (problem !== null) findings.push(finding(`${feed.label}: ${name} as cursor was not refused as malformed`, '400 api.malformed_request with errors[0].field cursor', problem, response.exchange));
    }
    return findings;
  }),
});

/** The cursor checks of `feed`. */
export function cursorChecks(feed: FeedSpec): Check[] {
  return [malformedCursor(feed), unissuedCursor(feed)];
}
