-- No table changes: a chunk's entry may now say PAGE_IN_BODY (-3) in place of its feed page's
-- length (server/request-log/page-text.ts, D48): the page of a feed answer whose body is kept
-- whole (at most 16 KiB) is read back from that body's items, not stored a second time. A waybill
-- from before this version would read such a page as none, so it refuses this log as newer.
SELECT 1;
