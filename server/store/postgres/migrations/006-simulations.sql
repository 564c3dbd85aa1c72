-- The living-feed simulation of a tenant (D53, D54).
CREATE TABLE simulations (
  tenant_id          text COLLATE "C" PRIMARY KEY REFERENCES tenants (id),
  running            integer NOT NULL,
  changes_per_minute double precision NOT NULL,
  seed               bigint NOT NULL,
  unknown_statuses   integer NOT NULL DEFAULT 0,
  -- How many times it was started in the tenant: part of the ids it makes, so that a
  -- restart with the same seed never makes an id twice.
  run                integer NOT NULL DEFAULT 1,
  -- Tenant time, ms since the epoch.
  started_at         bigint NOT NULL,
  -- How many changes it made; `position` counts the changes that fell due (made, or
  -- skipped while the tenant was not Active), and names the next one's draws.
  changes            bigint NOT NULL DEFAULT 0,
  position           bigint NOT NULL DEFAULT 0,
  -- When (tenant time, ms) the next change falls due, and the state of the generator that
  -- draws the times between changes (JSON array of four 32-bit integers).
  next_change_at     bigint,
  timeline           text COLLATE "C" NOT NULL DEFAULT '[0,0,0,0]',
  -- The orders and trips it still tends: JSON { "orders": [id…], "trips": [id…] }, oldest first.
  pool               text COLLATE "C" NOT NULL DEFAULT '{"orders":[],"trips":[]}'
);

-- Every new order and trip checks that its short id is free in the tenant; a simulation
-- takes in tens of thousands, which must not each scan the table.
CREATE INDEX orders_short_id ON orders (tenant_id, short_id);
CREATE INDEX trips_short_id ON trips (tenant_id, short_id);
