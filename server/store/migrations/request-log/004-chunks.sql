-- The request log in chunks (D85, server/request-log/chunks.ts): one row per batch and tenant
-- instead of one per entry. A chunk's entries have consecutive ids from first_id and
-- consecutive places in the tenant's own sequence from first_seq; `entries` is a JSON array
-- of their summaries, `bodies` their request and response bodies and feed pages one after
-- another, each summary saying how many UTF-16 code units of it are its own (-1 for none).
CREATE TABLE request_log_chunk (
  tenant_id  TEXT NOT NULL,
  first_id   INTEGER NOT NULL,
  last_id    INTEGER NOT NULL,
  first_seq  INTEGER NOT NULL,
  last_seq   INTEGER NOT NULL,
  entries    TEXT NOT NULL,
  bodies     TEXT NOT NULL
) STRICT;
-- The reads walk a tenant's chunks by id; pruning deletes its oldest by place.
CREATE INDEX request_log_chunk_id ON request_log_chunk (tenant_id, last_id);
CREATE INDEX request_log_chunk_seq ON request_log_chunk (tenant_id, last_seq);

-- Each tenant's next place, and the first place it keeps (its last N entries): the entries
-- before kept_from are no longer shown, and a chunk all of whose entries are is deleted.
CREATE TABLE request_log_tenants (
  tenant_id  TEXT PRIMARY KEY,
  next_seq   INTEGER NOT NULL,
  kept_from  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- The last id given to an entry (one row): an id is never reused after pruning or a reset,
-- so a cursor or a stream position never names two entries.
CREATE TABLE request_log_sequence (last_id INTEGER NOT NULL) STRICT;
INSERT INTO request_log_sequence (last_id)
  SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'request_log'), 0), coalesce((SELECT max(id) FROM request_log), 0));

-- The entries kept so far, a chunk each, their ids kept. `utf16_length` is registered by
-- server/store/db.ts: SQLite's length() counts code points, JavaScript's strings code units.
INSERT INTO request_log_chunk (tenant_id, first_id, last_id, first_seq, last_seq, entries, bodies)
  SELECT tenant_id, id, id, seq, seq,
    json_array(json_array(at, operation, method, target, status, problem_type, field_errors, latency_ms, key_id, request_id, idempotency_key,
      replayed, order_ids, trip_ids, fault, request_content_type, request_bytes, response_content_type, response_bytes,
      coalesce(utf16_length(request_body), -1), coalesce(utf16_length(response_body), -1), coalesce(utf16_length(feed_page), -1))),
    coalesce(request_body, '') || coalesce(response_body, '') || coalesce(feed_page, '')
  FROM (SELECT *, row_number() OVER (PARTITION BY tenant_id ORDER BY id) - 1 AS seq FROM request_log)
  ORDER BY id;
INSERT INTO request_log_tenants (tenant_id, next_seq, kept_from) SELECT tenant_id, count(*), 0 FROM request_log GROUP BY tenant_id;

DROP TABLE request_log;
