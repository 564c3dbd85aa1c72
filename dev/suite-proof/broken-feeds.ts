/**
 * Broken variants, the feeds (paging, cursors, filters, status rules) and the control plane's
 * seed rules (limits and trip life cycle).
 */
import { answerJson } from '../testing/conformance/proxy.ts';
import type { BrokenVariant } from './harness.ts';
import { editJson, endStatusRecordedAs, firstFieldError, is, overrideOrders, queryOf, resendChanged, sandboxAccepts, withJson, withQuery } from './rewrites.ts';

/** The feeds, and the control plane's seed rules. */
export const brokenFeeds: Record<string, BrokenVariant> = {
  // ── Feeds ───────────────────────────────────────────────────────────────────────────────
  'order pages newest first': {
    breaks: ['int.orders-feed.oldest-first'],
    fails: ['feeds.orders.order', 'feeds.orders.order.ties'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request), (page) => ({ ...page, items: [...(page['items'] as unknown[])].reverse() })),
  },
  'trip pages newest first': {
    breaks: ['int.trips-feed.oldest-first'],
    fails: ['feeds.trips.order', 'feeds.trips.order.ties'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.tripFeed(request), (page) => ({ ...page, items: [...(page['items'] as unknown[])].reverse() })),
  },
  'limit not capped': {
    breaks: ['int.orders-feed.limit', 'int.trips-feed.params', 'int.limits.page-size'],
    fails: ['discovery.responses.contract', 'feeds.orders.limit.cap', 'feeds.trips.limit.cap'],
    proxy: () => ({
      answer: async (answer, request, resend) => {
        const limit = Number(queryOf(request).get('limit'));
        const page = answerJson(answer) as { items?: unknown[]; nextCursor?: string | null } | undefined;
        if (!(limit > 100) || answer.status !== 200 || !page?.nextCursor) return answer;
        const more = answerJson(await resend(withQuery(request, (query) => { query.set('cursor', page.nextCursor!); query.set('limit', '100'); }))) as { items: unknown[]; nextCursor: string | null };
        return withJson(answer, { items: [...page.items!, ...more.items].slice(0, limit), nextCursor: more.nextCursor });
      },
    }),
  },
  'an order page of 20 by default': {
    breaks: ['int.orders-feed.limit', 'int.limits.page-size'],
    fails: ['feeds.orders.limit.default'],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && !queryOf(request).has('limit') ? { ...request, ...withQuery(request, (query) => query.set('limit', '20')) } : request) }),
  },
  'a malformed cursor served from the start': {
    breaks: ['int.orders-feed.cursor', 'int.trips-feed.refusals'],
    fails: ['acceptance.refused', 'acceptance.refused.decided', 'feeds.orders.cursor.malformed', 'feeds.orders.cursor.unissued', 'feeds.trips.cursor.malformed', 'feeds.trips.cursor.unissued'],
    proxy: () => resendChanged((_, answer) => answer.status === 400 && firstFieldError(answer)?.field === 'cursor', (request) => withQuery(request, (query) => query.delete('cursor'))),
  },
  'an unknown order status served unfiltered': {
    breaks: ['int.orders-feed.status'],
    fails: ['acceptance.refused', 'acceptance.refused.decided', 'feeds.orders.status.unknown', 'feeds.orders.status.unknown-field'],
    proxy: () => resendChanged((request, answer) => is.orderFeed(request) && answer.status === 400 && firstFieldError(answer)?.field === 'status', (request) => withQuery(request, (query) => query.delete('status'))),
  },
  'an unknown trip status served unfiltered': {
    breaks: ['int.trips-feed.refusals'],
    // The near misses of a trip status are refused by D16 (the trip feed's values are not shown): DECISION.
    fails: ['acceptance.refused.decided', 'feeds.trips.status.unknown', 'feeds.trips.status.unknown-field'],
    proxy: () => resendChanged((request, answer) => is.tripFeed(request) && answer.status === 400 && firstFieldError(answer)?.field === 'status', (request) => withQuery(request, (query) => query.delete('status'))),
  },
  'the order status filter ignored': {
    breaks: ['int.orders-feed.status'],
    fails: ['acceptance.refused', 'acceptance.refused.decided', 'feeds.orders.status.filter', 'feeds.orders.status.unknown', 'feeds.orders.status.unknown-field'],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && queryOf(request).has('status') && !queryOf(request).has('cursor') ? { ...request, ...withQuery(request, (query) => query.delete('status')) } : request) }),
  },
  'PartiallyCollected refused as a filter': {
    breaks: ['int.status.values', 'int.orders-feed.status'],
    fails: ['acceptance.accepted', 'feeds.orders.status.values'],
    proxy: () => ({
      answer: (answer, request) =>
        is.orderFeed(request) && queryOf(request).getAll('status').includes('PartiallyCollected')
          ? withJson({ ...answer, status: 400, headers: { ...answer.headers, 'content-type': 'application/problem+json' } }, { type: 'api.malformed_request', title: 'Bad Request', status: 400, detail: 'unknown status', errors: [{ field: 'status', code: 'api.malformed_request', value: 'PartiallyCollected', message: 'unknown status' }] })
          : answer,
    }),
  },
  'since ignored on the order feed': { breaks: ['int.orders-feed.since', 'int.orders-feed.follows-changes'], fails: ['acceptance.refused.decided', 'feeds.orders.cursor.end', 'feeds.orders.follow.changes', 'feeds.orders.since.filter', 'feeds.orders.since.future', 'feeds.orders.since.invalid', 'feeds.orders.since.offset'], proxy: () => ({ request: (request) => (is.orderFeed(request) && queryOf(request).has('since') ? { ...request, ...withQuery(request, (query) => query.delete('since')) } : request) }) },
  'since ignored on the trip feed': { breaks: ['int.trips-feed.params'], fails: ['acceptance.refused.decided', 'feeds.trips.cursor.end', 'feeds.trips.since.filter', 'feeds.trips.since.future', 'feeds.trips.since.invalid', 'feeds.trips.since.offset'], proxy: () => ({ request: (request) => (is.tripFeed(request) && queryOf(request).has('since') ? { ...request, ...withQuery(request, (query) => query.delete('since')) } : request) }) },
  'a since offset read as UTC on the order feed': {
    breaks: ['int.orders-feed.since'],
    fails: ['feeds.orders.since.offset'],
    proxy: () => ({ request: (request) => (is.orderFeed(request) && /[+-]\d\d:\d\d$/.test(queryOf(request).get('since') ?? '') ? { ...request, ...withQuery(request, (query) => query.set('since', query.get('since')!.replace(/[+-]\d\d:\d\d$/, 'Z'))) } : request) }),
  },
  'order nextCursor null while items remain': {
    breaks: ['int.orders-feed.caught-up', 'int.order-page.nextCursor'],
    fails: ['feeds.orders.cursor.more', 'feeds.orders.walk.same-items'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.orderFeed(request) && queryOf(request).has('cursor') && Number(queryOf(request).get('limit') ?? 50) <= 10, (page) => ({ ...page, nextCursor: null })),
  },
  'trip nextCursor null while items remain': {
    breaks: ['int.trips-feed.oldest-first', 'int.trip-page.nextCursor'],
    fails: ['feeds.trips.cursor.more', 'feeds.trips.walk.same-items'],
    proxy: () => editJson((request, answer) => answer.status === 200 && is.tripFeed(request) && queryOf(request).has('cursor') && Number(queryOf(request).get('limit') ?? 50) <= 10, (page) => ({ ...page, nextCursor: null })),
  },
  'a cancel that does not move the order to the tail': {
    breaks: ['int.orders-feed.follows-changes'],
    fails: ['feeds.orders.follow.changes'],
    wrapStore: (store) => {
      const stampOf = store.db.prepare<[string, string], string>('SELECT updated_at FROM orders WHERE tenant_id = ? AND external_id = ?').pluck();
      const restore = store.db.prepare('UPDATE orders SET updated_at = ? WHERE tenant_id = ? AND external_id = ?');
      return overrideOrders(store, (orders) => ({
        cancel: async (tenantId, externalId, reason) => {
          const before = stampOf.get(tenantId, externalId);
          const result = await orders.cancel(tenantId, externalId, reason);
          if (result.ok && before !== undefined) restore.run(before, tenantId, externalId);
          return result;
        },
      }));
    },
  },
  'delivered orders recorded as collected': { breaks: ['int.status.delivery-ends'], fails: ['feeds.orders.status.ends'], wrapStore: endStatusRecordedAs('Delivery', 'FullyDelivered', 'Collected') },
  'collected pickups recorded as delivered': { breaks: ['int.status.pickup-ends'], fails: ['feeds.orders.status.ends'], wrapStore: endStatusRecordedAs('Pickup', 'Collected', 'FullyDelivered') },
  'a rebox ending as collected': { breaks: ['int.status.rebox'], fails: ['feeds.orders.status.ends'], wrapStore: endStatusRecordedAs('Rebox', 'FullyDelivered', 'Collected') },

  // ── The control plane's seed rules ──────────────────────────────────────────────────────
  '101 capability skills accepted': { breaks: ['int.limits.skills'], fails: ['sandbox.tenants.skills'], proxy: () => sandboxAccepts('PUT', /\/skills$/, 'tenants.skills.too_many') },
  'a revoked key revoked again': { breaks: ['int.auth.key-rules', 'cat.apikeys'], fails: ['sandbox.apikeys'], proxy: () => sandboxAccepts('POST', /\/keys\/[^/]+\/revoke$/, 'apikeys.already_revoked') },
  'a repeated tag name accepted': { breaks: ['int.tag.rules'], fails: ['sandbox.tags', 'sandbox.tags.decided'], proxy: () => sandboxAccepts('POST', /\/tags$/, 'tags.duplicate') },
  'a 65-character tag name accepted': { breaks: ['int.limits.tag-name', 'int.tag.rules'], fails: ['sandbox.tags'], proxy: () => sandboxAccepts('POST', /\/tags$/, 'tags.name.invalid') },
  'a 65-character mini-status name accepted': { breaks: ['int.limits.mini-status-name', 'int.order.mini-status-rules'], fails: ['sandbox.ministatuses'], proxy: () => sandboxAccepts('POST', /\/ministatuses$/, 'ministatuses.name.invalid') },
  'a 129-character order mini-status accepted': { breaks: ['int.limits.order-mini-status', 'int.order.mini-status-rules'], fails: ['sandbox.ministatuses'], proxy: () => sandboxAccepts('PUT', /\/mini-status$/, 'orders.miniStatus.invalid') },
  'an import of 1001 rows accepted': { breaks: ['int.limits.import-rows'], fails: ['sandbox.import.limit'], proxy: () => sandboxAccepts('POST', /\/order-imports$/, 'import.rows.too_many') },
  'a started trip started again': { breaks: ['int.trip.start'], fails: ['sandbox.trips.lifecycle'], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/start$/, 'planning.trip_not_confirmed') },
  'a trip with an open stop completed': { breaks: ['int.trip.complete'], fails: ['sandbox.trips.lifecycle'], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/complete$/, 'planning.trip_has_open_stops') },
  'a trip cancelled without a reason': { breaks: ['int.trip.cancel'], fails: ['sandbox.trips.lifecycle'], proxy: () => sandboxAccepts('POST', /\/trips\/[^/]+\/cancel$/, 'trips.mutation.cancelReasonRequired') },
};
