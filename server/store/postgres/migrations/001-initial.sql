-- The reference sandbox's schema on PostgreSQL: the same history, file for file, as SQLite's
-- (server/store/migrations/), written for PostgreSQL (D75):
-- - every text column compares and sorts byte by byte (COLLATE "C"), as SQLite's text does,
--   whatever the database's own collation: feed order, keyset bounds and unique names then
--   agree on both engines;
-- - timestamps of the API (D20) are their RFC 3339 text, as on SQLite; milliseconds since
--   the epoch and counters are bigint (read as JavaScript numbers, D73), REAL is double
--   precision, BLOB is bytea, flags stay integer 0/1 so the store's SQL reads the same;
-- - SQLite's AUTOINCREMENT is an identity column: a number is never used twice.

CREATE TABLE meta (
  key   text COLLATE "C" PRIMARY KEY,
  value text COLLATE "C" NOT NULL
);

CREATE TABLE tenants (
  id          text COLLATE "C" PRIMARY KEY,
  name        text COLLATE "C" NOT NULL,
  country     text COLLATE "C" NOT NULL,
  state       text COLLATE "C" NOT NULL DEFAULT 'Active' CHECK (state IN ('Active', 'Suspended', 'Archived')),
  skills      text COLLATE "C" NOT NULL DEFAULT '[]',
  -- Newest updatedAtUtc stamp issued in the tenant, in ms since the epoch (D7).
  clock       bigint NOT NULL DEFAULT 0,
  created_at  text COLLATE "C" NOT NULL
);

CREATE TABLE api_keys (
  id           text COLLATE "C" PRIMARY KEY,
  tenant_id    text COLLATE "C" NOT NULL REFERENCES tenants (id),
  name         text COLLATE "C" NOT NULL,
  -- SHA-256 of the whole key; the key itself is never stored.
  secret_hash  bytea NOT NULL,
  scopes       text COLLATE "C" NOT NULL,
  rate_limit   integer NOT NULL,
  created_at   text COLLATE "C" NOT NULL,
  revoked_at   text COLLATE "C"
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id);

CREATE TABLE warehouses (
  id         text COLLATE "C" PRIMARY KEY,
  tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id),
  name       text COLLATE "C" NOT NULL,
  address    text COLLATE "C" NOT NULL
);

CREATE TABLE products (
  id         text COLLATE "C" PRIMARY KEY,
  tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id),
  name       text COLLATE "C" NOT NULL,
  sku        text COLLATE "C" NOT NULL,
  weight_kg  double precision NOT NULL,
  volume_m3  double precision NOT NULL,
  price      double precision NOT NULL
);

CREATE TABLE drivers (
  id         text COLLATE "C" PRIMARY KEY,
  tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id),
  full_name  text COLLATE "C" NOT NULL,
  phone      text COLLATE "C" NOT NULL,
  email      text COLLATE "C" NOT NULL
);

CREATE TABLE vehicles (
  id           text COLLATE "C" PRIMARY KEY,
  tenant_id    text COLLATE "C" NOT NULL REFERENCES tenants (id),
  plate        text COLLATE "C" NOT NULL,
  model        text COLLATE "C" NOT NULL,
  capacity_kg  double precision NOT NULL
);

CREATE TABLE tags (
  id         text COLLATE "C" PRIMARY KEY,
  tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id),
  name       text COLLATE "C" NOT NULL,
  color      text COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX tags_name ON tags (tenant_id, name);

CREATE TABLE trips (
  id            text COLLATE "C" PRIMARY KEY,
  tenant_id     text COLLATE "C" NOT NULL REFERENCES tenants (id),
  short_id      text COLLATE "C" NOT NULL,
  status        text COLLATE "C" NOT NULL,
  warehouse_id  text COLLATE "C" NOT NULL,
  driver_id     text COLLATE "C",
  vehicle_id    text COLLATE "C",
  stop_count    integer NOT NULL DEFAULT 0,
  planned_at    text COLLATE "C" NOT NULL,
  updated_at    text COLLATE "C" NOT NULL
);
-- The trip feed's keyset: (updatedAtUtc, id) within a tenant.
CREATE INDEX trips_feed ON trips (tenant_id, updated_at, id);

CREATE TABLE orders (
  id                text COLLATE "C" PRIMARY KEY,
  tenant_id         text COLLATE "C" NOT NULL REFERENCES tenants (id),
  external_id       text COLLATE "C",
  short_id          text COLLATE "C" NOT NULL,
  status            text COLLATE "C" NOT NULL,
  mini_status       text COLLATE "C",
  type              text COLLATE "C" NOT NULL,
  custom_id         text COLLATE "C",
  related_order_id  text COLLATE "C",
  trip_id           text COLLATE "C" REFERENCES trips (id),
  address           text COLLATE "C",
  tags              text COLLATE "C" NOT NULL DEFAULT '[]',
  created_at        text COLLATE "C" NOT NULL,
  updated_at        text COLLATE "C" NOT NULL,
  archived_at       text COLLATE "C"
);
-- The order feed's keyset over live orders: (updatedAtUtc, id) within a tenant.
CREATE INDEX orders_feed ON orders (tenant_id, updated_at, id) WHERE archived_at IS NULL;
-- One live order per external id in a tenant; archived ones keep theirs for the history.
CREATE UNIQUE INDEX orders_external_id ON orders (tenant_id, external_id)
  WHERE external_id IS NOT NULL AND archived_at IS NULL;
CREATE INDEX orders_trip ON orders (trip_id) WHERE trip_id IS NOT NULL;

CREATE TABLE order_lines (
  id            text COLLATE "C" PRIMARY KEY,
  order_id      text COLLATE "C" NOT NULL REFERENCES orders (id),
  position      integer NOT NULL,
  warehouse_id  text COLLATE "C" NOT NULL,
  product_id    text COLLATE "C" NOT NULL,
  quantity      integer NOT NULL,
  role          text COLLATE "C" NOT NULL,
  weight_kg     double precision NOT NULL,
  volume_m3     double precision NOT NULL,
  price         double precision NOT NULL
);
CREATE INDEX order_lines_order ON order_lines (order_id, position);

CREATE TABLE order_payments (
  order_id     text COLLATE "C" NOT NULL REFERENCES orders (id),
  payment_id   text COLLATE "C" NOT NULL,
  amount       double precision NOT NULL,
  currency     text COLLATE "C" NOT NULL,
  recorded_at  text COLLATE "C" NOT NULL,
  PRIMARY KEY (order_id, payment_id)
);

CREATE TABLE order_history (
  seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id  text COLLATE "C" NOT NULL REFERENCES orders (id),
  at        text COLLATE "C" NOT NULL,
  kind      text COLLATE "C" NOT NULL,
  data      text COLLATE "C" NOT NULL
);
CREATE INDEX order_history_order ON order_history (order_id, seq);

-- Stored answers of requests sent with an Idempotency-Key (D13).
CREATE TABLE idempotency (
  tenant_id    text COLLATE "C" NOT NULL,
  key          text COLLATE "C" NOT NULL,
  fingerprint  text COLLATE "C" NOT NULL,
  status       integer NOT NULL,
  content_type text COLLATE "C",
  body         text COLLATE "C" NOT NULL,
  created_at   bigint NOT NULL,
  PRIMARY KEY (tenant_id, key)
);
CREATE INDEX idempotency_age ON idempotency (created_at);
