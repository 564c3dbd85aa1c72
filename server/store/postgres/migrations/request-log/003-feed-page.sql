-- The feed page an orderFeed or tripFeed answer gave the client (D48): its nextCursor and each
-- item's id, updatedAtUtc and status, whatever the body's size (the body itself is cut at
-- 16 KiB), as JSON `[nextCursor, [[id, updatedAtUtc, status], …]]`; null for any other entry.
ALTER TABLE request_log ADD COLUMN feed_page text COLLATE "C";
