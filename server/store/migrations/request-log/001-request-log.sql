-- The request log (D48), in a database file of its own beside the sandbox's (see
-- server/request-log/store.ts): one row per request to the integration API whose key
-- resolved to a tenant. Written in batches by server/request-log/, pruned per tenant to the
-- last N rows; a reset of the sandbox empties it.
CREATE TABLE request_log (
  -- AUTOINCREMENT: an id is never reused after pruning or a reset, so a cursor or a
  -- stream position never names two entries.
  id                     INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id              TEXT NOT NULL,
  at                     TEXT NOT NULL,
  operation              TEXT NOT NULL,
  method                 TEXT NOT NULL,
  -- The path with its query, as the client sent it.
  target                 TEXT NOT NULL,
  status                 INTEGER NOT NULL,
  problem_type           TEXT,
  -- JSON array of the problem's field errors, or null.
  field_errors           TEXT,
  latency_ms             REAL NOT NULL,
  key_id                 TEXT NOT NULL,
  request_id             TEXT NOT NULL,
  idempotency_key        TEXT,
  replayed               INTEGER NOT NULL DEFAULT 0,
  request_content_type   TEXT,
  request_body           TEXT,
  request_bytes          INTEGER NOT NULL DEFAULT 0,
  response_content_type  TEXT,
  response_body          TEXT,
  response_bytes         INTEGER NOT NULL DEFAULT 0,
  -- JSON arrays of the ids the request changed.
  order_ids              TEXT NOT NULL DEFAULT '[]',
  trip_ids               TEXT NOT NULL DEFAULT '[]'
) STRICT;
CREATE INDEX request_log_tenant ON request_log (tenant_id, id);
