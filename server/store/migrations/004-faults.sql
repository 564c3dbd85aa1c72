-- Fault rules of a tenant (D51): which calls of one integration operation misbehave, and how.
CREATE TABLE fault_rules (
  id          TEXT PRIMARY KEY,
  tenant_id   TEXT NOT NULL REFERENCES tenants (id),
  -- The rule as the control plane answers it (FaultRule of spec/sandbox.yaml), minus the counters.
  rule        TEXT NOT NULL,
  remaining   INTEGER,
  matched     INTEGER NOT NULL DEFAULT 0,
  fired       INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL
) STRICT;
CREATE INDEX fault_rules_tenant ON fault_rules (tenant_id, created_at, id);
