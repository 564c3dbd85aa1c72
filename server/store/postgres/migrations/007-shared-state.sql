-- What several processes on one database share (D81, D82). A process keeps in memory what
-- every request reads (keys, clocks, fault rules) and checks it against its tenant's
-- version, which the rate limit's one statement answers; what every request counts (its
-- key's tokens, an Idempotency-Key in flight, a rule's `times`) is counted here.

-- A tenant's version: a number from a sequence, never used twice (a tenant deleted by a
-- reset and made again never matches a version a process cached), new on every change of
-- what a process caches of it: its keys, its state, its clock, its fault rules added or
-- deleted. Not on a rule's counters, nor on the stamp clock every write moves.
CREATE SEQUENCE tenant_version;
ALTER TABLE tenants ADD COLUMN version bigint NOT NULL DEFAULT nextval('tenant_version');

CREATE FUNCTION waybill_new_tenant_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE tenants SET version = nextval('tenant_version') WHERE id = OLD.tenant_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.tenant_id IS DISTINCT FROM OLD.tenant_id) THEN
    UPDATE tenants SET version = nextval('tenant_version') WHERE id = NEW.tenant_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_version AFTER INSERT OR UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION waybill_new_tenant_version();
CREATE TRIGGER tenant_clocks_version AFTER INSERT OR UPDATE OR DELETE ON tenant_clocks
  FOR EACH ROW EXECUTE FUNCTION waybill_new_tenant_version();
-- Added or deleted only: a rule's counters change on every call it matches.
CREATE TRIGGER fault_rules_version AFTER INSERT OR DELETE ON fault_rules
  FOR EACH ROW EXECUTE FUNCTION waybill_new_tenant_version();

CREATE FUNCTION waybill_tenant_state_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := nextval('tenant_version');
  RETURN NEW;
END
$$;

CREATE TRIGGER tenants_state_version BEFORE UPDATE OF state ON tenants
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION waybill_tenant_state_version();

-- Both tables below are written by nearly every request and are worth nothing after a crash
-- of the database: UNLOGGED, they write no WAL, so a request's statement commits without
-- waiting for a flush (a logged table made it wait for one each time), and a crash empties
-- them (every bucket full again, no key held in flight) instead of restoring them.

-- A key's token bucket (D14, D81): `tokens` at tenant time `at` (ms), for a key of
-- `rate_limit` a minute; `taken` says whether the statement that wrote it last took a token.
CREATE UNLOGGED TABLE rate_limit_buckets (
  key_id      text COLLATE "C" PRIMARY KEY,
  rate_limit  integer NOT NULL,
  tokens      double precision NOT NULL,
  at          bigint NOT NULL,
  taken       integer NOT NULL
);

-- An Idempotency-Key whose first request is still running (D13, D82), held by one request
-- of one process until its answer is out; a holder that stops renewing it is taken over once
-- `expires_at` (the database's time) has passed.
CREATE UNLOGGED TABLE idempotency_in_flight (
  tenant_id   text COLLATE "C" NOT NULL,
  key         text COLLATE "C" NOT NULL,
  holder      text COLLATE "C" NOT NULL,
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, key)
);
