-- The living-feed simulation of a tenant (D53, D54).
CREATE TABLE simulations (
  tenant_id          TEXT PRIMARY KEY REFERENCES tenants (id),
  running            INTEGER NOT NULL,
  changes_per_minute REAL NOT NULL,
  seed               INTEGER NOT NULL,
  unknown_statuses   INTEGER NOT NULL DEFAULT 0,
  -- How many times it was started in the tenant: part of the ids it makes, so that a
  -- restart with the same seed never makes an id twice.
  run                INTEGER NOT NULL DEFAULT 1,
  -- Tenant time, ms since the epoch.
  started_at         INTEGER NOT NULL,
  -- How many changes it made; `position` counts the changes that fell due (made, or
  -- skipped while the tenant was not Active), and names the next one's draws.
  changes            INTEGER NOT NULL DEFAULT 0,
  position           INTEGER NOT NULL DEFAULT 0,
  -- When (tenant time, ms) the next change falls due, and the state of the generator that
  -- draws the times between changes (JSON array of four 32-bit integers).
  next_change_at     INTEGER,
  timeline           TEXT NOT NULL DEFAULT '[0,0,0,0]',
  -- The orders and trips it still tends: JSON { "orders": [id…], "trips": [id…] }, oldest first.
  pool               TEXT NOT NULL DEFAULT '{"orders":[],"trips":[]}'
) STRICT;

-- Every new order and trip checks that its short id is free in the tenant; a simulation
-- takes in tens of thousands, which must not each scan the table.
CREATE INDEX orders_short_id ON orders (tenant_id, short_id);
CREATE INDEX trips_short_id ON trips (tenant_id, short_id);
