-- The feed page an orderFeed or tripFeed answer gave the client (D48): its nextCursor and each
-- item's id, updatedAtUtc and status, whatever the body's size (the body itself is cut at
-- 16 KiB), as JSON `[nextCursor, [[id, updatedAtUtc, status], …]]`; null for any other entry.
ALTER TABLE request_log ADD COLUMN feed_page text COLLATE "C";

-- The bodies and the page are kilobytes of JSON each, written a thousand times a second under
-- load: compressed with lz4 where the server has it, PostgreSQL's default (pglz) made each
-- insert three times as costly (575 µs an entry against 128 for a 16 KiB body; stored
-- uncompressed, 182 µs and twice the size). Without lz4 they are stored uncompressed, as
-- SQLite stores them.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE request_log
      ALTER COLUMN request_body SET COMPRESSION lz4,
      ALTER COLUMN response_body SET COMPRESSION lz4,
      ALTER COLUMN feed_page SET COMPRESSION lz4;
  ELSE
    ALTER TABLE request_log
      ALTER COLUMN request_body SET STORAGE EXTERNAL,
      ALTER COLUMN response_body SET STORAGE EXTERNAL,
      ALTER COLUMN feed_page SET STORAGE EXTERNAL;
  END IF;
END
$$;
