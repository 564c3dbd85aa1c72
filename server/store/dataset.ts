/**
 * Loads a fixture dataset into one tenant in a single transaction. Ids are scoped to the
 * tenant (a fixed function of tenant and fixture id), so one dataset can be loaded into
 * many tenants and two tenants never share a row.
 */
import { createHash } from 'node:crypto';
import type { Dataset } from '../../fixtures/dataset.ts';
import type { Tenants } from '../tenants/store.ts';
import { type Db, transaction } from './db.ts';

/** The id a fixture row takes in `tenantId`: a UUID made from both. */
export function scopedId(tenantId: string, id: string): string {
  const hex = createHash('sha256').update(`${tenantId}:${id}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Statements of the import, prepared once per store. */
export function makeDatasetImport(store: { db: Db; tenants: Tenants }) {
  const { db } = store;
  const warehouse = db.prepare('INSERT INTO warehouses (id, tenant_id, name, address) VALUES (?, ?, ?, ?)');
  const product = db.prepare('INSERT INTO products (id, tenant_id, name, sku, weight_kg, volume_m3, price) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const driver = db.prepare('INSERT INTO drivers (id, tenant_id, full_name, phone, email) VALUES (?, ?, ?, ?, ?)');
  const vehicle = db.prepare('INSERT INTO vehicles (id, tenant_id, plate, model, capacity_kg) VALUES (?, ?, ?, ?, ?)');
  const tag = db.prepare('INSERT INTO tags (id, tenant_id, name, color) VALUES (?, ?, ?, ?)');
  const trip = db.prepare(
    'INSERT INTO trips (id, tenant_id, short_id, status, warehouse_id, driver_id, vehicle_id, stop_count, planned_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const order = db.prepare(
    `INSERT INTO orders (id, tenant_id, external_id, short_id, status, mini_status, type, custom_id, related_order_id, trip_id, address, tags, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const line = db.prepare(
    'INSERT INTO order_lines (id, order_id, position, warehouse_id, product_id, quantity, role, weight_kg, volume_m3, price) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const payment = db.prepare('INSERT INTO order_payments (order_id, payment_id, amount, currency, recorded_at) VALUES (?, ?, ?, ?, ?)');
  const history = db.prepare('INSERT INTO order_history (order_id, at, kind, data) VALUES (?, ?, ?, ?)');

  /** Inserts every row of `dataset` into the tenant; returns the counts. */
  return transaction(db, (tenantId: string, dataset: Dataset) => {
    const id = (fixtureId: string) => scopedId(tenantId, fixtureId);
    const maybe = (fixtureId: string | null) => (fixtureId === null ? null : id(fixtureId));
    for (const w of dataset.warehouses) warehouse.run(id(w.id), tenantId, w.name, JSON.stringify(w.address));
    for (const p of dataset.products) product.run(id(p.id), tenantId, p.name, p.sku, p.weightKg, p.volumeM3, p.price);
    for (const d of dataset.drivers) driver.run(id(d.id), tenantId, d.fullName, d.phone, d.email);
    for (const v of dataset.vehicles) vehicle.run(id(v.id), tenantId, v.plate, v.model, v.capacityKg);
    for (const t of dataset.tags) tag.run(id(t.id), tenantId, t.name, t.color);
    let newest = '';
    for (const t of dataset.trips) {
      trip.run(id(t.id), tenantId, t.shortId, t.status, id(t.warehouseId), maybe(t.driverId), maybe(t.vehicleId), t.orderIds.length, t.plannedAtUtc, t.updatedAtUtc);
      if (t.updatedAtUtc > newest) newest = t.updatedAtUtc;
    }
    for (const o of dataset.orders) {
      const orderId = id(o.id);
      order.run(orderId, tenantId, o.externalId, o.shortId, o.status, o.miniStatus, o.type, o.customId, maybe(o.relatedToOrderId), maybe(o.tripId), JSON.stringify(o.address), JSON.stringify(o.tags.map(id)), o.createdAtUtc, o.updatedAtUtc);
      o.lines.forEach((l, position) => line.run(id(l.id), orderId, position, id(l.warehouseId), id(l.productId), l.quantity, l.role, l.weightKg, l.volumeM3, l.price));
      for (const p of o.payments) payment.run(orderId, p.paymentId, p.amount, p.currency, o.updatedAtUtc);
      history.run(orderId, o.createdAtUtc, 'created', JSON.stringify({ status: 'New' }));
      if (o.updatedAtUtc > newest) newest = o.updatedAtUtc;
    }
    if (newest !== '') store.tenants.observeStamp(tenantId, newest);
    return { orders: dataset.orders.length, trips: dataset.trips.length };
  });
}
