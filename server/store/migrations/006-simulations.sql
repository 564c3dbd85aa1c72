-- The living-feed simulation of a tenant (D53, D54).
CREATE TABLE simulations (
  tenant_id          TEXT PRIMARY KEY REFERENCES tenants (id),
  running            INTEGER NOT NULL,
  changes_per_minute REAL NOT NULL,
  seed               INTEGER NOT NULL,
  unknown_statuses   INTEGER NOT NULL DEFAULT 0,
  -- Tenant time, ms since the epoch.
  started_at         INTEGER NOT NULL,
  -- How many changes it made, and when (tenant time, ms) the next one falls due.
  changes            INTEGER NOT NULL DEFAULT 0,
  next_change_at     INTEGER
) STRICT;
