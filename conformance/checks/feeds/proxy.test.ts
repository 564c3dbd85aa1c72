import { describe, expect, it } from 'vitest';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type ProxiedRequest, type ProxyRewrite, startProxy } from '../../../dev/testing/conformance/proxy.ts';
import { runAgainstBroken, runChecks, startReference } from '../../../dev/testing/conformance/reference.ts';
import type { CheckResult } from '../../engine/types/report.ts';
import { feedsChecks } from './index.ts';

/** Runs the family through a proxy in front of the reference that applies `rewrite`. */
function runThrough(rewrite: AnswerRewrite | ProxyRewrite) {
  return runAgainstBroken(feedsChecks, { rewrite });
}

/** The ids of the checks that ended `outcome`. */
function withOutcome(byId: Map<string, CheckResult>, outcome: CheckResult['outcome']): string[] {
  return [...byId.values()].filter((result) => result.outcome === outcome).map((result) => result.id);
}

/** Path and parsed query of a proxied request; null when it is not a feed request. */
function feedRequest(request: ProxiedRequest): URL | null {
  const url = new URL(request.url, 'http://proxy');
  return request.method === 'GET' && /^\/api\/v1\/integration\/(orders|trips)$/.test(url.pathname) ? url : null;
}

/** `url` as the path and query a proxied request carries. */
const pathOf = (url: URL) => `${url.pathname}${url.search}`;

/** An answer with `body` as its JSON. */
function withJson(answer: ProxiedAnswer, body: unknown): ProxiedAnswer {
  return { ...answer, body: Buffer.from(JSON.stringify(body)) };
}

interface Page {
  items: { id: string; updatedAtUtc: string }[];
  nextCursor: string | null;
}

/** Rewrites the items of every feed page. */
function pages(change: (page: Page, url: URL) => Page): AnswerRewrite {
  return (answer, request) => {
    const url = feedRequest(request);
    return url !== null && answer.status === 200 ? withJson(answer, change(answerJson(answer) as Page, url)) : answer;
  };
}

/** The field a 400 names in errors[0], if any. */
function refusedField(answer: ProxiedAnswer): unknown {
  return answer.status === 400 ? (answerJson(answer) as { errors?: { field?: unknown }[] } | undefined)?.errors?.[0]?.field : undefined;
}

/** A feed that accepts what the reference refuses for `parameter`: the request goes again without it. */
function accepting(parameter: string): AnswerRewrite {
  return (answer, request, resend) => {
    const url = feedRequest(request);
    if (url === null || refusedField(answer) !== parameter) return answer;
    url.searchParams.delete(parameter);
    return resend({ url: pathOf(url) });
  };
}

/** A feed whose refusals of `parameter` name another field. */
function naming(parameter: string): AnswerRewrite {
  return (answer, request) => {
    if (feedRequest(request) === null || refusedField(answer) !== parameter) return answer;
    const body = answerJson(answer) as { errors: { field: string }[] };
    body.errors[0]!.field = 'query';
    return withJson(answer, body);
  };
}

/** Reverses each run of items that share updatedAtUtc. */
function reverseTies(items: Page['items']): Page['items'] {
  const runs: Page['items'][] = [];
  for (const item of items) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last[0]!.updatedAtUtc === item.updatedAtUtc) last.push(item);
    else runs.push([item]);
  }
  return runs.flatMap((run) => run.reverse());
}

/** Feed answers to requests `when` picks, with nextCursor null. */
function nullCursorWhen(when: (url: URL) => boolean): AnswerRewrite {
  return pages((page, url) => (when(url) ? { ...page, nextCursor: null } : page));
}

/** A feed request sent again with its query changed by `change`, when `when` picks it. */
function resentWhen(when: (url: URL) => boolean, change: (url: URL) => void): AnswerRewrite {
  return (answer, request, resend) => {
    const url = feedRequest(request);
    if (url === null || !when(url)) return answer;
    change(url);
    return resend({ url: pathOf(url) });
  };
}

/**
 * A feed whose cursor carries the status and limit of the request that issued it (a reading the
 * seeds allow; D5 decides the filters apply as sent): a request with a cursor is sent again with
 * the filters of the page that issued that cursor.
 */
function cursorCarriesFilters(): AnswerRewrite {
  const issuedWith = new Map<string, { status: string[]; limit: string | null }>();
  return async (answer, request, resend) => {
    const url = feedRequest(request);
    if (url === null) return answer;
    const cursor = url.searchParams.get('cursor');
    const carried = cursor === null ? undefined : issuedWith.get(cursor);
    const sent = { status: url.searchParams.getAll('status'), limit: url.searchParams.get('limit') };
    let served = answer;
    if (carried !== undefined && (carried.limit !== sent.limit || carried.status.join() !== sent.status.join())) {
      url.searchParams.delete('status');
      for (const status of carried.status) url.searchParams.append('status', status);
      if (carried.limit === null) url.searchParams.delete('limit');
      else url.searchParams.set('limit', carried.limit);
      served = await resend({ url: pathOf(url) });
    }
    const next = served.status === 200 ? (answerJson(served) as Page).nextCursor : null;
    if (next !== null) issuedWith.set(next, carried ?? sent);
    return served;
  };
}

/** An order feed that refuses `status` as a filter value, as it refuses an unknown one. */
function refusingStatus(status: string): AnswerRewrite {
  return (answer, request) => {
    const url = feedRequest(request);
    if (url?.pathname !== '/api/v1/integration/orders' || !url.searchParams.getAll('status').includes(status)) return answer;
    const problem = { type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: 'unknown status', errors: [{ field: 'status', code: 'api.malformed_request', value: status, message: 'unknown status' }] };
    return { status: 400, headers: { ...answer.headers, 'content-type': 'application/problem+json' }, body: Buffer.from(JSON.stringify(problem)) };
  };
}

describe('feeds checks against broken answers', () => {
  it.each<[string, AnswerRewrite | ProxyRewrite, string[]]>([
    ['pages served newest first', pages((page) => ({ ...page, items: [...page.items].reverse() })), ['feeds.orders.order', 'feeds.orders.order.ties', 'feeds.trips.order', 'feeds.trips.order.ties']],
    ['ties served against id order', pages((page) => ({ ...page, items: reverseTies(page.items) })), ['feeds.orders.order.ties', 'feeds.trips.order.ties']],
    [
      'a limit above 100 served uncapped (the next page merged in)',
      async (answer, request, resend) => {
        const url = feedRequest(request);
        const limit = Number(url?.searchParams.get('limit'));
        if (url === null || answer.status !== 200 || !(limit > 100)) return answer;
        const first = answerJson(answer) as Page;
        if (first.nextCursor === null) return answer;
        const next = new URL(url);
        next.search = '';
        next.searchParams.set('cursor', first.nextCursor);
        next.searchParams.set('limit', '100');
        const second = answerJson(await resend({ url: pathOf(next) })) as Page;
        return withJson(answer, { items: [...first.items, ...second.items].slice(0, limit), nextCursor: second.nextCursor });
      },
    ['feeds.orders.limit.cap', 'feeds.trips.limit.cap'],
    ],
    [
      'a default page of 20',
      {
        request(request) {
          const url = feedRequest(request);
          if (url === null || url.searchParams.has('limit')) return request;
          url.searchParams.set('limit', '20');
          return { ...request, url: pathOf(url) };
        },
      },
      ['feeds.orders.limit.default', 'feeds.trips.limit.default'],
    ],
    ['a limit below 1 or not an integer served as the default', accepting('limit'), ['feeds.orders.limit.invalid', 'feeds.trips.limit.invalid']],
    ['cursors that are not validated (a refused cursor starts over)', accepting('cursor'), ['feeds.orders.cursor.malformed', 'feeds.orders.cursor.unissued', 'feeds.trips.cursor.malformed', 'feeds.trips.cursor.unissued']],
    ['a refused cursor named as another field', naming('cursor'), ['feeds.orders.cursor.unissued', 'feeds.trips.cursor.unissued']],
    ['unknown statuses ignored', accepting('status'), ['feeds.orders.status.unknown', 'feeds.orders.status.unknown-field', 'feeds.trips.status.unknown', 'feeds.trips.status.unknown-field']],
    ['a refused status named as another field', naming('status'), ['feeds.orders.status.unknown-field', 'feeds.trips.status.unknown-field']],
    ['a since that is not a date-time ignored', accepting('since'), ['feeds.orders.since.invalid', 'feeds.trips.since.invalid']],
    [
      'a since whose offset is dropped (its local time read as UTC)',
      {
        request(request) {
          const url = feedRequest(request);
          const since = url?.searchParams.get('since');
          if (url === null || since == null || !/[+-]\d{2}:\d{2}$/.test(since)) return request;
          url.searchParams.set('since', `${since.slice(0, -6)}Z`);
          return { ...request, url: pathOf(url) };
        },
      },
      ['feeds.orders.since.offset', 'feeds.trips.since.offset'],
    ],
    // A since after now answered from the start: the empty page (D6: also final) is not served.
    ['a since a year ahead served from the start', resentWhen((url) => Date.parse(url.searchParams.get('since') ?? '') > Date.now() && !url.searchParams.has('cursor'), (url) => url.searchParams.delete('since')), ['feeds.orders.since.future', 'feeds.trips.since.future', 'feeds.orders.cursor.end', 'feeds.trips.cursor.end']],
    ['PartiallyCollected refused as a status filter', refusingStatus('PartiallyCollected'), ['feeds.orders.status.values']],
    [
      'a trip feed that takes order statuses (Planned ignored)',
      (answer, request, resend) => {
        const url = feedRequest(request);
        if (url?.pathname !== '/api/v1/integration/trips' || url.searchParams.get('status') !== 'Planned') return answer;
        url.searchParams.delete('status');
        return resend({ url: pathOf(url) });
      },
      ['feeds.trips.status.unknown-field'],
    ],
  ])('%s fails exactly the checks of that rule', async (_name, rewrite, failing) => {
    const { byId } = await runThrough(rewrite);
    expect(withOutcome(byId, 'fail').sort()).toEqual([...failing].sort());
    expect(withOutcome(byId, 'error')).toEqual([]);
    for (const id of failing) expect(byId.get(id)!.findings[0]?.exchange, id).toBeDefined();
  });

  it.each<[string, AnswerRewrite, string[]]>([
    // walk.same-items (limit 1) reads small pages after a cursor too; the walks of 100 do not (follow.* skip: the follower's feed ends).
    [
      'nextCursor null on small pages read with a cursor',
      nullCursorWhen((url) => url.searchParams.has('cursor') && Number(url.searchParams.get('limit') ?? 50) <= 10),
      ['feeds.orders.cursor.more', 'feeds.trips.cursor.more', 'feeds.orders.walk.same-items', 'feeds.trips.walk.same-items'],
    ],
    ['nextCursor null under a status filter', nullCursorWhen((url) => url.searchParams.has('status')), ['feeds.orders.cursor.more', 'feeds.trips.cursor.more']],
  ])('%s (the feed said caught up too early) fails the MUST check cursor.more', async (_name, rewrite, failing) => {
    const { byId } = await runThrough(rewrite);
    expect(withOutcome(byId, 'fail').sort()).toEqual([...failing].sort());
    expect(withOutcome(byId, 'error')).toEqual([]);
    for (const id of ['feeds.orders.cursor.more', 'feeds.trips.cursor.more']) {
      expect(byId.get(id)!.level, id).toBe('MUST');
      expect(byId.get(id)!.findings[0]?.message, id).toMatch(/said the feed is caught up while items remained$/);
    }
  });

  it.each<[string, AnswerRewrite, string[]]>([
    ['since preferred to a cursor sent with it', resentWhen((url) => url.searchParams.has('cursor') && url.searchParams.has('since'), (url) => url.searchParams.delete('cursor')), ['feeds.orders.cursor.since-ignored', 'feeds.trips.cursor.since-ignored']],
    ['a cursor sent with since refused', (answer, request) => { const url = feedRequest(request); return url?.searchParams.has('cursor') && url.searchParams.has('since') ? { ...answer, status: 400, body: Buffer.from(JSON.stringify({ type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: 'cursor or since, not both' })) } : answer; }, ['feeds.orders.cursor.since-ignored', 'feeds.trips.cursor.since-ignored']],
    ['a cursor that carries the filters of the page that issued it', cursorCarriesFilters(), ['feeds.orders.cursor.filters-as-sent', 'feeds.trips.cursor.filters-as-sent']],
  ])('%s (seed-valid, D5 decides otherwise) fails only the D5 checks, every MUST check passing', async (_name, rewrite, failing) => {
    const { byId } = await runThrough(rewrite);
    expect(withOutcome(byId, 'fail').sort()).toEqual([...failing].sort());
    expect(withOutcome(byId, 'error')).toEqual([]);
    for (const id of failing) expect(byId.get(id)!.verifies, id).toEqual(['D5']);
    const must = [...byId.values()].filter((result) => result.level === 'MUST');
    expect(must.filter((result) => result.outcome !== 'pass').map((result) => `${result.id}: ${result.outcome}`)).toEqual([]);
  });

  it('skips, never fails, when the target rate-limits the feeds', async () => {
    const { byId } = await runThrough((answer, request) =>
      feedRequest(request) === null
        ? answer
        : { status: 429, headers: { 'content-type': 'application/problem+json', 'retry-after': '30' }, body: Buffer.from(JSON.stringify({ type: 'api.rate_limited', title: 'Too many requests', status: 429, detail: null, instance: null })) },
    );
    expect(withOutcome(byId, 'skip')).toEqual(feedsChecks.map((check) => check.id));
    expect(byId.get('feeds.trips.order')?.reason).toBe('the trip feed answered 429 (rate limit of the tripsRead key); Retry-After 30');
  });

  it('reads trips with the names the profile gives their members (D15 only names them)', async () => {
    const renamed: Record<string, string> = { id: 'tripId', updatedAtUtc: 'changedAt', shortId: 'code' };
    const reference = await startReference();
    const proxy = await startProxy(
      reference.server.url,
      pages((page, url) => (url.pathname.endsWith('/trips') ? { ...page, items: page.items.map((trip) => Object.fromEntries(Object.entries(trip).map(([name, value]) => [renamed[name] ?? name, value]))) as Page['items'] } : page)),
    );
    try {
      const profile = { ...reference.profile, target: proxy.url, choices: { tripFields: { id: 'tripId', updatedAt: 'changedAt', shortCode: 'code' } } };
      const { byId } = await runChecks(feedsChecks, profile);
      expect(withOutcome(byId, 'pass')).toEqual(feedsChecks.map((check) => check.id));
      // The other tenant's trips are known by their renamed ids too: the trip feed's run-level check found them in its own feed.
      expect(byId.get('feeds.trips.walks.tenant')?.exchangeCount).toBeGreaterThan(0);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });

  it('passes through a proxy that changes nothing', async () => {
    const { byId } = await runThrough({});
    expect(withOutcome(byId, 'pass')).toEqual(feedsChecks.map((check) => check.id));
  });
});
