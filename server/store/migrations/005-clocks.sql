-- The test clock of a tenant (D52). No row: the wall clock. `frozen_at` (ms since the epoch)
-- stops it; else `offset_ms` is added to the wall clock.
CREATE TABLE tenant_clocks (
  tenant_id  TEXT PRIMARY KEY REFERENCES tenants (id),
  frozen_at  INTEGER,
  offset_ms  INTEGER NOT NULL DEFAULT 0
) STRICT;
