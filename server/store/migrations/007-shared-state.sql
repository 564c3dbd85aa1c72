-- What several processes on one PostgreSQL database share (D81, D82): each tenant's version,
-- the keys' rate-limit buckets and the Idempotency-Keys in flight. SQLite is served by one
-- process, which keeps buckets and keys in flight in memory and its caches exact through
-- TEMP triggers on its one connection (server/tenants/key-cache.ts): here these stay empty
-- and `version` stays 0. They exist so that both engines keep one schema, file for file (D75).
ALTER TABLE tenants ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE rate_limit_buckets (
  key_id      TEXT PRIMARY KEY,
  rate_limit  INTEGER NOT NULL,
  tokens      REAL NOT NULL,
  at          INTEGER NOT NULL,
  taken       INTEGER NOT NULL
) STRICT;

CREATE TABLE idempotency_in_flight (
  tenant_id   TEXT NOT NULL,
  key         TEXT NOT NULL,
  holder      TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  PRIMARY KEY (tenant_id, key)
) STRICT;
