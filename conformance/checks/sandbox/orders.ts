/**
 * Sandbox, orders: the intake rules of the control plane, the JSON import (its limit, a body
 * that is not rows, a refused row inside a 200) and the paging of an order's history.
 */
import { randomUUID } from 'node:crypto';
import { describeExchange, finding, show } from '../../engine/findings.ts';
import type { Check, Finding } from '../../engine/types/check.ts';
import type { HttpResponse } from '../../engine/types/exchange.ts';
import { intake, onControlPlane } from '../support/control-plane.ts';
import { objectOf, received } from '../support/order-requests.ts';

/**
 * Every intake rule answers its orders.* code naming the field, and an external id no URL can
 * carry (`.`, `..`) is api.malformed_request (D92); a repeated external id and a restore of a
 * live order are 409.
 */
export const intakeRules: Check = {
  id: 'sandbox.intake',
  family: 'sandbox',
  title: 'order intake refuses each broken rule with its orders.* code and field, and the external ids . and .. (no URL carries them) with api.malformed_request; a live external id again is 409 orders.duplicate, restoring a live order 409 orders.notArchived',
  verifies: ['D36', 'D92'],
  fix: 'refuse each broken intake rule with its orders.* code and field, the external ids . and .. with 400 api.malformed_request naming externalId, a live external id again with 409 orders.duplicate and a restore of a live order with 409 orders.notArchived (D36, D92)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const create = (body: Record<string, unknown>) => ({ method: 'POST', path: `${tenant}/orders`, body });
    const refused: [string, Parameters<typeof plane.expect>[0]['code'], string, Record<string, unknown>][] = [
      ['an order without externalId', 'orders.externalId.required', 'externalId', intake('', { externalId: undefined })],
      ['an order whose externalId is ".", which no URL can carry', 'api.malformed_request', 'externalId', intake('.')],
      ['an order whose externalId is "..", which no URL can carry', 'api.malformed_request', 'externalId', intake('..')],
      ['an order without lines', 'orders.lines.required', 'lines', intake('WAYBILL-BAD', { lines: [] })],
      ['a line without warehouseId', 'orders.line.warehouseRequired', 'lines[0].warehouseId', intake('WAYBILL-BAD', {}, { warehouseId: undefined })],
      ['a line without productId', 'orders.line.productRequired', 'lines[0].productId', intake('WAYBILL-BAD', {}, { productId: undefined })],
      ['a line of quantity 0', 'orders.line.requestedQty.invalid', 'lines[0].quantity', intake('WAYBILL-BAD', {}, { quantity: 0 })],
      ['a line of weight -1', 'orders.line.measure.invalid', 'lines[0].weightKg', intake('WAYBILL-BAD', {}, { weightKg: -1 })],
      ['a line of volume -1', 'orders.line.measure.invalid', 'lines[0].volumeM3', intake('WAYBILL-BAD', {}, { volumeM3: -1 })],
      ['a line priced -0.01', 'orders.price.invalid', 'lines[0].price', intake('WAYBILL-BAD', {}, { price: -0.01 })],
      ['a Pickup with a PickUp line', 'orders.line.roleNotAllowed', 'lines[0].role', intake('WAYBILL-BAD', { type: 'Pickup' }, { role: 'PickUp' })],
      ['a Return without relatedToOrderId', 'orders.return.relatedRequired', 'relatedToOrderId', intake('WAYBILL-BAD', { type: 'Return' })],
      ['a Return related to an order the tenant does not have', 'orders.return.relatedRequired', 'relatedToOrderId', intake('WAYBILL-BAD', { type: 'Return', relatedToOrderId: randomUUID() })],
    ];
    for (const [what, code, field, body] of refused) await plane.expect({ what, code, field, request: create(body) });
    const orderId = await plane.order(tenant, 'WAYBILL-INTAKE-1');
    await plane.expect({ what: 'a second intake of the live external id WAYBILL-INTAKE-1', code: 'orders.duplicate', request: create(intake('WAYBILL-INTAKE-1')) });
    await plane.expect({ what: 'restoring a live order', code: 'orders.notArchived', request: { method: 'POST', path: `${tenant}/orders/${encodeURIComponent(orderId)}/restore` } });
  }),
};

/** 1001 rows: 400 import.rows.too_many naming rows. */
export const importLimit: Check = {
  id: 'sandbox.import.limit',
  family: 'sandbox',
  title: 'an import of 1001 rows is refused 400 import.rows.too_many, field rows',
  verifies: ['int.limits.import-rows'],
  fix: 'refuse an import of more than 1000 rows with 400 import.rows.too_many naming rows (int.limits.import-rows)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const rows = Array.from({ length: 1001 }, (_, i) => intake(`WAYBILL-IMPORT-${i}`));
    await plane.expect({ what: 'an import of 1001 rows', code: 'import.rows.too_many', field: 'rows', request: { method: 'POST', path: `${await plane.tenant()}/order-imports`, body: { rows } } });
  }),
};

/** Findings unless an import answer is 200 with row 0 created and row 1 refused as import.row.invalid naming `field` with `code`. */
function rowViolations(response: HttpResponse, expected: { field: string; code: string }): Finding[] {
  const where = `an import of one good row and one of quantity 0 (import.row.invalid): ${describeExchange(response.exchange)}`;
  const rows = objectOf(response)?.['rows'];
  if (response.status !== 200 || !Array.isArray(rows)) return [finding(where, '200 with rows', received(response), response.exchange)];
  const rowAt = (index: number) => rows.find((row: unknown): row is Record<string, unknown> => typeof row === 'object' && row !== null && (row as Record<string, unknown>)['row'] === index);
  const findings: Finding[] = [];
  const good = rowAt(0);
  if (typeof good?.['orderId'] !== 'string' || good['type'] !== null) findings.push(finding(`${where}: the good row was not created`, 'row 0: orderId (string), type null', `row 0: ${show(good)}`, response.exchange));
  const bad = rowAt(1);
  const errors = bad?.['errors'];
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  const fieldError = typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
  if (bad?.['type'] !== 'import.row.invalid' || bad['orderId'] !== null || fieldError?.['field'] !== expected.field || fieldError['code'] !== expected.code) {
    findings.push(finding(`${where}: the refused row is not reported`, `row 1: orderId null, type import.row.invalid, errors[0] field ${expected.field} code ${expected.code}`, `row 1: ${show(bad)}`, response.exchange));
  }
  return findings;
}

/** rows not an array of objects: 400 import.file.invalid; a refused row inside a 200: import.row.invalid. */
export const importRows: Check = {
  id: 'sandbox.import.rows',
  family: 'sandbox',
  title: 'an import whose rows are not objects is refused 400 import.file.invalid; a broken row is reported import.row.invalid inside a 200 while the good rows are created',
  verifies: ['D37'],
  fix: 'refuse an import whose rows are not objects with 400 import.file.invalid, and report a broken row as import.row.invalid inside a 200 that creates the good rows (D37)',
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const imports = `${await plane.tenant()}/order-imports`;
    const send = (body: unknown) => ({ method: 'POST', path: imports, body });
    await plane.expect({ what: 'an import whose rows is a string', code: 'import.file.invalid', field: 'rows', request: send({ rows: 'WAYBILL-1' }) });
    await plane.expect({ what: 'an import whose second row is a string', code: 'import.file.invalid', field: 'rows[1]', request: send({ rows: [intake('WAYBILL-ROW-0'), 'WAYBILL-ROW-1'] }) });
    const response = await plane.client.request(send({ rows: [intake('WAYBILL-ROW-0'), intake('WAYBILL-ROW-1', {}, { quantity: 0 })] }));
    plane.findings.push(...rowViolations(response, { field: 'lines[0].quantity', code: 'orders.line.requestedQty.invalid' }));
  }),
};

/** page is refused; an after the server did not issue, or issued for another order, is refused. */
export const historyPaging: Check = {
  id: 'sandbox.history',
  family: 'sandbox',
  title: "an order history with page is refused 400 audit.page.retired; an after cursor not issued for that order is refused 400 audit.cursor.invalid",
  verifies: ['D40'],
  fix: "page an order's history by an after cursor issued for that order only: refuse page with 400 audit.page.retired and any other cursor with 400 audit.cursor.invalid (D40)",
  requires: ['sandbox'],
  run: onControlPlane(async (plane) => {
    const tenant = await plane.tenant();
    const planned = await plane.order(tenant, 'WAYBILL-HISTORY-1');
    const other = await plane.order(tenant, 'WAYBILL-HISTORY-2');
    const history = (orderId: string) => `${tenant}/orders/${encodeURIComponent(orderId)}/history`;
    await plane.expect({ what: 'an order history with page=2', code: 'audit.page.retired', field: 'page', request: { method: 'GET', path: history(other), query: { page: 2 } } });
    await plane.expect({ what: 'an order history after a cursor nobody issued', code: 'audit.cursor.invalid', field: 'after', request: { method: 'GET', path: history(other), query: { after: 'bm90LWlzc3VlZA.AAAA' } } });
    // Planning the order adds a status event to its creation, so a page of one has a next cursor.
    await plane.trip(tenant, [planned]);
    const page = await plane.client.request({ method: 'GET', path: history(planned), query: { limit: 1 } });
    const cursor = objectOf(page)?.['nextCursor'];
    if (page.status !== 200 || typeof cursor !== 'string') {
      plane.findings.push(finding(`the first history entry of a planned order (limit=1): ${describeExchange(page.exchange)}`, '200 with a nextCursor (created and status events)', received(page), page.exchange));
      return;
    }
    await plane.expect({ what: "an order history after another order's cursor", code: 'audit.cursor.invalid', field: 'after', request: { method: 'GET', path: history(other), query: { after: cursor } } });
  }),
};

/** The orders checks. */
export const sandboxOrderChecks: Check[] = [intakeRules, importLimit, importRows, historyPaging];
