-- The reference sandbox's schema. Timestamps of the API (D20) are stored as their
-- RFC 3339 text (`2026-11-20T09:30:11.482Z`): fixed width, so text order is time order,
-- and the feeds can emit them without conversion.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE tenants (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  country     TEXT NOT NULL,
  state       TEXT NOT NULL DEFAULT 'Active' CHECK (state IN ('Active', 'Suspended', 'Archived')),
  skills      TEXT NOT NULL DEFAULT '[]',
  -- Newest updatedAtUtc stamp issued in the tenant, in ms since the epoch (D7).
  clock       INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  tenant_id    TEXT NOT NULL REFERENCES tenants (id),
  name         TEXT NOT NULL,
  -- SHA-256 of the whole key; the key itself is never stored.
  secret_hash  BLOB NOT NULL,
  scopes       TEXT NOT NULL,
  rate_limit   INTEGER NOT NULL,
  created_at   TEXT NOT NULL,
  revoked_at   TEXT
) STRICT;
CREATE INDEX api_keys_tenant ON api_keys (tenant_id);

CREATE TABLE warehouses (
  id         TEXT PRIMARY KEY,
  tenant_id  TEXT NOT NULL REFERENCES tenants (id),
  name       TEXT NOT NULL,
  address    TEXT NOT NULL
) STRICT;

CREATE TABLE products (
  id         TEXT PRIMARY KEY,
  tenant_id  TEXT NOT NULL REFERENCES tenants (id),
  name       TEXT NOT NULL,
  sku        TEXT NOT NULL,
  weight_kg  REAL NOT NULL,
  volume_m3  REAL NOT NULL,
  price      REAL NOT NULL
) STRICT;

CREATE TABLE drivers (
  id         TEXT PRIMARY KEY,
  tenant_id  TEXT NOT NULL REFERENCES tenants (id),
  full_name  TEXT NOT NULL,
  phone      TEXT NOT NULL,
  email      TEXT NOT NULL
) STRICT;

CREATE TABLE vehicles (
  id           TEXT PRIMARY KEY,
  tenant_id    TEXT NOT NULL REFERENCES tenants (id),
  plate        TEXT NOT NULL,
  model        TEXT NOT NULL,
  capacity_kg  REAL NOT NULL
) STRICT;

CREATE TABLE tags (
  id         TEXT PRIMARY KEY,
  tenant_id  TEXT NOT NULL REFERENCES tenants (id),
  name       TEXT NOT NULL,
  color      TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX tags_name ON tags (tenant_id, name);

CREATE TABLE trips (
  id            TEXT PRIMARY KEY,
  tenant_id     TEXT NOT NULL REFERENCES tenants (id),
  short_id      TEXT NOT NULL,
  status        TEXT NOT NULL,
  warehouse_id  TEXT NOT NULL,
  driver_id     TEXT,
  vehicle_id    TEXT,
  stop_count    INTEGER NOT NULL DEFAULT 0,
  planned_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
) STRICT;
-- The trip feed's keyset: (updatedAtUtc, id) within a tenant.
CREATE INDEX trips_feed ON trips (tenant_id, updated_at, id);

CREATE TABLE orders (
  id                TEXT PRIMARY KEY,
  tenant_id         TEXT NOT NULL REFERENCES tenants (id),
  external_id       TEXT,
  short_id          TEXT NOT NULL,
  status            TEXT NOT NULL,
  mini_status       TEXT,
  type              TEXT NOT NULL,
  custom_id         TEXT,
  related_order_id  TEXT,
  trip_id           TEXT REFERENCES trips (id),
  address           TEXT,
  tags              TEXT NOT NULL DEFAULT '[]',
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  archived_at       TEXT
) STRICT;
-- The order feed's keyset over live orders: (updatedAtUtc, id) within a tenant.
CREATE INDEX orders_feed ON orders (tenant_id, updated_at, id) WHERE archived_at IS NULL;
-- One live order per external id in a tenant; archived ones keep theirs for the history.
CREATE UNIQUE INDEX orders_external_id ON orders (tenant_id, external_id)
  WHERE external_id IS NOT NULL AND archived_at IS NULL;
CREATE INDEX orders_trip ON orders (trip_id) WHERE trip_id IS NOT NULL;

CREATE TABLE order_lines (
  id            TEXT PRIMARY KEY,
  order_id      TEXT NOT NULL REFERENCES orders (id),
  position      INTEGER NOT NULL,
  warehouse_id  TEXT NOT NULL,
  product_id    TEXT NOT NULL,
  quantity      INTEGER NOT NULL,
  role          TEXT NOT NULL,
  weight_kg     REAL NOT NULL,
  volume_m3     REAL NOT NULL,
  price         REAL NOT NULL
) STRICT;
CREATE INDEX order_lines_order ON order_lines (order_id, position);

CREATE TABLE order_payments (
  order_id     TEXT NOT NULL REFERENCES orders (id),
  payment_id   TEXT NOT NULL,
  amount       REAL NOT NULL,
  currency     TEXT NOT NULL,
  recorded_at  TEXT NOT NULL,
  PRIMARY KEY (order_id, payment_id)
) STRICT;

CREATE TABLE order_history (
  seq       INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id  TEXT NOT NULL REFERENCES orders (id),
  at        TEXT NOT NULL,
  kind      TEXT NOT NULL,
  data      TEXT NOT NULL
) STRICT;
CREATE INDEX order_history_order ON order_history (order_id, seq);

-- Stored answers of requests sent with an Idempotency-Key (D13).
CREATE TABLE idempotency (
  tenant_id    TEXT NOT NULL,
  key          TEXT NOT NULL,
  fingerprint  TEXT NOT NULL,
  status       INTEGER NOT NULL,
  content_type TEXT,
  body         TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, key)
) STRICT;
CREATE INDEX idempotency_age ON idempotency (created_at);
