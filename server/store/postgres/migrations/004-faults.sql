-- Fault rules of a tenant (D51): which calls of one integration operation misbehave, and how.
CREATE TABLE fault_rules (
  id          text COLLATE "C" PRIMARY KEY,
  tenant_id   text COLLATE "C" NOT NULL REFERENCES tenants (id),
  -- The rule as the control plane answers it (FaultRule of spec/sandbox.yaml), minus the counters.
  rule        text COLLATE "C" NOT NULL,
  remaining   bigint,
  matched     bigint NOT NULL DEFAULT 0,
  fired       bigint NOT NULL DEFAULT 0,
  created_at  text COLLATE "C" NOT NULL,
  -- SQLite's implicit rowid: the rules are listed in the order they were added (`ORDER BY rowid`).
  rowid       bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX fault_rules_tenant ON fault_rules (tenant_id, created_at, id);
