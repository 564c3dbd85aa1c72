/**
 * Sandbox, lists (D87): a tenant's orders and trips listed newest-changed first, oldest first
 * with `sort=oldest`, by status, page by page with the cursors the control plane issues, and
 * a cursor it did not issue for the list and sort, an unknown status or a bad limit refused.
 * Each check builds its own tenant and knows the order its changes were made in.
 */
import { randomUUID } from 'node:crypto';
import { validateSchema } from '../../../spec/load.ts';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check } from '../../engine/types/check.ts';
import type { ExchangeRecord } from '../../engine/types/exchange.ts';
import { type ControlPlane, onControlPlane } from '../support/control-plane.ts';
import { objectOf, paths, received } from '../support/order-requests.ts';

/** The most pages a list is read over: the checks' lists hold a handful of items, two a page. */
const MOST_PAGES = 10;

/** A list of the check's tenant: its path, the schema of its items, and what the check calls its items. */
interface List {
  path: string;
  item: 'Order' | 'Trip';
  noun: string;
}

/**
 * The ids of every item of `list` with `query`, read two at a time by following `nextCursor`,
 * and the first page's cursor; a page that is not 200 with items of the list's schema ends
 * the check.
 */
async function readList(plane: ControlPlane, list: List, query: Record<string, string | string[]>, what: string): Promise<{ ids: string[]; firstCursor: string | null; last: ExchangeRecord }> {
  const ids: string[] = [];
  let after: string | undefined;
  let firstCursor: string | null = null;
  for (let page = 0; page < MOST_PAGES; page += 1) {
    const response = await plane.client.request({ method: 'GET', path: list.path, query: { ...query, limit: 2, after } });
    const body = objectOf(response);
    const items = body?.['items'];
    const next = body?.['nextCursor'];
    if (response.status !== 200 || !Array.isArray(items) || (next !== null && typeof next !== 'string')) {
      return plane.stop(finding(`${what}, page ${page + 1}: ${describeExchange(response.exchange)}`, '200 with items and nextCursor', received(response), response.exchange));
    }
    for (const item of items) {
      const errors = validateSchema(list.item, item);
      if (errors.length > 0) return plane.stop(finding(`${what}, page ${page + 1}: an item that is not the integration API's ${list.item}`, `items of the ${list.item} schema`, `${errors[0]!.instancePath || '/'} ${errors[0]!.message ?? 'is invalid'} in ${show(item)}`, response.exchange));
      ids.push((item as { id: string }).id);
    }
    if (page === 0) firstCursor = next as string | null;
    if (next === null) return { ids, firstCursor, last: response.exchange };
    after = next as string;
  }
  return plane.stop(finding(`${what}: still a nextCursor after ${MOST_PAGES} pages of 2`, `the end of the list within ${MOST_PAGES} pages`, `a list longer than the check made`));
}

/**
 * Reads `list` in each way the check asks for and records a finding wherever its ids are not
 * the expected ones in the expected order; then sends what it must refuse.
 */
async function expectListing(plane: ControlPlane, list: List, ways: [what: string, query: Record<string, string | string[]>, expected: string[]][], names: Map<string, string>): Promise<void> {
  const named = (ids: string[]) => ids.map((id) => names.get(id) ?? id).join(', ') || 'none';
  let newestCursor: string | null = null;
  for (const [what, query, expected] of ways) {
    const read = await readList(plane, list, query, `the ${list.noun} list ${what}`);
    if (query['sort'] === undefined && query['status'] === undefined) newestCursor = read.firstCursor;
    if (read.ids.join() !== expected.join()) plane.findings.push(finding(`the ${list.noun} list ${what}, read 2 a page`, named(expected), named(read.ids), read.last));
  }
  const refused = (query: Record<string, string>) => ({ method: 'GET', path: list.path, query });
  await plane.expect({ what: `the ${list.noun} list after a cursor nobody issued`, code: 'audit.cursor.invalid', field: 'after', request: refused({ after: `${randomUUID()}.AAAA` }) });
  if (newestCursor !== null) {
    await plane.expect({ what: `the ${list.noun} list sorted oldest first after a cursor of the newest-first list`, code: 'audit.cursor.invalid', field: 'after', request: refused({ sort: 'oldest', after: newestCursor }) });
  }
  await plane.expect({ what: `the ${list.noun} list by the status Done, which is none`, code: 'api.malformed_request', field: 'status', request: refused({ status: 'Done' }) });
  await plane.expect({ what: `the ${list.noun} list with limit 0`, code: 'api.malformed_request', field: 'limit', request: refused({ limit: '0' }) });
}

/** Three trips of the check's tenant, the first started last: listed newest first, oldest first and by status. */
export const tripList: Check = {
  id: 'sandbox.trips.list',
  family: 'sandbox',
  title: "the tenant's trips are listed newest-changed first, oldest first with sort=oldest, by status, page by page; a cursor not issued for the list and sort, an unknown status and limit 0 are refused 400",
  verifies: ['D87'],
  fix: "list the tenant's trips newest-changed first by (updatedAtUtc, id), oldest first with sort=oldest, filtered by status and paged by a cursor issued for that list and sort; refuse another cursor, an unknown status and limit 0 with 400 (D87)",
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const names = new Map<string, string>();
    const trips: string[] = [];
    for (const n of [1, 2, 3]) {
      const id = await plane.needId(`building trip ${n}`, { method: 'POST', path: `${tenant}/trips`, body: { orderIds: [await plane.order(tenant, `WAYBILL-TRIPLIST-${n}`)] } });
      names.set(id, `trip ${n}`);
      trips.push(id);
    }
    const [first, second, third] = trips as [string, string, string];
    await plane.need('starting trip 1, the change made last', { method: 'POST', path: `${tenant}/trips/${encodeURIComponent(first)}/start` });
    await expectListing(plane, { path: `${tenant}/trips`, item: 'Trip', noun: 'trip' }, [
      ['newest first (no sort)', {}, [first, third, second]],
      ['sorted oldest first', { sort: 'oldest' }, [second, third, first]],
      ['by the status Confirmed', { status: 'Confirmed' }, [third, second]],
      ['by the statuses InProgress and Cancelled', { status: ['InProgress', 'Cancelled'] }, [first]],
    ], names);
  }),
};

/** Four orders of the check's tenant, the first planned last and the fourth archived: listed newest first, oldest first and by status. */
export const orderList: Check = {
  id: 'sandbox.orders.list',
  family: 'sandbox',
  title: "the tenant's live orders are listed newest-changed first, oldest first with sort=oldest, by status, page by page, an archived one left out; a cursor not issued for the list and sort, an unknown status and limit 0 are refused 400",
  verifies: ['D87'],
  fix: "list the tenant's live orders newest-changed first by (updatedAtUtc, id), oldest first with sort=oldest, filtered by status and paged by a cursor issued for that list and sort, archived ones left out; refuse another cursor, an unknown status and limit 0 with 400 (D87)",
  requires: ['sandbox'],
  run: onControlPlane(async (plane, ctx) => {
    const tenant = await plane.tenant();
    const names = new Map<string, string>();
    const orders: string[] = [];
    for (const n of [1, 2, 3, 4]) {
      const id = await plane.order(tenant, `WAYBILL-ORDERLIST-${n}`);
      names.set(id, `order ${n}`);
      orders.push(id);
    }
    const [first, second, third] = orders as [string, string, string, string];
    await plane.trip(tenant, [first]);
    // An archived order leaves the list as it leaves the feed; archiving is the integration API's.
    const created = await plane.need('creating a key that may archive', { method: 'POST', path: `${tenant}/keys`, body: { name: 'waybill order list', scopes: [ctx.profile.choices?.writeScope ?? 'orders:write'] } });
    const archive = await ctx.http.request({ method: 'DELETE', path: paths.archive('WAYBILL-ORDERLIST-4'), key: String(created['secret']) });
    if (archive.status < 200 || archive.status > 299) return plane.stop(finding(`archiving order 4 through the integration API (needed by this check): ${describeExchange(archive.exchange)}`, '2xx', received(archive), archive.exchange));
    await plane.need('revoking the key this check made', { method: 'POST', path: `${tenant}/keys/${encodeURIComponent(String(created['id']))}/revoke` });
    await expectListing(plane, { path: `${tenant}/orders`, item: 'Order', noun: 'order' }, [
      ['newest first (no sort), order 4 archived', {}, [first, third, second]],
      ['sorted oldest first', { sort: 'oldest' }, [second, third, first]],
      ['by the status New', { status: 'New' }, [third, second]],
      ['by the statuses Planned and Cancelled', { status: ['Planned', 'Cancelled'] }, [first]],
    ], names);
  }),
};

/** The list checks. */
export const sandboxListChecks: Check[] = [orderList, tripList];
