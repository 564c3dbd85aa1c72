/**
 * Loads a fixture dataset into one tenant in a single transaction. Ids are scoped to the
 * tenant (a fixed function of tenant and fixture id), so one dataset can be loaded into
 * many tenants and two tenants never share a row.
 */
import { createHash } from 'node:crypto';
import type { Dataset } from '../../fixtures/dataset.ts';
import type { Tenants } from '../tenants/store.ts';
import { q, type Sql, statement, type Steps } from './sql.ts';

/** The id a fixture row takes in `tenantId`: a UUID made from both. */
export function scopedId(tenantId: string, id: string): string {
  const hex = createHash('sha256').update(`${tenantId}:${id}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const WAREHOUSE = statement('INSERT INTO warehouses (id, tenant_id, name, address) VALUES (?, ?, ?, ?)');
const PRODUCT = statement('INSERT INTO products (id, tenant_id, name, sku, weight_kg, volume_m3, price) VALUES (?, ?, ?, ?, ?, ?, ?)');
const DRIVER = statement('INSERT INTO drivers (id, tenant_id, full_name, phone, email) VALUES (?, ?, ?, ?, ?)');
const VEHICLE = statement('INSERT INTO vehicles (id, tenant_id, plate, model, capacity_kg) VALUES (?, ?, ?, ?, ?)');
const TAG = statement('INSERT INTO tags (id, tenant_id, name, color) VALUES (?, ?, ?, ?)');
const TRIP = statement(
  'INSERT INTO trips (id, tenant_id, short_id, status, warehouse_id, driver_id, vehicle_id, stop_count, planned_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const ORDER = statement(
  `INSERT INTO orders (id, tenant_id, external_id, short_id, status, mini_status, type, custom_id, related_order_id, trip_id, address, tags, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const LINE = statement(
  'INSERT INTO order_lines (id, order_id, position, warehouse_id, product_id, quantity, role, weight_kg, volume_m3, price) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const PAYMENT = statement('INSERT INTO order_payments (order_id, payment_id, amount, currency, recorded_at) VALUES (?, ?, ?, ?, ?)');
const HISTORY = statement('INSERT INTO order_history (order_id, at, kind, data) VALUES (?, ?, ?, ?)');

/** The steps that insert every row of `dataset` into the tenant; they answer the counts. Run them in one unit of work. */
export function* importDataset(tenants: Tenants, tenantId: string, dataset: Dataset): Steps<{ orders: number; trips: number }> {
  const id = (fixtureId: string) => scopedId(tenantId, fixtureId);
  const maybe = (fixtureId: string | null) => (fixtureId === null ? null : id(fixtureId));
  for (const w of dataset.warehouses) yield* q.run(WAREHOUSE, [id(w.id), tenantId, w.name, JSON.stringify(w.address)]);
  for (const p of dataset.products) yield* q.run(PRODUCT, [id(p.id), tenantId, p.name, p.sku, p.weightKg, p.volumeM3, p.price]);
  for (const d of dataset.drivers) yield* q.run(DRIVER, [id(d.id), tenantId, d.fullName, d.phone, d.email]);
  for (const v of dataset.vehicles) yield* q.run(VEHICLE, [id(v.id), tenantId, v.plate, v.model, v.capacityKg]);
  for (const t of dataset.tags) yield* q.run(TAG, [id(t.id), tenantId, t.name, t.color]);
  let newest = '';
  for (const t of dataset.trips) {
    yield* q.run(TRIP, [id(t.id), tenantId, t.shortId, t.status, id(t.warehouseId), maybe(t.driverId), maybe(t.vehicleId), t.orderIds.length, t.plannedAtUtc, t.updatedAtUtc]);
    if (t.updatedAtUtc > newest) newest = t.updatedAtUtc;
  }
  for (const o of dataset.orders) {
    const orderId = id(o.id);
    yield* q.run(ORDER, [orderId, tenantId, o.externalId, o.shortId, o.status, o.miniStatus, o.type, o.customId, maybe(o.relatedToOrderId), maybe(o.tripId), JSON.stringify(o.address), JSON.stringify(o.tags.map(id)), o.createdAtUtc, o.updatedAtUtc]);
    for (const [position, l] of o.lines.entries()) {
      yield* q.run(LINE, [id(l.id), orderId, position, id(l.warehouseId), id(l.productId), l.quantity, l.role, l.weightKg, l.volumeM3, l.price]);
    }
    for (const p of o.payments) yield* q.run(PAYMENT, [orderId, p.paymentId, p.amount, p.currency, o.updatedAtUtc]);
    yield* q.run(HISTORY, [orderId, o.createdAtUtc, 'created', JSON.stringify({ status: 'New' })]);
    if (o.updatedAtUtc > newest) newest = o.updatedAtUtc;
  }
  if (newest !== '') yield* tenants.steps.observeStamp(tenantId, newest);
  return { orders: dataset.orders.length, trips: dataset.trips.length };
}

/** Loads `dataset` into the tenant in one transaction; answers the counts. */
export function makeDatasetImport(store: { sql: Sql; tenants: Tenants }) {
  return (tenantId: string, dataset: Dataset): Promise<{ orders: number; trips: number }> =>
    store.sql.write(tenantId, () => importDataset(store.tenants, tenantId, dataset));
}
