-- The sandbox control plane's tables: the stops of a trip with each line's outcome, and
-- the tenant's mini-status directory.

-- One stop per order of a trip, in stop order (D41). A trip loaded from a fixture dataset
-- gets its stops when the control plane first touches it (server/trips/stops.ts).
CREATE TABLE trip_stops (
  trip_id      TEXT NOT NULL REFERENCES trips (id),
  position     INTEGER NOT NULL,
  order_id     TEXT NOT NULL REFERENCES orders (id),
  status       TEXT NOT NULL DEFAULT 'Open' CHECK (status IN ('Open', 'Completed', 'Failed', 'Cancelled')),
  reason_code  TEXT,
  -- JSON array of per-line outcomes ({ line, delivered, returned, rejected, lost } or
  -- { line, collected, notCollected }, each with reasonCode); null while the stop is open.
  outcomes     TEXT,
  finished_at  TEXT,
  PRIMARY KEY (trip_id, position)
) STRICT;
CREATE INDEX trip_stops_order ON trip_stops (order_id);

CREATE TABLE ministatuses (
  id          TEXT PRIMARY KEY,
  tenant_id   TEXT NOT NULL REFERENCES tenants (id),
  status      TEXT NOT NULL,
  name        TEXT NOT NULL,
  -- The name folded for the case-insensitive uniqueness of D35 (JavaScript toLowerCase).
  name_key    TEXT NOT NULL,
  active      INTEGER NOT NULL DEFAULT 1,
  created_at  TEXT NOT NULL
) STRICT;
-- A name is unique in its status group among the tenant's active entries (D35).
CREATE UNIQUE INDEX ministatuses_active_name ON ministatuses (tenant_id, status, name_key) WHERE active = 1;
