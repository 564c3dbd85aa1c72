-- The request log (D48). On SQLite it lives in a file of its own; on PostgreSQL it is a table
-- of the sandbox's database, with a migration history of its own (this folder) numbered as
-- SQLite's: one row per request to the integration API whose key resolved to a tenant.
-- Written in batches, pruned per tenant to the last N rows; a reset of the sandbox empties it.
CREATE TABLE request_log (
  -- An identity: an id is never reused after pruning or a reset, so a cursor or a stream
  -- position never names two entries.
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id              text COLLATE "C" NOT NULL,
  at                     text COLLATE "C" NOT NULL,
  operation              text COLLATE "C" NOT NULL,
  method                 text COLLATE "C" NOT NULL,
  -- The path with its query, as the client sent it.
  target                 text COLLATE "C" NOT NULL,
  status                 integer NOT NULL,
  problem_type           text COLLATE "C",
  -- JSON array of the problem's field errors, or null.
  field_errors           text COLLATE "C",
  latency_ms             double precision NOT NULL,
  key_id                 text COLLATE "C" NOT NULL,
  request_id             text COLLATE "C" NOT NULL,
  idempotency_key        text COLLATE "C",
  replayed               integer NOT NULL DEFAULT 0,
  request_content_type   text COLLATE "C",
  request_body           text COLLATE "C",
  request_bytes          integer NOT NULL DEFAULT 0,
  response_content_type  text COLLATE "C",
  response_body          text COLLATE "C",
  response_bytes         integer NOT NULL DEFAULT 0,
  -- JSON arrays of the ids the request changed.
  order_ids              text COLLATE "C" NOT NULL DEFAULT '[]',
  trip_ids               text COLLATE "C" NOT NULL DEFAULT '[]'
);
CREATE INDEX request_log_tenant ON request_log (tenant_id, id);
