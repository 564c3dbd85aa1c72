/**
 * Loads a fixture dataset into one tenant in a single transaction, with the story that led
 * its orders and trips to their state (dataset-story.ts). Ids are scoped to the tenant (a
 * fixed function of tenant and fixture id), so one dataset can be loaded into many tenants
 * and two tenants never share a row.
 */
import { createHash } from 'node:crypto';
import type { Dataset } from '../../fixtures/dataset.ts';
import type { Tenants } from '../tenants/store.ts';
import { datasetStory } from './dataset-story.ts';
import { q, type Sql, type Statement, statement, type Steps } from './sql.ts';

/** The id a fixture row takes in `tenantId`: a UUID made from both. */
export function scopedId(tenantId: string, id: string): string {
  const hex = createHash('sha256').update(`${tenantId}:${id}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// Each table's rows go in as multi-row inserts: a profile's provisioning imports three datasets.
const WAREHOUSES = 'INSERT INTO warehouses (id, tenant_id, name, address) VALUES';
const PRODUCTS = 'INSERT INTO products (id, tenant_id, name, sku, weight_kg, volume_m3, price) VALUES';
const DRIVERS = 'INSERT INTO drivers (id, tenant_id, full_name, phone, email) VALUES';
const VEHICLES = 'INSERT INTO vehicles (id, tenant_id, plate, model, capacity_kg) VALUES';
const TAGS = 'INSERT INTO tags (id, tenant_id, name, color) VALUES';
const TRIPS = 'INSERT INTO trips (id, tenant_id, short_id, status, warehouse_id, driver_id, vehicle_id, stop_count, planned_at, updated_at) VALUES';
const ORDERS = 'INSERT INTO orders (id, tenant_id, external_id, short_id, status, mini_status, type, custom_id, related_order_id, trip_id, address, tags, created_at, updated_at) VALUES';
const LINES = 'INSERT INTO order_lines (id, order_id, position, warehouse_id, product_id, quantity, role, weight_kg, volume_m3, price) VALUES';
const PAYMENTS = 'INSERT INTO order_payments (order_id, payment_id, amount, currency, recorded_at) VALUES';
const HISTORY = 'INSERT INTO order_history (order_id, at, kind, data) VALUES';
const STOPS = 'INSERT INTO trip_stops (trip_id, position, order_id, status, reason_code, outcomes, finished_at) VALUES';

/** The most rows one insert takes; the rest go in chunks of half as many, and half again, so each table has a few statement texts. */
const MOST_ROWS = 256;
const rowsStatements = new Map<string, Statement>();

/** `head` followed by `size` rows of `width` placeholders, made once. */
function rowsStatement(head: string, width: number, size: number): Statement {
  const key = `${head} ${size}`;
  let found = rowsStatements.get(key);
  if (found === undefined) {
    const row = `(${new Array<string>(width).fill('?').join(', ')})`;
    found = statement(`${head} ${new Array<string>(size).fill(row).join(', ')}`);
    rowsStatements.set(key, found);
  }
  return found;
}

/** Inserts `rows` with `head` (`INSERT INTO t (a, b) VALUES`), in order, up to MOST_ROWS a statement. */
function* insertRows(head: string, rows: readonly (readonly unknown[])[]): Steps<void> {
  let at = 0;
  for (let size = MOST_ROWS; size >= 1; size >>= 1) {
    for (; rows.length - at >= size; at += size) {
      const values: unknown[] = [];
      for (let row = at; row < at + size; row++) for (const value of rows[row]!) values.push(value);
      yield* q.run(rowsStatement(head, rows[at]!.length, size), values);
    }
  }
}

// requirement: D40
/**
 * The steps that insert every row of `dataset` into the tenant, with the story that led its
 * orders and trips there (each order's history, each trip's stops); they answer the counts.
 * Run them in one unit of work.
 */
export function* importDataset(tenants: Tenants, tenantId: string, dataset: Dataset): Steps<{ orders: number; trips: number }> {
  const ids = new Map<string, string>();
  const id = (fixtureId: string) => {
    let found = ids.get(fixtureId);
    if (found === undefined) ids.set(fixtureId, (found = scopedId(tenantId, fixtureId)));
    return found;
  };
  const maybe = (fixtureId: string | null) => (fixtureId === null ? null : id(fixtureId));
  const story = datasetStory(dataset, id);
  yield* insertRows(WAREHOUSES, dataset.warehouses.map((w) => [id(w.id), tenantId, w.name, JSON.stringify(w.address)]));
  yield* insertRows(PRODUCTS, dataset.products.map((p) => [id(p.id), tenantId, p.name, p.sku, p.weightKg, p.volumeM3, p.price]));
  yield* insertRows(DRIVERS, dataset.drivers.map((d) => [id(d.id), tenantId, d.fullName, d.phone, d.email]));
  yield* insertRows(VEHICLES, dataset.vehicles.map((v) => [id(v.id), tenantId, v.plate, v.model, v.capacityKg]));
  yield* insertRows(TAGS, dataset.tags.map((t) => [id(t.id), tenantId, t.name, t.color]));
  yield* insertRows(TRIPS, dataset.trips.map((t) => [id(t.id), tenantId, t.shortId, t.status, id(t.warehouseId), maybe(t.driverId), maybe(t.vehicleId), t.orderIds.length, t.plannedAtUtc, t.updatedAtUtc]));
  yield* insertRows(ORDERS, dataset.orders.map((o) => [
    id(o.id), tenantId, o.externalId, o.shortId, o.status, o.miniStatus, o.type, o.customId, maybe(o.relatedToOrderId), maybe(o.tripId),
    JSON.stringify(o.address), JSON.stringify(o.tags.map(id)), o.createdAtUtc, o.updatedAtUtc,
  ]));
  yield* insertRows(LINES, dataset.orders.flatMap((o) => o.lines.map((l, position) => [id(l.id), id(o.id), position, id(l.warehouseId), id(l.productId), l.quantity, l.role, l.weightKg, l.volumeM3, l.price])));
  yield* insertRows(PAYMENTS, dataset.orders.flatMap((o) => o.payments.map((p) => [id(o.id), p.paymentId, p.amount, p.currency, story.orders.get(o.id)!.paidAt])));
  yield* insertRows(HISTORY, dataset.orders.flatMap((o) => story.orders.get(o.id)!.history.map((entry) => [id(o.id), entry.at, entry.kind, JSON.stringify(entry.data)])));
  yield* insertRows(STOPS, dataset.trips.flatMap((t) => story.stops.get(t.id)!.map((stop, position) => [
    id(t.id), position, id(stop.orderId), stop.status, stop.reasonCode, stop.outcomes === null ? null : JSON.stringify(stop.outcomes), stop.finishedAt,
  ])));
  const newest = [...dataset.trips, ...dataset.orders].reduce((max, item) => (item.updatedAtUtc > max ? item.updatedAtUtc : max), '');
  if (newest !== '') yield* tenants.steps.observeStamp(tenantId, newest);
  return { orders: dataset.orders.length, trips: dataset.trips.length };
}

/** Loads `dataset` into the tenant in one transaction; answers the counts. */
export function makeDatasetImport(store: { sql: Sql; tenants: Tenants }) {
  return (tenantId: string, dataset: Dataset): Promise<{ orders: number; trips: number }> =>
    store.sql.write(tenantId, () => importDataset(store.tenants, tenantId, dataset));
}
