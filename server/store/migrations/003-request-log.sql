-- The request log (D48) lives in a database file of its own (migrations/request-log/): a
-- database that ran the first version of this migration, which kept it here, drops it.
DROP TABLE IF EXISTS request_log;
