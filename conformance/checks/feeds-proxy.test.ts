import { describe, expect, it } from 'vitest';
import { answerJson, type AnswerRewrite, type ProxiedAnswer, type ProxiedRequest, type ProxyRewrite } from '../testing/proxy.ts';
import { runAgainstBroken } from '../testing/reference.ts';
import type { CheckResult } from '../types.ts';
import { feedsChecks } from './feeds.ts';

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
      ['feeds.orders.since.offset'],
    ],
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

  it('skips, never fails, when the target rate-limits the feeds', async () => {
    const { byId } = await runThrough((answer, request) =>
      feedRequest(request) === null
        ? answer
        : { status: 429, headers: { 'content-type': 'application/problem+json', 'retry-after': '30' }, body: Buffer.from(JSON.stringify({ type: 'api.rate_limited', title: 'Too many requests', status: 429, detail: null, instance: null })) },
    );
    expect(withOutcome(byId, 'skip')).toEqual(feedsChecks.map((check) => check.id));
    expect(byId.get('feeds.trips.order')?.reason).toBe('the trip feed answered 429 (rate limit of the tripsRead key); Retry-After 30');
  });

  it('passes through a proxy that changes nothing', async () => {
    const { byId } = await runThrough({});
    expect(withOutcome(byId, 'pass')).toEqual(feedsChecks.map((check) => check.id));
  });
});
