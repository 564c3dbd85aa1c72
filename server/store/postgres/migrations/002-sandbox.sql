-- The sandbox control plane's tables: the stops of a trip with each line's outcome, and
-- the tenant's mini-status directory.

-- One stop per order of a trip, in stop order (D41). A trip loaded from a fixture dataset
-- gets its stops when the control plane first touches it (store/trip-stops.ts).
CREATE TABLE trip_stops (
  trip_id      text COLLATE "C" NOT NULL REFERENCES trips (id),
  position     integer NOT NULL,
  order_id     text COLLATE "C" NOT NULL REFERENCES orders (id),
  status       text COLLATE "C" NOT NULL DEFAULT 'Open' CHECK (status IN ('Open', 'Completed', 'Failed', 'Cancelled')),
  reason_code  text COLLATE "C",
  -- JSON array of per-line outcomes ({ line, delivered, returned, rejected, lost } or
  -- { line, collected, notCollected }, each with reasonCode); null while the stop is open.
  outcomes     text COLLATE "C",
  finished_at  text COLLATE "C",
  PRIMARY KEY (trip_id, position)
);
CREATE INDEX trip_stops_order ON trip_stops (order_id);

CREATE TABLE ministatuses (
  id          text COLLATE "C" PRIMARY KEY,
  tenant_id   text COLLATE "C" NOT NULL REFERENCES tenants (id),
  status      text COLLATE "C" NOT NULL,
  name        text COLLATE "C" NOT NULL,
  -- The name folded for the case-insensitive uniqueness of D35 (JavaScript toLowerCase).
  name_key    text COLLATE "C" NOT NULL,
  active      integer NOT NULL DEFAULT 1,
  created_at  text COLLATE "C" NOT NULL,
  -- SQLite's implicit rowid (insertion order), so that `ORDER BY rowid` reads the same on both engines.
  rowid       bigint GENERATED ALWAYS AS IDENTITY
);
-- A name is unique in its status group among the tenant's active entries (D35).
CREATE UNIQUE INDEX ministatuses_active_name ON ministatuses (tenant_id, status, name_key) WHERE active = 1;
