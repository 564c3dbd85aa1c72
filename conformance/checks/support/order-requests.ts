/**
 * What the auth, writes and http families share: the integration API's paths, request bodies,
 * one request per operation, expectations on a problem answer, and a walk of the order feed.
 * Knows the contract's paths and shapes only; nothing here knows an implementation.
 */
import { randomUUID } from 'node:crypto';
import { mediaTypeOf } from '../../contract/catalog-rules.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { CheckContext, Finding } from '../../engine/types/check.ts';
import type { ExchangeRecord, HttpRequest, HttpResponse } from '../../engine/types/exchange.ts';

const integration = '/api/v1/integration';

/** The paths of the six operations; external ids are percent-encoded into their segment. */
export const paths = {
  orderFeed: `${integration}/orders`,
  tripFeed: `${integration}/trips`,
  whoami: `${integration}/whoami`,
  payment: (externalId: string) => `${integration}/orders/externalid/${encodeURIComponent(externalId)}/payment`,
  cancel: (externalId: string) => `${integration}/orders/externalid/${encodeURIComponent(externalId)}/cancel`,
  archive: (externalId: string) => `${integration}/orders/externalid/${encodeURIComponent(externalId)}`,
};

/** A valid payment body with a fresh paymentId; `overrides` replace (or, as undefined, drop) members. */
export function paymentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { paymentId: randomUUID(), amount: 12.5, currency: 'EUR', ...overrides };
  for (const [name, value] of Object.entries(body)) if (value === undefined) delete body[name];
  return body;
}

/** An external id no target holds, so a request on it can change nothing even when wrongly accepted. */
export function absentExternalId(ctx: CheckContext): string {
  return `waybill-absent-${Math.floor(ctx.random() * 2 ** 48).toString(36)}`;
}

/** A key no target issued (random, so it cannot be a valid key by chance). */
export function invalidKey(ctx: CheckContext): string {
  return `waybill-invalid-${Math.floor(ctx.random() * 2 ** 48).toString(36)}${Math.floor(ctx.random() * 2 ** 48).toString(36)}`;
}

/** One request per operation of the integration API (writes on `externalId`, with valid bodies). */
export function everyOperation(externalId: string): { operation: string; request: HttpRequest }[] {
  return [
    { operation: 'orderFeed', request: { method: 'GET', path: paths.orderFeed } },
    { operation: 'tripFeed', request: { method: 'GET', path: paths.tripFeed } },
    ...writeOperations(externalId),
    { operation: 'whoami', request: { method: 'GET', path: paths.whoami } },
  ];
}

/** The three writes on `externalId`, with valid bodies. */
export function writeOperations(externalId: string): { operation: string; request: HttpRequest }[] {
  return [
    { operation: 'attachPayment', request: { method: 'POST', path: paths.payment(externalId), body: paymentBody() } },
    { operation: 'cancelOrder', request: { method: 'POST', path: paths.cancel(externalId), body: { reason: 'waybill conformance' } } },
    { operation: 'archiveOrder', request: { method: 'DELETE', path: paths.archive(externalId) } },
  ];
}

/** The answer's body as a JSON object, or undefined. */
export function objectOf(response: HttpResponse): Record<string, unknown> | undefined {
  const body = response.json;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/** `404 {"type":…}`: an answer as short text for `received`. */
export function received(response: HttpResponse): string {
  return `${response.status} ${show(response.json ?? (response.text === '' ? '(no body)' : response.text), 300)}`;
}

/** `errors[0].field` of a problem, or undefined. */
export function firstErrorField(response: HttpResponse): unknown {
  const errors = objectOf(response)?.['errors'];
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  return first !== null && typeof first === 'object' ? (first as Record<string, unknown>)['field'] : undefined;
}

/**
 * Findings unless `response` is the problem `status` with `type` (when given) and, when `field`
 * is given, `errors[0].field` equal to it. `what` says which request it was.
 */
export function expectProblem(response: HttpResponse, expected: { status: number; type?: string; field?: string }, what: string): Finding[] {
  const shape = [`${expected.status}`, expected.type, expected.field === undefined ? undefined : `errors[0].field ${expected.field}`].filter(Boolean).join(', ');
  const where = `${what}: ${describeExchange(response.exchange)}`;
  if (response.status !== expected.status) return [finding(where, shape, received(response), response.exchange)];
  const type = objectOf(response)?.['type'];
  if (expected.type !== undefined && type !== expected.type) return [finding(`${where}: wrong problem type`, `type ${expected.type}`, `type ${show(type)}`, response.exchange)];
  const field = firstErrorField(response);
  if (expected.field !== undefined && field !== expected.field) {
    return [finding(`${where}: the problem does not name the field`, `errors[0].field ${expected.field}`, `errors: ${show(objectOf(response)?.['errors'])}`, response.exchange)];
  }
  return [];
}

/** Findings unless `response` is an `about:blank` problem with its own status (D21). */
export function aboutBlankFindings(response: HttpResponse, what: string): Finding[] {
  const where = `${what}: ${describeExchange(response.exchange)}`;
  const findings: Finding[] = [];
  const contentType = response.headers['content-type'];
  if (mediaTypeOf(contentType) !== 'application/problem+json') findings.push(finding(`${where}: not a problem body`, 'Content-Type: application/problem+json', contentType ?? 'no Content-Type', response.exchange));
  const body = objectOf(response);
  if (body?.['type'] !== 'about:blank' || body['status'] !== response.status) {
    findings.push(finding(`${where}: not an about:blank problem`, show({ type: 'about:blank', status: response.status }), show({ type: body?.['type'], status: body?.['status'] }), response.exchange));
  }
  return findings;
}

/** An item of a feed page, as far as the walks look at it. */
export type FeedItem = Record<string, unknown>;

/** A walked feed: its items in the order served, and whether the walk reached a null nextCursor. */
export interface FeedWalk {
  items: FeedItem[];
  complete: boolean;
  /** The exchange of the page that served `item`. */
  exchangeOf(item: FeedItem): ExchangeRecord | undefined;
}

/**
 * Follows a feed from its start (or from `since`) with `key` until nextCursor is null or
 * `maxPages` pages were read. A page that is not 200 with `items` and `nextCursor` is a finding.
 */
export async function walkFeed(ctx: CheckContext, options: { path: string; key: string; since?: string; maxPages?: number }): Promise<FeedWalk | Finding> {
  const items: FeedItem[] = [];
  const pages = new Map<FeedItem, ExchangeRecord>();
  const exchangeOf = (item: FeedItem) => pages.get(item);
  let cursor: string | null = null;
  for (let page = 0; page < (options.maxPages ?? 50); page += 1) {
    const query = cursor === null ? { limit: 100, since: options.since } : { limit: 100, cursor };
    const response = await ctx.http.request({ method: 'GET', path: options.path, key: options.key, query });
    const body = objectOf(response);
    const pageItems = body?.['items'];
    const next = body?.['nextCursor'];
    if (response.status !== 200 || !Array.isArray(pageItems) || !(next === null || typeof next === 'string')) {
      return finding(`reading the feed with the ${options.key} key: ${describeExchange(response.exchange)}`, '200 with items and nextCursor', received(response), response.exchange);
    }
    for (const item of pageItems) {
      if (item === null || typeof item !== 'object') continue;
      items.push(item as FeedItem);
      pages.set(item as FeedItem, response.exchange);
    }
    if (next === null) return { items, complete: true, exchangeOf };
    cursor = next;
  }
  return { items, complete: false, exchangeOf };
}
