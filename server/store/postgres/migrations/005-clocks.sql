-- The test clock of a tenant (D52). No row: the wall clock. `frozen_at` (ms since the epoch)
-- stops it; else `offset_ms` is added to the wall clock.
CREATE TABLE tenant_clocks (
  tenant_id  text COLLATE "C" PRIMARY KEY REFERENCES tenants (id),
  frozen_at  bigint,
  offset_ms  bigint NOT NULL DEFAULT 0
);
