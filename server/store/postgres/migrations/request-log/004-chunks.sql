-- The request log in chunks (D85, server/request-log/chunks.ts), as on SQLite: one row per
-- batch and tenant instead of one per entry. A chunk's entries have consecutive ids from
-- first_id and consecutive places in the tenant's own sequence from first_seq; `entries` is
-- a JSON array of their summaries, `bodies` their request and response bodies and feed pages
-- one after another, each summary saying how many UTF-16 code units of it are its own (-1
-- for none).
CREATE TABLE request_log_chunk (
  tenant_id  text COLLATE "C" NOT NULL,
  first_id   bigint NOT NULL,
  last_id    bigint NOT NULL,
  first_seq  bigint NOT NULL,
  last_seq   bigint NOT NULL,
  entries    text COLLATE "C" NOT NULL,
  bodies     text COLLATE "C" NOT NULL
);
-- The reads walk a tenant's chunks by id; pruning deletes its oldest by place.
CREATE INDEX request_log_chunk_id ON request_log_chunk (tenant_id, last_id);
CREATE INDEX request_log_chunk_seq ON request_log_chunk (tenant_id, last_seq);

-- Compressed with lz4 where the server has it (see 003-feed-page.sql); else stored uncompressed, as on SQLite.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE request_log_chunk ALTER COLUMN entries SET COMPRESSION lz4, ALTER COLUMN bodies SET COMPRESSION lz4;
  ELSE
    ALTER TABLE request_log_chunk ALTER COLUMN entries SET STORAGE EXTERNAL, ALTER COLUMN bodies SET STORAGE EXTERNAL;
  END IF;
END
$$;

-- Each tenant's next place, and the first place it keeps (its last N entries): the entries
-- before kept_from are no longer shown, and a chunk all of whose entries are is deleted.
CREATE TABLE request_log_tenants (
  tenant_id  text COLLATE "C" PRIMARY KEY,
  next_seq   bigint NOT NULL,
  kept_from  bigint NOT NULL
);

-- The last id given to an entry (one row, taken under the log's write lock, D84): an id is
-- never reused after pruning or a reset, so a cursor or a stream position never names two entries.
CREATE TABLE request_log_sequence (last_id bigint NOT NULL);
INSERT INTO request_log_sequence (last_id)
  SELECT greatest(coalesce(pg_sequence_last_value(pg_get_serial_sequence('request_log', 'id')::regclass), 0), coalesce((SELECT max(id) FROM request_log), 0));

-- The entries kept so far, a chunk each, their ids kept. A text's length in UTF-16 code
-- units is its characters and once more each character beyond U+FFFF.
INSERT INTO request_log_chunk (tenant_id, first_id, last_id, first_seq, last_seq, entries, bodies)
  SELECT tenant_id, id, id, seq, seq,
    json_build_array(json_build_array(at, operation, method, target, status, problem_type, field_errors, latency_ms, key_id, request_id, idempotency_key,
      replayed, order_ids, trip_ids, fault, request_content_type, request_bytes, response_content_type, response_bytes,
      coalesce(length(request_body) + length(regexp_replace(request_body, '[^\U00010000-\U0010FFFF]', '', 'g')), -1),
      coalesce(length(response_body) + length(regexp_replace(response_body, '[^\U00010000-\U0010FFFF]', '', 'g')), -1),
      coalesce(length(feed_page) + length(regexp_replace(feed_page, '[^\U00010000-\U0010FFFF]', '', 'g')), -1)))::text,
    coalesce(request_body, '') || coalesce(response_body, '') || coalesce(feed_page, '')
  FROM (SELECT *, row_number() OVER (PARTITION BY tenant_id ORDER BY id) - 1 AS seq FROM request_log) AS entry
  ORDER BY id;
INSERT INTO request_log_tenants (tenant_id, next_seq, kept_from) SELECT tenant_id, count(*), 0 FROM request_log GROUP BY tenant_id;

DROP TABLE request_log;
